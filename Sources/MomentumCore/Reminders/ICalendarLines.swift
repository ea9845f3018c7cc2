import Foundation

/// The content lines of an iCalendar object (RFC 5545 §3.1): one property a line, text values
/// escaped, every line folded to at most 75 octets and ended by CRLF.
///
/// ```swift
/// var lines = ICalendarLines()
/// lines.add("BEGIN", "VCALENDAR")
/// lines.add("SUMMARY", text: "Tea; then practice")   // SUMMARY:Tea\; then practice
/// lines.text                                         // "BEGIN:VCALENDAR\r\nSUMMARY:…\r\n"
/// ```
struct ICalendarLines: Sendable {
    /// The longest physical line, in octets, without its CRLF.
    static let maximumLineOctets = 75

    private(set) var lines: [String] = []

    /// A property whose value is written as it is (numbers, dates, durations, names).
    mutating func add(_ name: String, _ value: String) {
        lines.append("\(name):\(value)")
    }

    /// A property whose value is text: backslash, semicolon, comma and line breaks escaped.
    mutating func add(_ name: String, text: String) {
        add(name, Self.escaped(text))
    }

    /// The whole object: each line folded, each ended by CRLF.
    var text: String {
        lines.map { Self.folded($0) + "\r\n" }.joined()
    }

    /// `text` as a TEXT value (§3.3.11): `\` → `\\`, `;` → `\;`, `,` → `\,`, a line break → `\n`.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { previousWasCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\\": escaped += "\\\\"
            case ";": escaped += "\\;"
            case ",": escaped += "\\,"
            case "\r": escaped += "\\n"
            // CRLF is one line break, already written at its CR.
            case "\n" where previousWasCarriageReturn: continue
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// A parameter value (§3.2): quoted when it holds `:`, `;` or `,`.
    static func parameterValue(_ value: String) -> String {
        value.contains(where: { ":;,".contains($0) }) ? "\"\(value)\"" : value
    }

    /// `line` folded (§3.1): at most 75 octets a physical line, continuation lines starting with a
    /// space, and never inside a UTF-8 sequence, so `ä` stays whole. Joined by CRLF, no final CRLF.
    static func folded(_ line: String) -> String {
        var physicalLines: [String] = []
        var current = ""
        var currentOctets = 0
        for scalar in line.unicodeScalars {
            let octets = String(scalar).utf8.count
            if currentOctets + octets > maximumLineOctets {
                physicalLines.append(current)
                // The leading space of a continuation line counts towards its 75 octets.
                current = " "
                currentOctets = 1
            }
            current.unicodeScalars.append(scalar)
            currentOctets += octets
        }
        physicalLines.append(current)
        return physicalLines.joined(separator: "\r\n")
    }

    /// `folded` with its folds removed (§3.1: a CRLF followed by one space or tab).
    static func unfolded(_ folded: String) -> String {
        folded.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\r\n\t", with: "")
    }
}

/// Dates and offsets as iCalendar writes them.
enum ICalendarFormat {
    /// `20261123T080000Z`: a UTC DATE-TIME (§3.3.5, form #2).
    static func utc(_ instant: Date) -> String {
        local(instant, in: .gmt) + "Z"
    }

    /// `20261123T090000`: the wall-clock time of `instant` in `zone` (a local DATE-TIME).
    static func local(_ instant: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
        return padded(parts.year, 4) + padded(parts.month, 2) + padded(parts.day, 2) + "T" + padded(parts.hour, 2)
            + padded(parts.minute, 2) + padded(parts.second, 2)
    }

    /// A UTC offset (§3.3.14): `+0100`, `-0500`, `+0530`; seconds only when there are some
    /// (`+005328`, Berlin's local mean time).
    static func offset(seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        let text = sign + padded(magnitude / 3600, 2) + padded(magnitude % 3600 / 60, 2)
        return magnitude % 60 == 0 ? text : text + padded(magnitude % 60, 2)
    }

    private static func padded(_ value: Int?, _ width: Int) -> String {
        let digits = String(value ?? 0)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

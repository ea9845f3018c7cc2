import Foundation

/// The practice log as an iCalendar file (RFC 5545): one event per session, so a calendar app
/// shows when each practice happened.
///
/// Times are written in UTC (`DTSTART:20270115T080000Z`), which every calendar shows in its own
/// time zone; each event's UID is the record's id, so importing the file again updates rather
/// than duplicates; `DTSTAMP` is the record's last change, so equal logs give equal files.
public enum PracticeLogCalendar {
    public static func export(_ log: [LoggedRecord], catalog: StringCatalog) -> String {
        var lines = [
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//Momentum//Practice log//\(catalog.language.rawValue.uppercased())",
            "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH",
            "X-WR-CALNAME:\(escaped(catalog[.exportCalendarName]))",
        ]
        for logged in log {
            let record = logged.record
            let length = DurationFormatting.words(.seconds(record.countedSeconds), language: catalog.language)
            var description = [catalog.format(.exportCalendarCounted, ["duration": length])]
            if let energy = record.energyKilocalories {
                description.append(catalog.format(.exportCalendarEnergy, ["energy": String(Int(energy.rounded()))]))
            }
            description += record.details.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            lines += [
                "BEGIN:VEVENT",
                "UID:\(record.id.uuidString.lowercased())@momentum",
                "DTSTAMP:\(utc(logged.updatedAt))",
                "DTSTART:\(utc(record.start))",
                "DTEND:\(utc(max(record.end, record.start.addingTimeInterval(1))))",
                "SUMMARY:\(escaped(catalog[record.kind.nameKey] + " · " + length))",
                "DESCRIPTION:\(escaped(description.joined(separator: "\n")))",
                "CATEGORIES:\(escaped(catalog[record.category.nameKey]))",
                "TRANSP:TRANSPARENT",
                "END:VEVENT",
            ]
        }
        lines.append("END:VCALENDAR")
        return lines.map(folded).joined()
    }

    /// `20270115T080000Z`.
    static func utc(_ date: Date) -> String {
        let text = InstantText.format(date)  // 2027-01-15T08:00:00.000Z
        return text.prefix(19).filter { $0 != "-" && $0 != ":" } + "Z"
    }

    /// TEXT values escape backslash, semicolon, comma and line breaks.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n", "\r\n": result += "\\n"
            case "\r": continue
            default: result.append(character)
            }
        }
        return result
    }

    /// A content line folded at 75 octets (never inside a UTF-8 sequence), ending in CRLF.
    static func folded(_ line: String) -> String {
        var result = ""
        var octets = 0
        for character in line {
            let size = String(character).utf8.count
            if octets + size > 75 {
                result += "\r\n "
                octets = 1
            }
            result.append(character)
            octets += size
        }
        return result + "\r\n"
    }
}

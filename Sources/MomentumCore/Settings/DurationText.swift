import Foundation

/// Reads durations the way people type them: `10` (in the default unit), `90s`, `10m`, `1.5h`.
public enum DurationText {
    public enum Unit: Sendable {
        case seconds, minutes, hours

        var seconds: Double {
            switch self {
            case .seconds: 1
            case .minutes: 60
            case .hours: 3600
            }
        }
    }

    /// The largest number read as itself: any larger number (however many digits) reads as
    /// just over it, so that whoever checks the duration's range names the range ("A sit can
    /// last at most 10 hours") instead of calling ten billion minutes not a number.
    static let largestNumber = 10_000_000.0

    /// The duration `text` stands for, rounded to the millisecond, or `nil` when it is not a
    /// non-negative number with an optional `s`, `m`, `min` or `h` suffix.
    public static func parse(_ text: String, defaultUnit: Unit) -> Duration? {
        var number = text.trimmingCharacters(in: .whitespaces).lowercased()
        var unit = defaultUnit
        for (suffix, suffixUnit) in [("min", Unit.minutes), ("s", .seconds), ("m", .minutes), ("h", .hours)]
        where number.hasSuffix(suffix) {
            number.removeLast(suffix.count)
            unit = suffixUnit
            break
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            number.contains(where: \.isNumber), let parsed = Double(number)
        else { return nil }
        let value = parsed.isFinite ? min(parsed, largestNumber + 1) : largestNumber + 1
        return .milliseconds(Int64((value * unit.seconds * 1000).rounded()))
    }
}

extension IntervalGongs {
    /// Reads `off`, a number of minutes (`5`: every 5 minutes) or a comma-separated list of
    /// offsets in minutes (`25,30,55`). Bounds are checked by the plan, not here.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed == "off" || trimmed == "none" {
            self = .off
            return
        }
        if !trimmed.contains(",") {
            guard let minutes = Int(trimmed) else { return nil }
            self = .every(minutes: minutes)
            return
        }
        var offsets: [Duration] = []
        for part in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            guard let offset = DurationText.parse(String(part), defaultUnit: .minutes) else { return nil }
            offsets.append(offset)
        }
        self = .offsets(offsets)
    }

    /// The form ``init(parsing:)`` reads back.
    public var text: String {
        switch self {
        case .off: "off"
        case .every(let minutes): "\(minutes)"
        case .offsets(let offsets): offsets.map { DurationText.minutesText($0) }.joined(separator: ",")
        }
    }
}

extension DurationText {
    /// A duration as ``parse(_:defaultUnit:)`` with minutes reads it back: `25` for whole
    /// minutes, `90s` for whole seconds, `1.5s` otherwise.
    public static func minutesText(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        if milliseconds % 60_000 == 0 { return String(milliseconds / 60_000) }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        return "\(Double(milliseconds) / 1000)s"
    }
}

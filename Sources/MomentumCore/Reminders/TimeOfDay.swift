import Foundation

/// A wall-clock time of day, to the minute, as people type it: `07:30`, `9:05`.
///
/// ```swift
/// let time = try TimeOfDay(parsing: "7:30")
/// time.description  // "07:30"
/// ```
public struct TimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    public static let midnight = TimeOfDay(validHour: 0, minute: 0)

    public init(hour: Int, minute: Int = 0) throws(TimeOfDayError) {
        let text = "\(hour):\(minute)"
        guard (0...23).contains(hour) else { throw .hourOutOfRange(text) }
        guard (0...59).contains(minute) else { throw .minuteOutOfRange(text) }
        self.init(validHour: hour, minute: minute)
    }

    /// Reads `HH:MM` or `H:MM` (24-hour clock, two-digit minutes).
    public init(parsing text: String) throws(TimeOfDayError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hour = Int(parts[0]), let minute = Int(parts[1])
        else { throw .unreadable(text) }
        guard (0...23).contains(hour) else { throw .hourOutOfRange(text) }
        guard (0...59).contains(minute) else { throw .minuteOutOfRange(text) }
        self.init(validHour: hour, minute: minute)
    }

    /// A time known to be valid (a constant in the code).
    init(validHour hour: Int, minute: Int = 0) {
        self.hour = hour
        self.minute = minute
    }

    /// Minutes since midnight, 0 … 1439.
    public var minutesSinceMidnight: Int { hour * 60 + minute }

    /// `HH:MM`, the form ``init(parsing:)`` reads back.
    public var description: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(hour)):\(two(minute))"
    }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        lhs.minutesSinceMidnight < rhs.minutesSinceMidnight
    }
}

extension TimeOfDay: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\(error)", underlyingError: error))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Text that is not a time of day; each case keeps the text as typed.
public enum TimeOfDayError: Error, Equatable, Sendable {
    /// Not of the form `HH:MM` at all (`noon`, `7`, `07:5`).
    case unreadable(String)
    /// The hour is not 0 … 23 (`25:00`, `24:00`).
    case hourOutOfRange(String)
    /// The minute is not 0 … 59 (`9:60`).
    case minuteOutOfRange(String)
}

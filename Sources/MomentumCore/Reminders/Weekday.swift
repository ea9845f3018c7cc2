import Foundation

/// A day of the week, numbered as in ISO 8601 (Monday 1 … Sunday 7), written `mon` … `sun`.
public enum Weekday: Int, Sendable, Hashable, Comparable, CaseIterable {
    case monday = 1
    case tuesday, wednesday, thursday, friday, saturday, sunday

    /// The three-letter English code stored in settings: `mon` … `sun`.
    public var code: String {
        switch self {
        case .monday: "mon"
        case .tuesday: "tue"
        case .wednesday: "wed"
        case .thursday: "thu"
        case .friday: "fri"
        case .saturday: "sat"
        case .sunday: "sun"
        }
    }

    /// The weekday of `day`.
    public init(of day: Day) {
        self = Weekday(rawValue: day.isoWeekday) ?? .monday
    }

    /// Reads a code (`mon`) or an English name (`Monday`), in any case.
    public init?(code text: String) {
        let lowered = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard
            let weekday = Weekday.allCases.first(where: {
                $0.code == lowered || "\($0)" == lowered
            })
        else { return nil }
        self = weekday
    }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Monday to Friday.
    public static let workdays: Set<Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday]
    /// Saturday and Sunday.
    public static let weekend: Set<Weekday> = [.saturday, .sunday]
}

extension Weekday: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let weekday = Weekday(code: text) else {
            let error = ReminderSettingsError.unknownWeekday(text)
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
        }
        self = weekday
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}

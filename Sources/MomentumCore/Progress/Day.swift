/// A calendar day (proleptic Gregorian), independent of any time zone.
///
/// Day arithmetic is integer arithmetic on a day number, so daylight-saving changes can neither
/// lose nor double a day.
///
/// ```swift
/// let day = try Day(year: 2026, month: 3, day: 29)
/// day.adding(days: 1).description  // "2026-03-30"
/// ```
public struct Day: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01 (which is day 0).
    public let number: Int

    public init(number: Int) { self.number = number }

    /// The day with these components; throws when the date does not exist (30 February).
    public init(year: Int, month: Int, day: Int) throws(DayError) {
        guard (1...12).contains(month), (1...Day.daysIn(month: month, year: year)).contains(day),
            (1...9999).contains(year)
        else { throw .doesNotExist(year: year, month: month, day: day) }
        number = Day.number(year: year, month: month, day: day)
    }

    /// Reads `YYYY-MM-DD`.
    public init(parsing text: String) throws(DayError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { throw .unreadable(text) }
        try self.init(year: year, month: month, day: day)
    }

    public var components: (year: Int, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days.
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    public var year: Int { components.year }
    public var month: Int { components.month }
    public var dayOfMonth: Int { components.day }

    /// 1 = Monday … 7 = Sunday (ISO 8601).
    public var isoWeekday: Int {
        // 1970-01-01 was a Thursday (4).
        ((number % 7 + 7) % 7 + 3) % 7 + 1
    }

    public func adding(days: Int) -> Day { Day(number: number + days) }

    /// Days from `self` to `other` (positive when `other` is later).
    public func days(to other: Day) -> Int { other.number - number }

    /// The Monday of this day's ISO week.
    public var startOfWeek: Day { adding(days: 1 - isoWeekday) }
    public var startOfMonth: Day { Day(number: Day.number(year: year, month: month, day: 1)) }
    public var startOfYear: Day { Day(number: Day.number(year: year, month: 1, day: 1)) }

    public var description: String {
        let (year, month, day) = components
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))"
    }

    public static func < (lhs: Day, rhs: Day) -> Bool { lhs.number < rhs.number }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func number(year: Int, month: Int, day: Int) -> Int {
        // Howard Hinnant's days_from_civil.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let monthPrime = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthPrime + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension Day: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(error)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A date that is not a day.
public enum DayError: Error, Equatable, Sendable {
    case unreadable(String)
    case doesNotExist(year: Int, month: Int, day: Int)
}

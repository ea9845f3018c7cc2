import Foundation

/// Which day an instant belongs to: the local calendar day of the person's time zone, with days
/// starting at the day start hour (00:00 – 06:00), so a sit at 01:00 can count for the evening
/// before.
public struct DayCalendar: Sendable, Equatable {
    public let timeZone: TimeZone
    public let dayStartHour: Int

    public static let dayStartHours = 0...6

    public init(timeZone: TimeZone, dayStartHour: Int = 0) throws(DayCalendarError) {
        guard Self.dayStartHours.contains(dayStartHour) else { throw .dayStartHourOutOfRange(dayStartHour) }
        self.timeZone = timeZone
        self.dayStartHour = dayStartHour
    }

    /// Midnight days in `timeZone`; always valid.
    init(unchecked timeZone: TimeZone) {
        self.timeZone = timeZone
        self.dayStartHour = 0
    }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// The day `instant` counts for.
    ///
    /// Uses the local wall-clock time, not an absolute offset: 01:30 with a 04:00 day start is the
    /// day before on every date, daylight-saving days included.
    public func day(of instant: Date) -> Day {
        let parts = calendar.dateComponents([.year, .month, .day, .hour], from: instant)
        let local = Day(number: Day.number(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1))
        return (parts.hour ?? 0) < dayStartHour ? local.adding(days: -1) : local
    }

    /// The first instant of `day` (its day start hour, local time). On a daylight-saving change
    /// that skips that hour, the first instant after the gap.
    public func start(of day: Day) -> Date {
        let (year, month, dayOfMonth) = day.components
        let components = DateComponents(year: year, month: month, day: dayOfMonth, hour: dayStartHour)
        if let date = calendar.date(from: components) { return date }
        return Date(timeIntervalSince1970: Double(day.number) * 86_400)
    }
}

/// A day calendar setting out of bounds.
public enum DayCalendarError: Error, Equatable, Sendable {
    case dayStartHourOutOfRange(Int)
}

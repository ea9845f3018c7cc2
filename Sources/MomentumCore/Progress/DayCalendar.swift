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
    /// How many calendar days `instant` falls after the person's day it counts on: 1 for a sit
    /// at 01:30 when days start at 4:00 (it counts on the day before), else 0. What a list shows
    /// beside the clock time ("01:30 +1"), so a day and a time never make a moment that was not.
    public func calendarDaysAfterItsDay(_ instant: Date) -> Int {
        guard dayStartHour > 0 else { return 0 }
        return DayCalendar(unchecked: timeZone).day(of: instant).number - day(of: instant).number
    }

    public func day(of instant: Date) -> Day {
        let seconds = instant.timeIntervalSince1970
        return day(localSeconds: seconds + Double(timeZone.secondsFromGMT(for: instant)))
    }

    /// The day of an instant given as seconds since 1970, with its offset looked up in `offsets`.
    func day(utcSeconds seconds: Double, offsets: UTCOffsetTable) -> Day {
        day(localSeconds: seconds + Double(offsets.offset(at: seconds)))
    }

    /// The rule itself: local wall-clock seconds (as if the zone were UTC), shifted back by the day
    /// start hour, divided into days.
    private func day(localSeconds: Double) -> Day {
        Day(number: Int(((localSeconds - Double(dayStartHour * 3600)) / 86_400).rounded(.down)))
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

/// A time zone's UTC offsets over a span of time, looked up by binary search instead of asking the
/// time zone database once per record.
struct UTCOffsetTable {
    /// Instants (seconds since 1970) where the offset changes, and the offset from each on.
    private var changes: [Double] = []
    private var offsets: [Int] = []

    init(timeZone: TimeZone, from start: Date, through end: Date) {
        var instant = start.addingTimeInterval(-86_400)
        changes.append(-Double.infinity)
        offsets.append(timeZone.secondsFromGMT(for: instant))
        let limit = end.addingTimeInterval(86_400)
        while let next = timeZone.nextDaylightSavingTimeTransition(after: instant), next <= limit {
            changes.append(next.timeIntervalSince1970)
            offsets.append(timeZone.secondsFromGMT(for: next))
            instant = next
        }
    }

    func offset(at seconds: Double) -> Int {
        var low = 0
        var high = changes.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if changes[middle] <= seconds { low = middle } else { high = middle - 1 }
        }
        return offsets[low]
    }
}

/// A day calendar setting out of bounds.
public enum DayCalendarError: Error, Equatable, Sendable {
    case dayStartHourOutOfRange(Int)
}

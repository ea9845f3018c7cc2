import Foundation

/// Wall-clock days and times in one time zone, and the instants they stand for.
///
/// Days are midnight days; arithmetic on them is integer arithmetic (``Day``), so a
/// daylight-saving change can neither skip nor double one.
struct LocalClock: Sendable {
    let timeZone: TimeZone
    private let calendar: Calendar
    private let days: DayCalendar

    init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
        self.days = DayCalendar(unchecked: timeZone)
    }

    /// The local day of `instant`.
    func day(of instant: Date) -> Day { days.day(of: instant) }

    /// The local wall-clock time of `instant`, to the minute (seconds dropped).
    func time(of instant: Date) -> TimeOfDay {
        let components = calendar.dateComponents([.hour, .minute], from: instant)
        // try?: a Gregorian calendar's hour is 0–23 and its minute 0–59, exactly what TimeOfDay takes.
        return (try? TimeOfDay(hour: components.hour ?? 0, minute: components.minute ?? 0)) ?? .midnight
    }

    /// The instant `time` shows on the clock on `day`.
    ///
    /// A time the clock skips (02:30 on a spring-forward day) becomes the first instant after the
    /// gap (03:00); a time it shows twice (02:30 on a fall-back day) is its first showing.
    func instant(on day: Day, at time: TimeOfDay) -> Date {
        let (year, month, dayOfMonth) = day.components
        let wanted = DateComponents(year: year, month: month, day: dayOfMonth, hour: time.hour, minute: time.minute)
        guard let instant = calendar.date(from: wanted) else {
            return Date(timeIntervalSince1970: Double(day.number * 86_400 + time.minutesSinceMidnight * 60))
        }
        guard shows(time, on: day, at: instant) else {
            // Skipped: the clock jumped over `time`; the jump itself is the next valid time.
            let searchFrom = instant.addingTimeInterval(-6 * 3600)
            if let jump = timeZone.nextDaylightSavingTimeTransition(after: searchFrom), jump <= instant {
                return jump
            }
            return instant
        }
        let hourEarlier = instant.addingTimeInterval(-3600)
        return shows(time, on: day, at: hourEarlier) ? hourEarlier : instant
    }

    private func shows(_ time: TimeOfDay, on day: Day, at instant: Date) -> Bool {
        self.day(of: instant) == day && self.time(of: instant) == time
            && calendar.component(.second, from: instant) == 0
    }
}

extension QuietHours {
    /// Whether `instant` falls in the quiet hours on `clock`.
    func contains(_ instant: Date, on clock: LocalClock) -> Bool {
        contains(clock.time(of: instant))
    }

    /// The end of the quiet hours `instant` falls in: 22:30 → 08:00 the next day, 06:00 → 08:00
    /// the same day (with the default 22:00 – 08:00).
    func end(after instant: Date, on clock: LocalClock) -> Date {
        let day = clock.day(of: instant)
        let endsNextDay = start > end && clock.time(of: instant) >= start
        return clock.instant(on: endsNextDay ? day.adding(days: 1) : day, at: end)
    }
}

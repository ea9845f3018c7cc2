import Foundation

extension PlannedReminder {
    /// Why and how far the anti-nag policy moved this reminder, in `language`, with every time
    /// in `timeZone` on the language's clock: "Quiet hours 22:00–08:00 move this reminder from
    /// 22:30 to 08:00 the next day." `nil` when it was not moved.
    public func moveSentence(quietHours: QuietHours, timeZone: TimeZone, language: Language) -> String? {
        guard let movedFrom, !moves.isEmpty else { return nil }
        let catalog = StringCatalog.shared(for: language)
        let clock = LocalClock(timeZone: timeZone)
        let from = language.clockTime(movedFrom, timeZone: timeZone)
        var to = language.clockTime(fireAt, timeZone: timeZone)
        if clock.day(of: fireAt) != clock.day(of: movedFrom) {
            to = catalog.format(.reminderMovedNextDay, ["time": to])
        }
        let arguments = [
            "start": language.clockTime(quietHours.start), "end": language.clockTime(quietHours.end),
            "from": from, "to": to,
            "hours": "\(ReminderPolicy.minimumSpacing.components.seconds / 3600)",
        ]
        let key: StringKey =
            switch (moves.contains(.quietHours), moves.contains(.spacing)) {
            case (true, true): .reminderMovedQuietHoursAndSpacing
            case (true, false): .reminderMovedQuietHours
            default: .reminderMovedSpacing
            }
        return catalog.format(key, arguments)
    }
}

extension Language {
    /// Whether this language's locale reads times on a 24-hour clock (both Momentum's do).
    public var usesTwentyFourHourClock: Bool {
        let pattern = DateFormatter.dateFormat(fromTemplate: "j", options: 0, locale: locale) ?? "H"
        return pattern.contains("H") || pattern.contains("k")
    }

    /// A wall-clock time as this language writes it: "07:30" (or "7:30 AM" where the locale
    /// reads a 12-hour clock).
    public func clockTime(_ time: TimeOfDay) -> String {
        guard !usesTwentyFourHourClock, let utc = TimeZone(identifier: "UTC") else { return time.description }
        let instant = Date(timeIntervalSince1970: TimeInterval(time.minutesSinceMidnight * 60))
        return dateFormatter(template: "jmm", timeZone: utc).string(from: instant)
    }

    /// The wall-clock time of `instant` in `timeZone`, as ``clockTime(_:)-(TimeOfDay)`` writes it.
    public func clockTime(_ instant: Date, timeZone: TimeZone) -> String {
        clockTime(LocalClock(timeZone: timeZone).time(of: instant))
    }
}

import Foundation

// Each change returns new settings or throws; the settings it was called on never change, so a
// refused command leaves the stored settings exactly as they were.
extension ReminderSettings {
    /// These settings with reminders of `kind` switched on or off.
    public func setting(kind: ReminderKind, on: Bool) -> ReminderSettings {
        var changed = self
        if on { changed.kindsOff.remove(kind) } else { changed.kindsOff.insert(kind) }
        return changed
    }

    /// These settings with quiet hours from `start` to `end`; refuses zero length.
    public func withQuietHours(start: TimeOfDay, end: TimeOfDay) throws(ReminderSettingsError) -> ReminderSettings {
        var changed = self
        changed.quietHours = try QuietHours(start: start, end: end)
        return changed
    }

    /// ``withQuietHours(start:end:)`` from typed times (`22:00`, `7:30`).
    public func withQuietHours(start: String, end: String) throws(ReminderSettingsError) -> ReminderSettings {
        try withQuietHours(start: Self.time(start), end: Self.time(end))
    }

    /// These settings with practice-due, level-review and welcome-back reminders at `time`.
    public func withPreferredTime(_ time: TimeOfDay) -> ReminderSettings {
        var changed = self
        changed.preferredTime = time
        return changed
    }

    /// ``withPreferredTime(_:)`` from a typed time (`09:00`).
    public func withPreferredTime(_ text: String) throws(ReminderSettingsError) -> ReminderSettings {
        withPreferredTime(try Self.time(text))
    }

    /// These settings with one more daily reminder. Without an `id` the smallest unused number
    /// (`1`, `2`, …) names it.
    public func addingDaily(
        id: String? = nil, time: TimeOfDay, weekdays: Set<Weekday>, category: PracticeCategory
    ) throws(ReminderSettingsError) -> ReminderSettings {
        let reminder = try DailyReminder(
            id: id ?? nextDailyID, time: time, weekdays: weekdays, category: category)
        return try ReminderSettings(
            kindsOff: kindsOff, quietHours: quietHours, preferredTime: preferredTime,
            dailyReminders: dailyReminders + [reminder])
    }

    /// ``addingDaily(id:time:weekdays:category:)`` from typed text: a time (`07:30`), weekdays
    /// (see ``weekdays(parsing:)``) and a category name.
    public func addingDaily(id: String? = nil, time: String, weekdays: String, category: String)
        throws(ReminderSettingsError) -> ReminderSettings
    {
        try addingDaily(
            id: id, time: Self.time(time), weekdays: Self.weekdays(parsing: weekdays),
            category: PracticeCategory(parsing: category))
    }

    /// These settings without the daily reminder `id`.
    public func removingDaily(id: String) throws(ReminderSettingsError) -> ReminderSettings {
        guard dailyReminder(id: id) != nil else { throw .unknownDailyID(id) }
        var changed = self
        changed.dailyReminders.removeAll { $0.id == id }
        return changed
    }

    /// Reads weekdays as people type them: `mon,wed,fri`, `all`, `workdays` or `weekend`. An
    /// empty text reads as no weekdays, which a daily reminder then refuses.
    public static func weekdays(parsing text: String) throws(ReminderSettingsError) -> Set<Weekday> {
        var weekdays: Set<Weekday> = []
        for part in text.split(separator: ",") {
            let word = part.trimmingCharacters(in: .whitespaces).lowercased()
            switch word {
            case "": continue
            case "all", "daily", "every-day": weekdays.formUnion(Weekday.allCases)
            case "workdays", "weekdays": weekdays.formUnion(Weekday.workdays)
            case "weekend", "weekends": weekdays.formUnion(Weekday.weekend)
            default:
                guard let weekday = Weekday(code: word) else { throw .unknownWeekday(String(part)) }
                weekdays.insert(weekday)
            }
        }
        return weekdays
    }

    private static func time(_ text: String) throws(ReminderSettingsError) -> TimeOfDay {
        do {
            return try TimeOfDay(parsing: text)
        } catch {
            throw .invalidTime(error)
        }
    }

    private var nextDailyID: String {
        let taken = Set(dailyReminders.map(\.id))
        var number = 1
        while taken.contains("\(number)") { number += 1 }
        return "\(number)"
    }
}

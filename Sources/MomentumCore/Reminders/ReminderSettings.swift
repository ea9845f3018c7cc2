import Foundation

/// What the person chose about reminders: which kinds are on, the quiet hours, the preferred time
/// for the planner's own reminders, and their daily reminders.
///
/// Always valid: outside the core, the only ways to change it are the throwing initializer and the `…ing` methods in
/// `ReminderSettings+Changes.swift`, which return new settings or throw and leave these as they
/// were.
///
/// ```swift
/// let settings = try ReminderSettings()
///     .withQuietHours(start: "21:30", end: "07:00")
///     .addingDaily(time: "07:30", weekdays: "workdays", category: "mindfulness")
/// ```
public struct ReminderSettings: Sendable, Equatable {
    /// The kinds switched off; every other kind is on.
    public internal(set) var kindsOff: Set<ReminderKind> = []
    public internal(set) var quietHours: QuietHours = .standard
    /// When practice-due, level-review and welcome-back reminders sound.
    public internal(set) var preferredTime = Self.defaultPreferredTime
    /// The person's own reminders, in the order they were added.
    public internal(set) var dailyReminders: [DailyReminder] = []

    public static let defaultPreferredTime = TimeOfDay(validHour: 9)
    public static let maximumDailyReminders = 20

    /// The defaults: every kind on, quiet 22:00 – 08:00, preferred time 09:00, no daily reminders.
    public init() {}

    public init(
        kindsOff: Set<ReminderKind> = [], quietHours: QuietHours = .standard,
        preferredTime: TimeOfDay = Self.defaultPreferredTime, dailyReminders: [DailyReminder] = []
    ) throws(ReminderSettingsError) {
        guard dailyReminders.count <= Self.maximumDailyReminders else {
            throw .tooManyDailyReminders(limit: Self.maximumDailyReminders)
        }
        var seen: Set<String> = []
        for reminder in dailyReminders where !seen.insert(reminder.id).inserted {
            throw .duplicateDailyID(reminder.id)
        }
        self.kindsOff = kindsOff
        self.quietHours = quietHours
        self.preferredTime = preferredTime
        self.dailyReminders = dailyReminders
    }

    /// Whether reminders of `kind` are planned.
    public func isOn(_ kind: ReminderKind) -> Bool { !kindsOff.contains(kind) }

    /// The daily reminder with `id`.
    public func dailyReminder(id: String) -> DailyReminder? { dailyReminders.first { $0.id == id } }
}

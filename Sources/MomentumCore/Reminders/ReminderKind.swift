import Foundation

/// The kinds of reminder the planner knows (SPEC §9), each switched on or off in the settings.
public enum ReminderKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// A Morse direction's next practice date is reached.
    case practiceDue
    /// 20:00, when nothing was practised today and a streak of 3 or more is at stake.
    case streak
    /// A week after a Morse level-up.
    case levelReview
    /// The day after 7 full days without practice.
    case welcomeBack
    /// The person's own reminders: a time, weekdays and a category.
    case daily

    /// Reads the stored name (`practiceDue`) or the terminal's (`practice-due`), in any case.
    public init(parsing text: String) throws(ReminderSettingsError) {
        let wanted = text.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "-", with: "")
        guard let kind = ReminderKind.allCases.first(where: { $0.rawValue.lowercased() == wanted }) else {
            throw .unknownKind(text)
        }
        self = kind
    }

    /// The terminal's name: `practice-due`, `streak`, `level-review`, `welcome-back`, `daily`.
    public var name: String {
        switch self {
        case .practiceDue: "practice-due"
        case .streak: "streak"
        case .levelReview: "level-review"
        case .welcomeBack: "welcome-back"
        case .daily: "daily"
        }
    }

    /// Which reminder wins a day's two places: lower goes first. The person's own daily reminders
    /// first, because they asked for them; welcome back last, because it can wait a day.
    var priority: Int {
        switch self {
        case .daily: 0
        case .practiceDue: 1
        case .levelReview: 2
        case .streak: 3
        case .welcomeBack: 4
        }
    }

    /// The catalog key of the kind's name, for settings screens.
    public var nameKey: StringKey {
        switch self {
        case .practiceDue: .reminderKindPracticeDue
        case .streak: .reminderKindStreak
        case .levelReview: .reminderKindLevelReview
        case .welcomeBack: .reminderKindWelcomeBack
        case .daily: .reminderKindDaily
        }
    }
}

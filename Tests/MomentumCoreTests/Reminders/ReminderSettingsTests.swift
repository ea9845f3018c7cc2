import Foundation
import Testing

@testable import MomentumCore

@Suite("Reminder settings: defaults, changes and refusals")
struct ReminderSettingsTests {
    @Test func theDefaultsAreEveryKindOnQuietFrom22To8AndNineOClock() {
        let settings = ReminderSettings()
        #expect(ReminderKind.allCases.allSatisfy(settings.isOn))
        #expect("\(settings.quietHours.start)–\(settings.quietHours.end)" == "22:00–08:00")
        #expect(settings.preferredTime.description == "09:00")
        #expect(settings.dailyReminders.isEmpty)
    }

    @Test func aKindCanBeSwitchedOffAndOnAgain() {
        let off = ReminderSettings().setting(kind: .streak, on: false)
        #expect(!off.isOn(.streak))
        #expect(off.isOn(.daily))
        #expect(off.setting(kind: .streak, on: true) == ReminderSettings())
    }

    @Test func dailyRemindersAreNumberedUnlessNamedAndCanBeRemoved() throws {
        let settings = try ReminderSettings()
            .addingDaily(time: "07:30", weekdays: "workdays", category: "mindfulness")
            .addingDaily(id: "evening", time: "19:00", weekdays: "sat,sun", category: "Workout")
            .addingDaily(time: "12:00", weekdays: "all", category: "focus")
        #expect(settings.dailyReminders.map(\.id) == ["1", "evening", "2"])
        #expect(settings.dailyReminder(id: "evening")?.weekdays == Weekday.weekend)
        #expect(settings.dailyReminder(id: "evening")?.category == .workout)
        #expect(settings.dailyReminder(id: "2")?.weekdays.count == 7)
        let fewer = try settings.removingDaily(id: "1")
        #expect(fewer.dailyReminders.map(\.id) == ["evening", "2"])
        #expect(try fewer.addingDaily(time: "06:00", weekdays: "mon", category: "morse").dailyReminders.last?.id == "1")
    }

    @Test func quietHoursAndThePreferredTimeChange() throws {
        let settings = try ReminderSettings().withQuietHours(start: "21:30", end: "7:00").withPreferredTime("10:15")
        #expect("\(settings.quietHours.start)–\(settings.quietHours.end)" == "21:30–07:00")
        #expect(settings.preferredTime.description == "10:15")
    }

    /// Each refused change, as the terminal would make it.
    enum BadChange: String, CaseIterable {
        case quietHoursZeroLength, quietHoursBadStart, dailyNoWeekdays, dailyHour25, dailyMinute60, dailyGarbageTime
        case dailyUnknownCategory, dailyUnknownWeekday, dailyDuplicateID, dailyBadID, removeUnknown

        func apply(to settings: ReminderSettings) throws(ReminderSettingsError) -> ReminderSettings {
            switch self {
            case .quietHoursZeroLength: try settings.withQuietHours(start: "08:00", end: "08:00")
            case .quietHoursBadStart: try settings.withQuietHours(start: "22", end: "08:00")
            case .dailyNoWeekdays: try settings.addingDaily(id: "x", time: "07:00", weekdays: "", category: "focus")
            case .dailyHour25: try settings.addingDaily(time: "25:00", weekdays: "mon", category: "focus")
            case .dailyMinute60: try settings.addingDaily(time: "9:60", weekdays: "mon", category: "focus")
            case .dailyGarbageTime: try settings.addingDaily(time: "soon", weekdays: "mon", category: "focus")
            case .dailyUnknownCategory: try settings.addingDaily(time: "07:00", weekdays: "mon", category: "yoga")
            case .dailyUnknownWeekday:
                try settings.addingDaily(time: "07:00", weekdays: "mon,funday", category: "focus")
            case .dailyDuplicateID: try settings.addingDaily(id: "1", time: "07:00", weekdays: "mon", category: "focus")
            case .dailyBadID:
                try settings.addingDaily(id: "Morning!", time: "07:00", weekdays: "mon", category: "focus")
            case .removeUnknown: try settings.removingDaily(id: "nope")
            }
        }

        var error: ReminderSettingsError {
            switch self {
            case .quietHoursZeroLength:
                .quietHoursZeroLength(start: TimeOfDay(validHour: 8), end: TimeOfDay(validHour: 8))
            case .quietHoursBadStart: .invalidTime(.unreadable("22"))
            case .dailyNoWeekdays: .noWeekdays(dailyID: "x")
            case .dailyHour25: .invalidTime(.hourOutOfRange("25:00"))
            case .dailyMinute60: .invalidTime(.minuteOutOfRange("9:60"))
            case .dailyGarbageTime: .invalidTime(.unreadable("soon"))
            case .dailyUnknownCategory: .unknownCategory("yoga")
            case .dailyUnknownWeekday: .unknownWeekday("funday")
            case .dailyDuplicateID: .duplicateDailyID("1")
            case .dailyBadID: .invalidDailyID("Morning!")
            case .removeUnknown: .unknownDailyID("nope")
            }
        }
    }

    @Test(arguments: BadChange.allCases)
    func aBadChangeIsRefusedWithItsCauseAndTheSettingsStayAsTheyWere(change: BadChange) throws {
        var settings = MomentumSettings()
        settings.reminders = try ReminderSettings().addingDaily(time: "07:30", weekdays: "mon", category: "focus")
        let before = settings
        #expect(throws: change.error) { settings.reminders = try change.apply(to: settings.reminders) }
        #expect(settings == before)
    }

    @Test(arguments: BadChange.allCases)
    func everyRefusalHasAMessageInEnglishAndGerman(change: BadChange) {
        for language in Language.allCases {
            let message = StringCatalog.shared(for: language).text(change.error.localized)
            #expect(!message.hasPrefix("error."), "\(language): \(message)")
            #expect(!message.contains("{"), "\(language): \(message)")
        }
    }

    @Test func atMostTwentyDailyRemindersFit() throws {
        var settings = ReminderSettings()
        for _ in 1...ReminderSettings.maximumDailyReminders {
            settings = try settings.addingDaily(time: "07:00", weekdays: "mon", category: "focus")
        }
        let full = settings
        #expect(throws: ReminderSettingsError.tooManyDailyReminders(limit: 20)) {
            settings = try settings.addingDaily(time: "07:00", weekdays: "mon", category: "focus")
        }
        #expect(settings == full)
    }

    @Test(arguments: [
        ("practice-due", ReminderKind.practiceDue), ("practiceDue", .practiceDue), ("STREAK", .streak),
        ("level-review", .levelReview), ("welcome-back", .welcomeBack), ("daily", .daily),
    ])
    func aKindReadsByEitherName(text: String, kind: ReminderKind) throws {
        #expect(try ReminderKind(parsing: text) == kind)
    }

    @Test func anUnknownKindIsRefused() {
        #expect(throws: ReminderSettingsError.unknownKind("nagging")) { try ReminderKind(parsing: "nagging") }
    }
}

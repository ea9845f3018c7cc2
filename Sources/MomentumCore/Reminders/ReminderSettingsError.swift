import Foundation

/// Why reminder settings were refused; the settings stay as they were. One case per cause, each
/// naming the value that is wrong.
public enum ReminderSettingsError: Error, Equatable, Sendable {
    /// Quiet hours that start when they end: zero or 24 hours, nobody can tell which.
    case quietHoursZeroLength(start: TimeOfDay, end: TimeOfDay)
    /// A daily reminder without a single weekday would never sound.
    case noWeekdays(dailyID: String)
    /// A time that is not `HH:MM` on a 24-hour clock.
    case invalidTime(TimeOfDayError)
    /// Not one of the practice categories (mindfulness, workout, morse, focus).
    case unknownCategory(String)
    /// Not a weekday code (`mon` … `sun`) or group (`all`, `workdays`, `weekend`).
    case unknownWeekday(String)
    /// Not a reminder kind (practice-due, streak, level-review, welcome-back, daily).
    case unknownKind(String)
    /// A daily reminder id must be 1–32 lowercase letters, digits, `-` or `_`.
    case invalidDailyID(String)
    /// Two daily reminders cannot share an id.
    case duplicateDailyID(String)
    /// There is no daily reminder with this id.
    case unknownDailyID(String)
    /// More daily reminders than ``ReminderSettings/maximumDailyReminders``.
    case tooManyDailyReminders(limit: Int)
}

extension ReminderSettingsError: CustomStringConvertible {
    /// The catalog text that tells the person what is wrong and what would be right.
    public var localized: LocalizedText {
        switch self {
        case .quietHoursZeroLength(let start, let end):
            LocalizedText(.errorRemindersQuietHoursZeroLength, ["start": "\(start)", "end": "\(end)"])
        case .noWeekdays(let id): LocalizedText(.errorRemindersNoWeekdays, ["id": id])
        case .invalidTime(.unreadable(let text)): LocalizedText(.errorTimeUnreadable, ["value": text])
        case .invalidTime(.hourOutOfRange(let text)): LocalizedText(.errorTimeHourOutOfRange, ["value": text])
        case .invalidTime(.minuteOutOfRange(let text)): LocalizedText(.errorTimeMinuteOutOfRange, ["value": text])
        case .unknownCategory(let text):
            LocalizedText(
                .errorUnknownCategory,
                ["value": text, "choices": PracticeCategory.allCases.map(\.rawValue).joined(separator: ", ")])
        case .unknownWeekday(let text): LocalizedText(.errorRemindersUnknownWeekday, ["value": text])
        case .unknownKind(let text):
            LocalizedText(
                .errorRemindersUnknownKind,
                ["value": text, "choices": ReminderKind.allCases.map(\.name).joined(separator: ", ")])
        case .invalidDailyID(let id): LocalizedText(.errorRemindersInvalidID, ["id": id])
        case .duplicateDailyID(let id): LocalizedText(.errorRemindersDuplicateID, ["id": id])
        case .unknownDailyID(let id): LocalizedText(.errorRemindersUnknownID, ["id": id])
        case .tooManyDailyReminders(let limit): LocalizedText(.errorRemindersTooMany, ["count": "\(limit)"])
        }
    }

    /// The English message, for logs and decoding errors.
    public var description: String { StringCatalog.shared(for: .english).text(localized) }
}

extension TimeOfDayError: CustomStringConvertible {
    /// The English message, for logs and decoding errors.
    public var description: String { ReminderSettingsError.invalidTime(self).description }
}

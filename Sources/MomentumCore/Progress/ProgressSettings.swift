import Foundation

/// How progress is counted and shown: day boundaries, jokers, streak visibility and daily goals.
public struct ProgressSettings: Sendable, Equatable, Codable {
    /// An IANA time zone such as `Europe/Berlin`; `nil` follows the system.
    public var timeZoneIdentifier: String?
    /// When a new day begins, 0 … 6 (o'clock).
    public var dayStartHour: Int = 0
    public var jokersEnabled: Bool = true
    /// Hides streak numbers and jokers everywhere, for people they stress.
    public var hideStreaks: Bool = false
    /// Daily minutes goal per category with a minutes rule (mindfulness, workout).
    public var goals: [PracticeCategory: Int] = Self.defaultGoals

    public static let defaultGoals: [PracticeCategory: Int] = [.mindfulness: 10, .workout: 10]
    public static let goalBounds = 1...120

    public init() {}

    /// The goal in minutes for `category`, if it has one.
    public func goal(for category: PracticeCategory) -> Int? { goals[category] }

    /// The day's fill for `category`: minutes / goal, capped at 1, only for days that count
    /// (at least 2 minutes) and categories with a goal.
    public func fill(of total: DayTotal, for category: PracticeCategory) -> Double? {
        guard let goal = goal(for: category), goal > 0, total.counts(for: category) else { return nil }
        return min(1, Double(total.seconds(in: category)) / 60 / Double(goal))
    }
}

extension ProgressSettings {
    /// Sets one of the progress settings from typed text.
    mutating func set(_ key: SettingKey, to value: String) throws(SettingValueError) {
        switch key {
        case .timeZone:
            if value.lowercased() == "auto" {
                timeZoneIdentifier = nil
            } else {
                guard TimeZone(identifier: value) != nil else { throw .outOfRange(key: key, value: value) }
                timeZoneIdentifier = value
            }
        case .dayStartHour:
            guard let hour = Int(value) else { throw .unreadable(key: key, value: value) }
            guard DayCalendar.dayStartHours.contains(hour) else { throw .outOfRange(key: key, value: value) }
            dayStartHour = hour
        case .jokers, .hideStreaks:
            guard let flag = MomentumSettings.flag(value) else { throw .unreadable(key: key, value: value) }
            if key == .jokers { jokersEnabled = flag } else { hideStreaks = flag }
        case .mindfulnessGoal, .workoutGoal:
            guard let minutes = Int(value) else { throw .unreadable(key: key, value: value) }
            guard Self.goalBounds.contains(minutes) else { throw .outOfRange(key: key, value: value) }
            goals[key == .mindfulnessGoal ? .mindfulness : .workout] = minutes
        default:
            throw .unreadable(key: key, value: value)
        }
    }

    /// The day calendar these settings describe, in `systemTimeZone` unless one is set.
    public func dayCalendar(systemTimeZone: TimeZone) -> DayCalendar {
        let zone = timeZoneIdentifier.flatMap(TimeZone.init(identifier:)) ?? systemTimeZone
        let hour = DayCalendar.dayStartHours.contains(dayStartHour) ? dayStartHour : 0
        return (try? DayCalendar(timeZone: zone, dayStartHour: hour)) ?? DayCalendar(unchecked: zone)
    }
}

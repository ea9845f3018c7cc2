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
    /// Daily minutes goal per category with a minutes rule (mindfulness, workout, focus).
    public var goals: [PracticeCategory: Int] = Self.defaultGoals

    public static let defaultGoals: [PracticeCategory: Int] = [.mindfulness: 10, .workout: 10, .focus: 25]
    /// The categories that have a daily goal, in the order they are shown.
    public static let goalCategories: [PracticeCategory] = [.mindfulness, .workout, .focus]
    /// The mindfulness and workout goals' bounds in minutes.
    public static let goalBounds = 1...120
    /// A focus day may hold several timers: up to eight hours.
    public static let focusGoalBounds = 1...480

    /// The bounds in minutes of `category`'s daily goal.
    public static func goalBounds(for category: PracticeCategory) -> ClosedRange<Int> {
        category == .focus ? focusGoalBounds : goalBounds
    }

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
        case .mindfulnessGoal, .workoutGoal, .focusGoal:
            let category: PracticeCategory =
                switch key {
                case .mindfulnessGoal: .mindfulness
                case .workoutGoal: .workout
                default: .focus
                }
            guard let minutes = Int(value) else { throw .unreadable(key: key, value: value) }
            guard Self.goalBounds(for: category).contains(minutes) else { throw .outOfRange(key: key, value: value) }
            goals[category] = minutes
        default:
            throw .unreadable(key: key, value: value)
        }
    }

    /// The day calendar these settings describe, in `systemTimeZone` unless one is set.
    public func dayCalendar(systemTimeZone: TimeZone) -> DayCalendar {
        let zone = timeZoneIdentifier.flatMap(TimeZone.init(identifier:)) ?? systemTimeZone
        let hour = DayCalendar.dayStartHours.contains(dayStartHour) ? dayStartHour : 0
        // try?: `hour` is within DayCalendar.dayStartHours, the one thing the initializer checks.
        return (try? DayCalendar(timeZone: zone, dayStartHour: hour)) ?? DayCalendar(unchecked: zone)
    }
}

// The stored and wire form: every key as the synthesized form had it; goals a form left out
// (settings from before the focus goal) take their defaults.
extension ProgressSettings {
    private enum CodingKeys: String, CodingKey {
        case timeZoneIdentifier, dayStartHour, jokersEnabled, hideStreaks, goals
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        timeZoneIdentifier = try container.decodeIfPresent(String.self, forKey: .timeZoneIdentifier)
        dayStartHour = try container.decode(Int.self, forKey: .dayStartHour)
        jokersEnabled = try container.decode(Bool.self, forKey: .jokersEnabled)
        hideStreaks = try container.decode(Bool.self, forKey: .hideStreaks)
        // Read as numbers, so a goal of 12.5 is refused as a goal (with its bounds), not as a type.
        var stored: [PracticeCategory: Int] = [:]
        for (category, minutes) in try container.decode([PracticeCategory: Double].self, forKey: .goals) {
            guard minutes.isFinite, minutes == minutes.rounded(), abs(minutes) < 1_000_000 else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: container.codingPath + [
                            CodingKeys.goals, FieldKey(stringValue: category.rawValue),
                        ],
                        debugDescription: "not whole minutes",
                        underlyingError: ProgressSettingsError.goalOutOfRange(category, minutes: 0)))
            }
            stored[category] = Int(minutes)
        }
        goals = Self.defaultGoals.merging(stored) { _, stored in stored }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(timeZoneIdentifier, forKey: .timeZoneIdentifier)
        try container.encode(dayStartHour, forKey: .dayStartHour)
        try container.encode(jokersEnabled, forKey: .jokersEnabled)
        try container.encode(hideStreaks, forKey: .hideStreaks)
        try container.encode(goals, forKey: .goals)
    }

    /// The first value out of bounds, if any (for values that did not come through
    /// ``set(_:to:)``: a backup, the API).
    public var refusal: ProgressSettingsError? {
        if let identifier = timeZoneIdentifier, TimeZone(identifier: identifier) == nil {
            return .unknownTimeZone(identifier)
        }
        if !DayCalendar.dayStartHours.contains(dayStartHour) { return .dayStartHourOutOfRange(dayStartHour) }
        for category in PracticeCategory.allCases {
            guard let goal = goals[category] else { continue }
            guard Self.goalCategories.contains(category) else { return .goalNotKept(category) }
            if !Self.goalBounds(for: category).contains(goal) { return .goalOutOfRange(category, minutes: goal) }
        }
        return nil
    }
}

/// Why progress settings were refused; each names the field at fault.
public enum ProgressSettingsError: Error, Equatable, Sendable {
    /// Not a time zone Foundation knows.
    case unknownTimeZone(String)
    /// A day starts at 0 … 6 o'clock.
    case dayStartHourOutOfRange(Int)
    /// A daily goal outside ``ProgressSettings/goalBounds(for:)``.
    case goalOutOfRange(PracticeCategory, minutes: Int)
    /// A category that has no daily goal (Morse counts by its own rule).
    case goalNotKept(PracticeCategory)

    /// The refused field, as a path in the settings' JSON form (`progress.goals.focus`).
    public var field: String {
        switch self {
        case .unknownTimeZone: "progress.timeZoneIdentifier"
        case .dayStartHourOutOfRange: "progress.dayStartHour"
        case .goalOutOfRange(let category, _), .goalNotKept(let category): "progress.goals.\(category.rawValue)"
        }
    }

    /// The sentence that says what is wrong and what would be right, in `catalog`'s language.
    public func message(in catalog: StringCatalog) -> String {
        switch self {
        case .unknownTimeZone(let identifier):
            return catalog.format(.errorProgressUnknownTimeZone, ["value": String(identifier.prefix(60))])
        case .dayStartHourOutOfRange:
            let hours = DayCalendar.dayStartHours
            return catalog.format(
                .errorProgressDayStart,
                [
                    "earliest": TimeOfDay(validHour: hours.lowerBound).description,
                    "latest": TimeOfDay(validHour: hours.upperBound).description,
                ])
        case .goalOutOfRange(let category, _):
            let bounds = ProgressSettings.goalBounds(for: category)
            return catalog.format(
                .errorProgressGoalRange,
                ["category": catalog[category.nameKey], "min": "\(bounds.lowerBound)", "max": "\(bounds.upperBound)"])
        case .goalNotKept(let category):
            return catalog.format(.errorProgressNoGoal, ["category": catalog[category.nameKey]])
        }
    }
}

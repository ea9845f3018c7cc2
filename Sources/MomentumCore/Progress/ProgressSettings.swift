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

/// A progress setting out of bounds.
public enum ProgressSettingsError: Error, Equatable, Sendable {
    case goalOutOfRange(category: PracticeCategory, minutes: Int)
    case unknownTimeZone(String)
}

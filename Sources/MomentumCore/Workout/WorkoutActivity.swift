/// What kind of workout it is, for the energy estimate.
public enum WorkoutActivity: String, Sendable, Codable, CaseIterable {
    case hiit
    case yoga
    case other

    /// Kilocalories per minute of the whole workout time (SPEC §5).
    public var kilocaloriesPerMinute: Double {
        switch self {
        case .hiit: 12
        case .yoga: 4
        case .other: 8
        }
    }

    /// The catalog key of the activity's name.
    public var nameKey: StringKey {
        switch self {
        case .hiit: .workoutActivityHIIT
        case .yoga: .workoutActivityYoga
        case .other: .workoutActivityOther
        }
    }
}

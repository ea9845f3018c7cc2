extension PracticeKind {
    /// The catalog key of the kind's name.
    public var nameKey: StringKey {
        switch self {
        case .meditation: .kindMeditation
        case .guided: .kindGuided
        case .breathing: .kindBreathing
        case .workout: .kindWorkout
        case .morse: .kindMorse
        case .focus: .kindFocus
        }
    }
}

extension PracticeCategory {
    /// The catalog key of the category's name.
    public var nameKey: StringKey {
        switch self {
        case .mindfulness: .categoryMindfulness
        case .workout: .categoryWorkout
        case .morse: .categoryMorse
        case .focus: .categoryFocus
        }
    }
}

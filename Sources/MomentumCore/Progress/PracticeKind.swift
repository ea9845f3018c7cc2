/// The kinds of practice that end up in the log.
public enum PracticeKind: String, Sendable, Codable, CaseIterable {
    case meditation, guided, breathing, workout, morse, focus

    /// The category whose streak and statistics the practice counts toward.
    public var category: PracticeCategory {
        switch self {
        case .meditation, .guided, .breathing: .mindfulness
        case .workout: .workout
        case .morse: .morse
        case .focus: .focus
        }
    }
}

/// The groups that streaks, goals and statistics are kept for.
public enum PracticeCategory: String, Sendable, Codable, CaseIterable {
    case mindfulness, workout, morse, focus
}

// Dictionaries keyed by kind or category encode as JSON objects (`{"mindfulness": 10}`).
extension PracticeKind: CodingKeyRepresentable {}
extension PracticeCategory: CodingKeyRepresentable {}

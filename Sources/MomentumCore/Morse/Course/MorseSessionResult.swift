import Foundation

/// What a finished session shows and what the course keeps from it.
///
/// Attempts and accuracy count characters: a group of five is five attempts, each right when the
/// answer's alignment matches it (see ``MorseAnswerScore``).
public struct MorseSessionResult: Sendable, Hashable {
    public let direction: MorseDirection
    public let order: KochOrder
    /// The level the session practised.
    public let level: Int
    public let startedAt: Date
    public let endedAt: Date
    /// Training time only: the introduction and pauses are not counted.
    public let trainingTime: Duration
    /// The training time the session was set to last.
    public let length: Duration
    public let attempts: [MorseAttempt]
    public let characterStatistics: [MorseSymbol: MorseCharacterStatistics]
    public let newestCharacter: MorseSymbol

    init(session: MorseSession, endedAt: Date) {
        direction = session.direction
        order = session.order
        level = session.level
        startedAt = session.startedAt
        self.endedAt = endedAt
        trainingTime = session.trainingTime(at: endedAt)
        length = session.length
        attempts = session.attempts
        characterStatistics = MorseSession.statistics(of: session.attempts)
        newestCharacter = session.newestCharacter
    }

    /// What the session amounts to in the practice log — the rule every kind follows
    /// (``PracticeOutcome``): trained to its length, logged; stopped after a minute or more,
    /// logged as stopped early; stopped sooner, not logged (the answers still count for the course).
    public var outcome: PracticeOutcome { PracticeOutcome(done: trainingTime, of: length) }

    /// Characters attempted.
    public var attemptCount: Int { characterStatistics.values.reduce(0) { $0 + $1.attempts } }

    /// Characters answered right.
    public var correctCount: Int { characterStatistics.values.reduce(0) { $0 + $1.correct } }

    /// Right characters as a fraction of attempted ones, or `nil` with no attempt.
    public var accuracy: Double? { attemptCount == 0 ? nil : Double(correctCount) / Double(attemptCount) }

    /// Whether the session meets ``MorseLevelRule`` below the last level: the celebration.
    public var earnsLevelUp: Bool {
        let newest = characterStatistics[newestCharacter] ?? MorseCharacterStatistics()
        return level < order.levels.upperBound
            && MorseLevelRule.isMet(
                attempts: attemptCount, correct: correctCount, newestAttempts: newest.attempts,
                newestCorrect: newest.correct)
    }

    /// The level the next session of this direction practises.
    public var nextLevel: Int { MorseLevelRule.level(after: level, of: order, ruleMet: earnsLevelUp) }
}

/// When a session earns the next level (SPEC §7).
///
/// At least 20 attempts and at least 90 % of them right — and the newest character itself at
/// least 90 % right over at least 5 attempts, so a level cannot be passed without learning the
/// new character. The level never goes past the order's last (``KochOrder/levels``), where every
/// character is practised; level n practises the first n + 1 (``KochOrder/characters(atLevel:)``).
///
/// Percentages are compared in whole numbers (18 of 20 is exactly 90 %), never in floating point.
public enum MorseLevelRule {
    public static let minimumAttempts = 20
    public static let minimumNewestAttempts = 5
    /// 90 %, as a fraction of 100 so the comparison stays exact.
    public static let minimumPercent = 90

    /// Whether counts like these earn a level up (wherever the level is).
    public static func isMet(attempts: Int, correct: Int, newestAttempts: Int, newestCorrect: Int) -> Bool {
        attempts >= minimumAttempts && correct * 100 >= attempts * minimumPercent
            && newestAttempts >= minimumNewestAttempts && newestCorrect * 100 >= newestAttempts * minimumPercent
    }

    /// The level after a session at `level` of `order` that met the rule or not: one up when it
    /// did, but never past the order's last level.
    public static func level(after level: Int, of order: KochOrder, ruleMet: Bool) -> Int {
        ruleMet ? min(level + 1, order.levels.upperBound) : level
    }
}

extension MorseLevelRule {
    /// A condition of the rule a session did not meet, with how far it got.
    public enum Shortfall: Sendable, Hashable {
        /// Fewer than ``MorseLevelRule/minimumAttempts`` attempts.
        case attempts(have: Int, needed: Int)
        /// Below ``MorseLevelRule/minimumPercent``; the percentage reached, rounded down.
        case accuracy(percent: Int, needed: Int)
        /// The newest character tried fewer than ``MorseLevelRule/minimumNewestAttempts`` times.
        case newestAttempts(have: Int, needed: Int)
        /// The newest character below ``MorseLevelRule/minimumPercent``, rounded down.
        case newestAccuracy(percent: Int, needed: Int)
    }

    /// What is missing for counts like these to earn a level up, in the rule's order; empty
    /// exactly when ``isMet(attempts:correct:newestAttempts:newestCorrect:)`` is true.
    ///
    /// ```swift
    /// MorseLevelRule.shortfalls(attempts: 14, correct: 12, newestAttempts: 6, newestCorrect: 6)
    /// // [.attempts(have: 14, needed: 20), .accuracy(percent: 85, needed: 90)]
    /// ```
    public static func shortfalls(attempts: Int, correct: Int, newestAttempts: Int, newestCorrect: Int)
        -> [Shortfall]
    {
        var shortfalls: [Shortfall] = []
        if attempts < minimumAttempts { shortfalls.append(.attempts(have: attempts, needed: minimumAttempts)) }
        if correct * 100 < attempts * minimumPercent || attempts == 0 {
            shortfalls.append(.accuracy(percent: percent(correct, of: attempts), needed: minimumPercent))
        }
        if newestAttempts < minimumNewestAttempts {
            shortfalls.append(.newestAttempts(have: newestAttempts, needed: minimumNewestAttempts))
        }
        if newestCorrect * 100 < newestAttempts * minimumPercent || newestAttempts == 0 {
            shortfalls.append(
                .newestAccuracy(percent: percent(newestCorrect, of: newestAttempts), needed: minimumPercent))
        }
        return shortfalls
    }

    /// `part` of `whole` in whole percent, rounded down (0 of 0 is 0).
    static func percent(_ part: Int, of whole: Int) -> Int { whole == 0 ? 0 : part * 100 / whole }
}

extension MorseSessionResult {
    /// What the session lacked for a level up (see ``MorseLevelRule/shortfalls(attempts:correct:newestAttempts:newestCorrect:)``);
    /// empty when it earned one or the level is the order's last.
    public var levelRuleShortfalls: [MorseLevelRule.Shortfall] {
        guard level < order.levels.upperBound else { return [] }
        let newest = characterStatistics[newestCharacter] ?? MorseCharacterStatistics()
        return MorseLevelRule.shortfalls(
            attempts: attemptCount, correct: correctCount, newestAttempts: newest.attempts,
            newestCorrect: newest.correct)
    }
}

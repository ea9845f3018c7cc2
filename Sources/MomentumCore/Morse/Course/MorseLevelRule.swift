/// When a session earns the next level (SPEC §7).
///
/// At least 20 attempts and at least 90 % of them right — and the newest character itself at
/// least 90 % right over at least 5 attempts, so a level cannot be passed without learning the
/// new character. The level never goes past the end of the order.
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
    /// did, but never past the order's length.
    public static func level(after level: Int, of order: KochOrder, ruleMet: Bool) -> Int {
        ruleMet ? min(level + 1, order.symbols.count) : level
    }
}

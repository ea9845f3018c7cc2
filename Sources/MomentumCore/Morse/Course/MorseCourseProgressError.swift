/// Why stored course progress is corrupt, or a session result cannot be applied to it: one case
/// per cause. Progress is never changed when one is thrown.
public enum MorseCourseProgressError: Error, Equatable, Sendable {
    /// The stored value is not course progress at all (not JSON, a field missing or of the wrong
    /// type); carries the decoder's description.
    case unreadable(String)
    /// A level outside the order's levels (1 … one less than its length, ``KochOrder/levels``).
    case levelOutOfRange(Int, order: KochOrder)
    /// Per-character counts that cannot be: more right answers (or timed ones) than attempts,
    /// negative counts, or response time without a timed attempt.
    case impossibleStatistics(attempts: Int, correct: Int, timedAttempts: Int)
    /// A repetition interval outside ``MorseReviewSchedule/intervalBounds``.
    case intervalOutOfRange(Int)
    /// A last practice without a next one (or the other way round), or a next practice not after
    /// the last.
    case practiceDatesInconsistent
    /// Level changes out of order, or not ending at the current level.
    case levelHistoryInconsistent
    /// Practice recorded without the date the course started.
    case missingCourseStart
    /// The session practised another Koch order than the progress follows.
    case orderMismatch(progress: KochOrder, session: KochOrder)
    /// The session practised another level than the progress holds for its direction (a stale
    /// or duplicated result).
    case levelMismatch(progress: Int, session: Int)
    /// The session ended before the last practice already recorded for its direction.
    case sessionBeforeLastPractice
}

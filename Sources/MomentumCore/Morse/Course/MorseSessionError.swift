/// Why a Morse session cannot start or cannot do what was asked: one case per cause.
public enum MorseSessionError: Error, Equatable, Sendable {
    /// The level is not one of the order's levels (1 … one less than its length, ``KochOrder/levels``).
    case levelOutOfRange(Int, order: KochOrder)
    /// Items of this many characters are not offered (see ``MorseDrillGenerator/groupSizeBounds``).
    case groupSizeOutOfRange(Int)
    /// The session length is outside ``MorseSession/lengthBounds``.
    case lengthOutOfRange(Duration)
    /// The step is not possible in the session's phase (e.g. pausing a paused session).
    case invalidTransition(from: MorseSession.Phase, action: MorseSession.Action)
    /// An instant before the session's previous event: the clock went backwards.
    case instantBeforeLastEvent
    /// The session's training time is used up; it can only be ended.
    case timeIsUp
    /// The attempt is for an item with no character.
    case emptyItem
}

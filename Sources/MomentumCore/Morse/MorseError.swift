/// Why a Morse timing cannot be used or a text cannot be keyed: one case per cause, so a message
/// can say exactly what to change.
public enum MorseError: Error, Equatable, Sendable {
    /// The character speed (wpm) is outside ``MorseTiming/characterSpeedBounds``.
    case characterSpeedOutOfRange(Double)
    /// The effective speed (wpm) is below ``MorseTiming/minimumEffectiveSpeed`` or above the
    /// character speed.
    case effectiveSpeedOutOfRange(Double)
    /// The extra word space is outside ``MorseTiming/extraWordSpaceBounds``.
    case extraWordSpaceOutOfRange(Duration)
    /// A character with no Morse code, at its 0-based position (in characters) in the text.
    case unencodableCharacter(Character, position: Int)
    /// `<…>` names no prosign of ``MorseProsign``; carries the name as written.
    case unknownProsign(String)
    /// A `<` with no `>` before the end of the text or the next space; at the `<`'s position.
    case unclosedProsign(position: Int)
    /// The text holds no character that can be sent (empty, only spaces, or only skipped ones).
    case nothingToSend
}

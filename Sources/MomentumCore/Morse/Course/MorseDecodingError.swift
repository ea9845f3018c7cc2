/// Why dits and dahs, or key press and gap durations, cannot be read as text: one case per cause.
public enum MorseDecodingError: Error, Equatable, Sendable {
    /// A pattern with no dit or dah.
    case emptyPattern
    /// No symbol of ``MorseCode`` has this pattern; carries it written in `.` and `-`.
    case unknownPattern(String)
    /// The speed a timing decoder starts from is outside ``MorseTimingDecoder/speedBounds``.
    case expectedSpeedOutOfRange(Double)
    /// A press or gap of zero or negative length, at its 0-based position in the signals.
    case nonPositiveDuration(position: Int)
    /// The signals hold no key press.
    case noKeyPress
    /// The keying is faster than 60 wpm; carries the measured speed in wpm.
    case keyingTooFast(wpm: Double)
    /// The keying is slower than 5 wpm; carries the measured speed in wpm.
    case keyingTooSlow(wpm: Double)
}

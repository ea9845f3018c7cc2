/// How long each part of Morse code lasts: the PARIS standard with ARRL Farnsworth spacing.
///
/// Characters are sent at the character speed c; when the effective speed s is lower, only the
/// gaps between characters and words stretch, so that the word "PARIS " takes 60 / s seconds.
///
/// ```swift
/// let timing = try MorseTiming(characterWPM: 20, effectiveWPM: 10)
/// timing.dit        // 60 ms
/// timing.letterGap  // ≈ 653.7 ms instead of 180 ms
/// ```
///
/// Durations are rounded to the nearest nanosecond, so whole-number speeds such as 20 wpm give
/// exact values (a 60 ms dit); the Farnsworth gaps may differ from the formula by 1 ns.
public struct MorseTiming: Sendable, Hashable {
    /// The speed of the characters themselves: words "PARIS " per minute if the gaps were not
    /// stretched, 5 … 60 wpm.
    public let characterWPM: Double
    /// Words per minute once the gaps are stretched, 5 wpm … `characterWPM`.
    public let effectiveWPM: Double
    /// Silence added to every word gap, beyond Farnsworth, for beginners who need time to write.
    public let extraWordSpace: Duration

    public static let characterSpeedBounds: ClosedRange<Double> = 5...60
    /// The effective speed's lower bound; its upper bound is the character speed.
    public static let minimumEffectiveSpeed: Double = 5
    public static let extraWordSpaceBounds: ClosedRange<Duration> = .zero ... .seconds(10)

    /// A timing with the defaults of SPEC §7 (20 wpm characters at 13 wpm) for every field not
    /// given; throws when a value is out of its bounds.
    public init(characterWPM: Double = 20, effectiveWPM: Double = 13, extraWordSpace: Duration = .zero)
        throws(MorseError)
    {
        guard Self.characterSpeedBounds.contains(characterWPM) else {
            throw .characterSpeedOutOfRange(characterWPM)
        }
        guard (Self.minimumEffectiveSpeed...characterWPM).contains(effectiveWPM) else {
            throw .effectiveSpeedOutOfRange(effectiveWPM)
        }
        guard Self.extraWordSpaceBounds.contains(extraWordSpace) else {
            throw .extraWordSpaceOutOfRange(extraWordSpace)
        }
        self.characterWPM = characterWPM
        self.effectiveWPM = effectiveWPM
        self.extraWordSpace = extraWordSpace
    }

    /// Whether the gaps are stretched: the effective speed is below the character speed.
    public var usesFarnsworthSpacing: Bool { effectiveWPM < characterWPM }

    /// u = 1.2 / c seconds: "PARIS " is 50 units, sent c times a minute.
    public var unit: Duration { Self.rounded(seconds: 1.2 / characterWPM) }

    /// One unit of key-down.
    public var dit: Duration { unit }

    /// Three units of key-down.
    public var dah: Duration { unit * 3 }

    /// The silence between the dits and dahs of one character: one unit.
    public var elementGap: Duration { unit }

    /// The silence between characters of a word: 3 units, or 3·ta/19 with Farnsworth spacing.
    public var letterGap: Duration {
        usesFarnsworthSpacing ? Self.rounded(seconds: 3 * extraTimePerWord / 19) : unit * 3
    }

    /// The silence between words: 7 units, or 7·ta/19 with Farnsworth spacing; plus the extra word
    /// space.
    public var wordGap: Duration {
        let gap = usesFarnsworthSpacing ? Self.rounded(seconds: 7 * extraTimePerWord / 19) : unit * 7
        return gap + extraWordSpace
    }

    /// ta = (60·c − 37.2·s) / (s·c) seconds: the silence of one "PARIS " minus its 31 units of
    /// characters, shared by its 4 letter gaps (3 parts each) and 1 word gap (7 parts).
    private var extraTimePerWord: Double {
        (60 * characterWPM - 37.2 * effectiveWPM) / (effectiveWPM * characterWPM)
    }

    private static func rounded(seconds: Double) -> Duration {
        .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}

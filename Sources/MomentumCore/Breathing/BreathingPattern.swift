/// One breath: inhale, hold after inhale, exhale, hold after exhale, in half-second steps.
///
/// ```swift
/// let pattern = try BreathingPattern(parsing: "4-7-8-0")
/// pattern.cycle  // 19 seconds
/// ```
public struct BreathingPattern: Sendable, Equatable, Hashable {
    public var inhale: Duration
    public var holdAfterInhale: Duration
    public var exhale: Duration
    public var holdAfterExhale: Duration

    public static let breathBounds: ClosedRange<Duration> = .seconds(1) ... .seconds(60)
    public static let holdBounds: ClosedRange<Duration> = .zero ... .seconds(60)
    public static let step: Duration = .milliseconds(500)

    /// The pattern a new preset of the person's own starts with.
    public static let newPreset = BreathingPattern(unchecked: 4, 0, 4, 0)

    /// A pattern from seconds; throws when a phase is out of bounds or not in half-second steps.
    public init(inhale: Double, holdAfterInhale: Double, exhale: Double, holdAfterExhale: Double)
        throws(BreathingError)
    {
        self.init(unchecked: inhale, holdAfterInhale, exhale, holdAfterExhale)
        try validate()
    }

    /// Reads `4-7-8-0` (seconds, halves allowed: `4.5-0-6-0`).
    public init(parsing text: String) throws(BreathingError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let seconds = parts.compactMap { Double($0) }
        guard parts.count == 4, seconds.count == 4, seconds.allSatisfy(\.isFinite) else {
            throw .unreadablePattern(text)
        }
        try self.init(
            inhale: seconds[0], holdAfterInhale: seconds[1], exhale: seconds[2], holdAfterExhale: seconds[3])
    }

    init(unchecked inhale: Double, _ holdAfterInhale: Double, _ exhale: Double, _ holdAfterExhale: Double) {
        func duration(_ seconds: Double) -> Duration {
            seconds.isFinite && abs(seconds) < 1e6 ? .milliseconds(Int64((seconds * 1000).rounded())) : .seconds(-1)
        }
        self.inhale = duration(inhale)
        self.holdAfterInhale = duration(holdAfterInhale)
        self.exhale = duration(exhale)
        self.holdAfterExhale = duration(holdAfterExhale)
    }

    public func validate() throws(BreathingError) {
        guard Self.breathBounds.contains(inhale) else { throw .inhaleOutOfRange }
        guard Self.breathBounds.contains(exhale) else { throw .exhaleOutOfRange }
        guard Self.holdBounds.contains(holdAfterInhale), Self.holdBounds.contains(holdAfterExhale) else {
            throw .holdOutOfRange
        }
        for phase in phases where phase.duration.wholeMilliseconds % Self.step.wholeMilliseconds != 0 {
            throw .notInHalfSecondSteps
        }
    }

    /// The four phases in order, with their segment kinds and cue sounds (holds of 0 included).
    public var phases: [(kind: SegmentKind, duration: Duration, sound: CueSound)] {
        [
            (.inhale, inhale, .inhale), (.holdAfterInhale, holdAfterInhale, .hold), (.exhale, exhale, .exhale),
            (.holdAfterExhale, holdAfterExhale, .hold),
        ]
    }

    /// One whole breath.
    public var cycle: Duration { inhale + holdAfterInhale + exhale + holdAfterExhale }

    /// `4-7-8-0`, `4.5-0-6-0`.
    public var text: String {
        phases.map { phase in
            let milliseconds = phase.duration.wholeMilliseconds
            return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)" : "\(Double(milliseconds) / 1000)"
        }.joined(separator: "-")
    }
}

/// How long a breathing session lasts: a number of rounds, or minutes (rounded to whole rounds).
public enum BreathingLength: Sendable, Equatable, Hashable {
    case rounds(Int)
    case minutes(Int)

    public static let roundBounds = 1...99
    public static let minuteBounds = 1...60

    public func validate() throws(BreathingError) {
        switch self {
        case .rounds(let rounds): guard Self.roundBounds.contains(rounds) else { throw .roundsOutOfRange }
        case .minutes(let minutes): guard Self.minuteBounds.contains(minutes) else { throw .minutesOutOfRange }
        }
    }

    /// The number of rounds for `pattern`: the whole rounds closest to the minutes asked for (at
    /// least one), so a session always ends at the end of an exhale phase cycle.
    public func rounds(for pattern: BreathingPattern) -> Int {
        switch self {
        case .rounds(let rounds): return rounds
        case .minutes(let minutes):
            let cycle = pattern.cycle.wholeMilliseconds
            guard cycle > 0 else { return 1 }
            return max(1, Int((Double(minutes) * 60_000 / Double(cycle)).rounded()))
        }
    }
}

/// Why a breathing pattern, length or preset cannot be used.
public enum BreathingError: Error, Equatable, Sendable {
    case inhaleOutOfRange
    case exhaleOutOfRange
    case holdOutOfRange
    case notInHalfSecondSteps
    case roundsOutOfRange
    case minutesOutOfRange
    case unreadablePattern(String)
    case emptyPresetName
    /// A preset's name holds a control character (see ``TextInput``).
    case text(TextInputError)
    case unknownPreset(String)
    case presetNameTaken(String)
    /// The nine built-in presets (named here by id) are always there: they can be copied, not deleted.
    case builtInPresetCannotBeDeleted(String)
    case internalInconsistency
    /// A preset's name longer than ``BreathingPreset/maximumNameLength``.
    case presetNameTooLong
}

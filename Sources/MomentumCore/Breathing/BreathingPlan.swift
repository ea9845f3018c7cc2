/// A breathing session: a pattern and how long to breathe it.
public struct BreathingPlan: Sendable, Equatable {
    public var pattern: BreathingPattern
    public var length: BreathingLength
    /// The preset it came from, kept in the log's details.
    public var presetName: String?

    public init(pattern: BreathingPattern, length: BreathingLength, presetName: String? = nil) {
        self.pattern = pattern
        self.length = length
        self.presetName = presetName
    }

    public func validate() throws(BreathingError) {
        try pattern.validate()
        try length.validate()
    }

    public var rounds: Int { length.rounds(for: pattern) }

    /// Total time = (sum of the four phases) × rounds.
    public var totalDuration: Duration { pattern.cycle * rounds }

    /// Compiles the plan into a timeline: a segment per phase of every round (holds of 0 s are
    /// left out), and at the start of each a cue with the phase's sound and its name.
    public func timeline() throws(BreathingError) -> Timeline {
        try validate()
        var segments: [Segment] = []
        var cues: [Cue] = []
        var offset = Duration.zero
        let phases = pattern.phases.filter { $0.duration > .zero }
        for round in 1...rounds {
            for phase in phases {
                segments.append(Segment(kind: phase.kind, start: offset, duration: phase.duration))
                cues.append(
                    Cue(
                        offset: offset, sound: phase.sound,
                        text: LocalizedText(
                            phase.kind.breathingNameKey, ["round": "\(round)", "rounds": "\(rounds)"])))
                offset += phase.duration
            }
        }
        do {
            return try Timeline(practice: .breathing, segments: segments, cues: cues)
        } catch {
            // Phases are laid end to end from zero; reaching this is a bug in this function.
            throw .internalInconsistency
        }
    }
}

extension SegmentKind {
    /// The catalog key naming a breathing phase (other kinds fall back to the inhale text).
    var breathingNameKey: StringKey {
        switch self {
        case .holdAfterInhale, .holdAfterExhale: .breathingHold
        case .exhale: .breathingExhale
        default: .breathingInhale
        }
    }
}

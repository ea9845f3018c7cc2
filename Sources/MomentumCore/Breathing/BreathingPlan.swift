/// A breathing session: a pattern and how long to breathe it.
public struct BreathingPlan: Sendable, Equatable {
    public var pattern: BreathingPattern
    public var length: BreathingLength
    /// The preset it came from, kept in the log's details.
    public var presetName: String?
    /// The id of the preset it came from (`box`), kept in the log's details: the home-screen
    /// shortcuts count the person's most used presets by it (``PracticeShortcuts``).
    public var presetID: String?

    public init(pattern: BreathingPattern, length: BreathingLength, presetName: String? = nil, presetID: String? = nil)
    {
        self.pattern = pattern
        self.length = length
        self.presetName = presetName
        self.presetID = presetID
    }

    public func validate() throws(BreathingError) {
        try pattern.validate()
        try length.validate()
    }

    public var rounds: Int { length.rounds(for: pattern) }

    /// Total time = (sum of the four phases) × rounds: what is breathed, and logged.
    public var totalDuration: Duration { pattern.cycle * rounds }

    /// The calm seconds before the first inhale ("Get ready"), counted down on the screen: time to
    /// settle, neither breathed nor logged (a sit's countdown, ``SegmentKind/countdown``).
    public static let getReady: Duration = .seconds(3)

    /// Compiles the plan into a timeline: the get-ready countdown, then a segment per phase of
    /// every round (holds of 0 s are left out), and at the start of each a cue with the phase's
    /// sound and its name. The first inhale's sound ends the get-ready.
    public func timeline() throws(BreathingError) -> Timeline {
        try validate()
        var segments = [Segment(kind: .countdown, start: .zero, duration: Self.getReady)]
        var cues = [Cue(offset: .zero, sound: nil, text: LocalizedText(SegmentKind.countdown.breathingNameKey, [:]))]
        var offset = Self.getReady
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
    public var breathingNameKey: StringKey {
        switch self {
        case .countdown: .breathingGetReady
        case .holdAfterInhale, .holdAfterExhale: .breathingHold
        case .exhale: .breathingExhale
        default: .breathingInhale
        }
    }
}

extension BreathingPlan {
    /// What the log keeps about a breathing session: the preset (its name and id), the pattern and
    /// the rounds.
    public var logDetails: [String: String] {
        var details = ["pattern": pattern.text, "rounds": "\(rounds)"]
        if let presetName { details["preset"] = presetName }
        if let presetID { details[PracticeOrigin.presetIDKey] = presetID }
        return details
    }
}

extension BreathingPlan {
    /// How full the breathing shape is, 0–1, at `state` of this plan's run: it grows through the
    /// inhale, stays full in the hold after it, shrinks through the exhale, and stays empty in the
    /// hold after that (and once the session is over).
    public static func shapeFill(_ state: RunState) -> Double {
        guard state.status != .completed, state.status != .stopped else { return 0 }
        switch state.segment.kind {
        case .inhale: return state.segmentProgress
        case .holdAfterInhale: return 1
        case .exhale: return 1 - state.segmentProgress
        default: return 0
        }
    }

    /// The round (from 1) that segment `index` of this plan's timeline belongs to; the get-ready
    /// before it belongs to the first.
    public func round(ofSegment index: Int) -> Int {
        let phasesPerRound = pattern.phases.filter { $0.duration > .zero }.count
        return min(rounds, max(0, index - 1) / max(1, phasesPerRound) + 1)
    }
}

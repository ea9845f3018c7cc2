import Foundation

/// One sit from start to finish: the plan's timeline run plus the meditation's own rules —
/// its phases, its affirmations, and what gets logged when it ends.
public struct MeditationSit<Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration, Instant: Sendable {
    public let plan: MeditationPlan
    public let affirmations: Affirmations
    public private(set) var run: TimelineRun<Instant>

    /// The shortest early stop (or open-ended sit) that is worth logging.
    public static var minimumLoggedTime: Duration { PracticeOutcome.minimumLoggedTime }

    public init(plan: MeditationPlan, affirmations: Affirmations, ambientCatalog: AmbientCatalog = .builtIn)
        throws(MeditationPlanError)
    {
        self.plan = plan
        self.affirmations = affirmations
        self.run = TimelineRun(timeline: try plan.timeline(ambientCatalog: ambientCatalog))
    }

    public var timeline: Timeline { run.timeline }

    public mutating func start(at instant: Instant) throws(TimelineRunError) { try run.start(at: instant) }
    public mutating func pause(at instant: Instant) throws(TimelineRunError) { try run.pause(at: instant) }
    public mutating func resume(at instant: Instant) throws(TimelineRunError) { try run.resume(at: instant) }

    /// Ends the sit at `instant` — early, or (open-ended) when the person is done — and says
    /// what may be logged.
    public mutating func stop(at instant: Instant) throws(TimelineRunError) -> MeditationOutcome {
        if !run.isCompleted(at: instant) { try run.stop(at: instant) }
        return outcome(at: instant)
    }

    /// What the sit amounts to at `instant`.
    public func outcome(at instant: Instant) -> MeditationOutcome {
        let meditated = meditatedTime(at: instant)
        if !plan.isOpenEnded && meditated >= plan.duration { return .completed(meditated: plan.duration) }
        guard meditated >= Self.minimumLoggedTime else { return .tooShortToLog(meditated: meditated) }
        return plan.isOpenEnded ? .completed(meditated: meditated) : .stoppedEarly(meditated: meditated)
    }

    /// Time spent in the meditation segment by `instant`: no countdown, no reflection, no pauses.
    public func meditatedTime(at instant: Instant) -> Duration {
        let played = run.elapsed(at: instant) - plan.countdown
        guard played > .zero else { return .zero }
        return plan.isOpenEnded ? played : min(played, plan.duration)
    }

    /// The phase to show at `instant`.
    public func phase(at instant: Instant) -> MeditationPhase {
        let state = run.state(at: instant)
        switch state.status {
        case .idle: return .idle
        case .paused: return .paused
        case .stopped: return .stopped
        case .completed: return .completed
        case .running:
            switch state.segment.kind {
            case .countdown: return .countdown
            case .reflection: return .reflection
            default: return .meditation
            }
        }
    }

    /// The affirmation line for `phase`: the countdown's line while settling in, the running
    /// line while sitting or reflecting, none otherwise.
    public func affirmation(for phase: MeditationPhase) -> String? {
        switch phase {
        case .countdown: affirmations.countdown
        case .meditation, .reflection: affirmations.running
        case .idle, .paused, .completed, .stopped: nil
        }
    }

    /// The sound to play when the person ends an open-ended sit (its end gong).
    public var soundWhenFinishedByPerson: CueSound? { plan.isOpenEnded ? .endGong : nil }
}

/// The phases a person sees during a sit.
public enum MeditationPhase: String, Sendable, Codable, CaseIterable {
    case idle, countdown, meditation, reflection, paused, completed, stopped

    /// The catalog key of the phase's name or state text.
    public var textKey: StringKey {
        switch self {
        case .idle: .stateIdle
        case .countdown: .phaseCountdown
        case .meditation: .phaseMeditation
        case .reflection: .phaseReflection
        case .paused: .statePaused
        case .completed: .stateCompleted
        case .stopped: .stateStopped
        }
    }
}

/// What a sit amounts to when it ends, and therefore what is logged.
public enum MeditationOutcome: Sendable, Equatable {
    /// The meditation segment ran to its end (or an open-ended sit was finished): logged.
    case completed(meditated: Duration)
    /// Stopped early after at least a minute: logged unless the person discards it.
    case stoppedEarly(meditated: Duration)
    /// Stopped before a minute of meditation: nothing is logged.
    case tooShortToLog(meditated: Duration)

    public var meditated: Duration {
        switch self {
        case .completed(let time), .stoppedEarly(let time), .tooShortToLog(let time): time
        }
    }

    /// Whether the person should be asked to keep or discard the record.
    public var asksToKeep: Bool {
        if case .stoppedEarly = self { true } else { false }
    }

    /// The log record for this outcome, or `nil` when nothing is logged. A sit started from a
    /// saved sit (`preset`) keeps its name and id (``PracticeOrigin``).
    public func record(
        id: UUID, start: Date, end: Date, plan: MeditationPlan, preset: MeditationPreset? = nil, device: String
    ) throws(PracticeRecordError) -> PracticeRecord? {
        if case .tooShortToLog = self { return nil }
        var details: [String: String] = [:]
        if let preset {
            details["preset"] = preset.name
            details[PracticeOrigin.presetIDKey] = preset.id
        }
        if plan.ambientID != "silent" { details["ambient"] = plan.ambientID }
        if plan.isOpenEnded { details["openEnded"] = "true" }
        if case .stoppedEarly = self { details["stoppedEarly"] = "true" }
        return try PracticeRecord(
            id: id, kind: .meditation, start: start, end: end,
            countedSeconds: Int(meditated.inSeconds.rounded()), details: details, device: device)
    }
}

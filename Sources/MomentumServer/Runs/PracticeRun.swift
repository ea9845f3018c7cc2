import Foundation
import MomentumCore

/// One practice played in a browser: its plan and the run of its timeline, driven by the instants
/// the browser reports.
struct PracticeRun: Sendable {
    enum Kind: String, Codable, Sendable, CaseIterable {
        case meditation, breathing, workout

        /// The kind of practice the log and the catalog know it as.
        var practiceKind: PracticeKind {
            switch self {
            case .meditation: .meditation
            case .breathing: .breathing
            case .workout: .workout
            }
        }
    }

    enum Plan: Sendable {
        case meditation(MeditationSit<WallInstant>)
        case breathing(BreathingPlan, TimelineRun<WallInstant>)
        case workout(WorkoutPlan, TimelineRun<WallInstant>)
    }

    let id: UUID
    var plan: Plan
    /// The saved sit a meditation was started from, logged with it.
    var meditationPreset: MeditationPreset?
    /// The record written when the run ended, if it was logged.
    var loggedRecord: PracticeRecord?
    /// What the run amounted to when it ended.
    var ending: Ending?
    /// What was done to the run, in order, with the instants: its start, pauses, resumes and stop
    /// (what a stored run is rebuilt from, ``PracticeRun/Stored``).
    private(set) var steps: [Step] = []

    init(id: UUID, plan: Plan) {
        self.id = id
        self.plan = plan
    }

    /// One action on the run and its instant, in whole milliseconds since 1970.
    struct Step: Codable, Sendable, Equatable {
        enum Action: String, Codable, Sendable { case start, pause, resume, stop }
        var action: Action
        var atMs: Int64
    }

    /// How a run ended and how much of it counts.
    struct Ending: Sendable {
        var outcome: String
        var practicedMs: Int64
        var logged: Bool
        /// The interruptions of its sound worth telling, as the browser reported them with the stop.
        var soundInterruptions: [SoundInterruption] = []
    }

    var kind: Kind {
        switch plan {
        case .meditation: .meditation
        case .breathing: .breathing
        case .workout: .workout
        }
    }

    var run: TimelineRun<WallInstant> {
        switch plan {
        case .meditation(let sit): sit.run
        case .breathing(_, let run), .workout(_, let run): run
        }
    }

    /// Whether the run was stopped before its timeline's end (an open-ended one, whenever stopped).
    var wasStoppedEarly: Bool {
        guard let stoppedAt = run.stoppedAt else { return false }
        guard let total = run.timeline.totalDuration else { return true }
        return run.elapsed(at: stoppedAt) < total
    }

    mutating func start(at instant: WallInstant) throws(TimelineRunError) {
        try change { run throws(TimelineRunError) in
            try run.start(at: instant)
        } sit: { sit throws(TimelineRunError) in
            try sit.start(at: instant)
        }
        steps.append(Step(action: .start, atMs: instant.millisecondsSince1970))
    }

    mutating func pause(at instant: WallInstant) throws(TimelineRunError) {
        try change { run throws(TimelineRunError) in
            try run.pause(at: instant)
        } sit: { sit throws(TimelineRunError) in
            try sit.pause(at: instant)
        }
        steps.append(Step(action: .pause, atMs: instant.millisecondsSince1970))
    }

    mutating func resume(at instant: WallInstant) throws(TimelineRunError) {
        try change { run throws(TimelineRunError) in
            try run.resume(at: instant)
        } sit: {
            sit throws(TimelineRunError) in
            try sit.resume(at: instant)
        }
        steps.append(Step(action: .resume, atMs: instant.millisecondsSince1970))
    }

    /// Stops the run (or notes that it completed) and says what it amounts to.
    mutating func stop(at instant: WallInstant) throws(TimelineRunError) -> StopOutcome {
        let outcome = try stopping(at: instant)
        steps.append(Step(action: .stop, atMs: instant.millisecondsSince1970))
        return outcome
    }

    private mutating func stopping(at instant: WallInstant) throws(TimelineRunError) -> StopOutcome {
        switch plan {
        case .meditation(var sit):
            let outcome = try sit.stop(at: instant)
            plan = .meditation(sit)
            return .meditation(outcome)
        case .breathing(let breathing, var run):
            let outcome = try Self.stop(&run, at: instant)
            plan = .breathing(breathing, run)
            return .practice(outcome)
        case .workout(let workout, var run):
            let outcome = try Self.stop(&run, at: instant)
            plan = .workout(workout, run)
            return .practice(outcome)
        }
    }

    enum StopOutcome {
        case meditation(MeditationOutcome)
        case practice(PracticeOutcome)

        /// Ran to its end; the early stop worth asking about; too short to log.
        var isCompleted: Bool {
            switch self {
            case .meditation(.completed), .practice(.completed): true
            default: false
            }
        }

        /// Whether the person is asked to keep it (the core's rule, the terminal's question).
        var asksToKeep: Bool {
            switch self {
            case .meditation(let outcome): outcome.asksToKeep
            case .practice(let outcome): outcome.asksToKeep
            }
        }

        /// The time that counts: a sit's meditation, a session's whole time.
        var practiced: Duration {
            switch self {
            case .meditation(let outcome): outcome.meditated
            case .practice(let outcome): outcome.time
            }
        }
    }

    /// What stopping at `instant` would come to, the run left as it is; `nil` once it has ended.
    func outcomeIfStopped(at instant: WallInstant) -> StopOutcome? {
        guard run.stoppedAt == nil else { return nil }
        var copy = self
        do {
            return try copy.stopping(at: instant)
        } catch {
            return nil
        }
    }

    private static func stop(_ run: inout TimelineRun<WallInstant>, at instant: WallInstant) throws(TimelineRunError)
        -> PracticeOutcome
    {
        if !run.isCompleted(at: instant) { try run.stop(at: instant) }
        return run.timeline.outcome(elapsed: run.elapsed(at: instant))
    }

    private mutating func change(
        _ action: (inout TimelineRun<WallInstant>) throws(TimelineRunError) -> Void,
        sit: (inout MeditationSit<WallInstant>) throws(TimelineRunError) -> Void
    ) throws(TimelineRunError) {
        switch plan {
        case .meditation(var meditation):
            try sit(&meditation)
            plan = .meditation(meditation)
        case .breathing(let breathing, var run):
            try action(&run)
            plan = .breathing(breathing, run)
        case .workout(let workout, var run):
            try action(&run)
            plan = .workout(workout, run)
        }
    }
}

/// The runs in progress, in memory (on SQLite, where one server holds the household; on
/// PostgreSQL ``StoredRunRegistry`` keeps them in the database): a run lost when the server
/// restarts is acceptable (the browser holds the timeline and can start again; nothing is logged
/// until a run stops).
actor RunRegistry {
    private var runs: [UUID: PracticeRun] = [:]
    private let turns = ChangeTurns<UUID>()

    func add(_ run: PracticeRun) {
        runs[run.id] = run
    }

    func run(id: UUID) -> PracticeRun? {
        runs[id]
    }

    /// Every run, oldest first is not promised; callers sort.
    func all() -> [PracticeRun] {
        Array(runs.values)
    }

    /// Forgets runs that ended before `instant`, so a long-running server does not collect them.
    func forget(endedBefore instant: WallInstant) {
        runs = runs.filter { _, run in
            guard let ended = run.endedAt else { return true }
            return ended >= instant
        }
    }

    /// Changes the run with `id` by `change`, keeping the change only when it succeeds.
    func update<Result: Sendable>(
        id: UUID, _ change: @Sendable (inout PracticeRun) async throws -> Result
    ) async throws -> Result {
        try await turns.run(id) {
            guard var run = runs[id] else { throw APIError.notFound(.apiNoRun, ["id": id.uuidString.lowercased()]) }
            let result = try await change(&run)
            // A run forgotten meanwhile stays forgotten.
            if runs[id] != nil { runs[id] = run }
            return result
        }
    }
}

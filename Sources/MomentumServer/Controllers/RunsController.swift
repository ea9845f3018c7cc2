import Foundation
import Hummingbird
import Logging
import MomentumCore
import MomentumServices

/// `/api/v1/runs`: a practice played in the browser. The browser reports the instants of the
/// person's actions (or the server takes its own); the core's run computes the state, and a
/// stopped or finished run is logged through the same services the terminal uses.
struct RunsController {
    let registry: any PracticeRuns
    let services: MomentumServices
    let now: @Sendable () -> Date
    let makeID: @Sendable () -> UUID
    let metrics: ServerMetrics

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get(use: list)
        group.post(use: start)
        group.post("reports", use: report)
        group.get("prepared", use: prepared)
        group.get(":id", use: show)
        group.post(":id/pause", use: pause)
        group.post(":id/resume", use: resume)
        group.post(":id/stop", use: stop)
    }

    /// `{"kind": "meditation", "plan": {…}, "at": "…"}`; the plan's form follows the kind, and
    /// a missing plan takes the saved (meditation) or default one.
    struct StartBody: Decodable {
        var kind: PracticeRun.Kind
        var meditation: MeditationPlan?
        var breathing: BreathingPlanBody?
        var workout: WorkoutPlanBody?
        /// A saved sit's id or name: a meditation of that sit (instead of a `plan`).
        var preset: String?
        /// A workout program's id or name: a workout of that program (instead of a `plan`),
        /// logged with its name and id.
        var program: String?
        var at: Date?

        private enum CodingKeys: String, CodingKey { case kind, plan, preset, program, at }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            kind = try container.decode(PracticeRun.Kind.self, forKey: .kind)
            preset = try container.decodeIfPresent(String.self, forKey: .preset)
            program = try container.decodeIfPresent(String.self, forKey: .program)
            at = try container.decodeIfPresent(Date.self, forKey: .at)
            switch kind {
            case .meditation: meditation = try container.decodeIfPresent(MeditationPlan.self, forKey: .plan)
            case .breathing: breathing = try container.decodeIfPresent(BreathingPlanBody.self, forKey: .plan)
            case .workout: workout = try container.decodeIfPresent(WorkoutPlanBody.self, forKey: .plan)
            }
        }
    }

    /// `{"at": "…"}` for a pause or a resume.
    struct ActionBody: Decodable {
        var at: Date?
        /// Read for the one body the document gives all three actions; only a stop uses it.
        var keep: Bool?
    }

    /// `{"at": "…", "keep": false, "soundInterruptions": [{"atMs": 751000, "durationMs": 4000}]}`.
    struct StopBody: Decodable {
        var at: Date?
        /// For an early stop: whether to keep it in the log (default yes).
        var keep: Bool?
        /// The stalls of the sound the browser measured while it played the run.
        var soundInterruptions: [SoundInterruptionBody]?
    }

    /// What the browser shows and plays.
    struct RunResponse: Encodable {
        var id: String
        var kind: PracticeRun.Kind
        var status: RunStatus
        var phase: MeditationPhase?
        var startedAt: Date?
        var elapsedMs: Int64
        var remainingMs: Int64?
        var segmentIndex: Int
        var segmentKind: SegmentKind
        var timeline: Timeline
        var affirmations: Affirmations?
        /// A sit's name (a saved sit's, else absent) and its one line ("40 min · gongs at 25,
        /// 30 min"), as the core words it: what the lock screen says is playing.
        var name: String?
        var summary: String?
        var ending: EndingBody?
        /// While the run goes on: what stopping it now would come to, and the one question the
        /// page asks before it stops (the terminal asks the same, by the same rule of the core).
        var ifStopped: IfStopped?
        var record: PracticeRecord?
        /// A workout's board, as the core's ``WorkoutBoard`` words it: one for each segment of the
        /// timeline (what it shows from that segment's start) and one for the end. The browser
        /// shows the one of the segment its clock is in, with the times it counts down.
        var board: Board?

        struct Affirmations: Encodable {
            var countdown: String
            var running: String
        }

        struct IfStopped: Encodable {
            /// `completed` (nothing to ask), `stoppedEarly` (asked whether to keep it) or
            /// `tooShortToLog` (asked whether to stop, as nothing would be logged).
            var outcome: PracticeEnding.Outcome
            var asksToKeep: Bool
            var practicedMs: Int64
            /// The question in the request's language; absent when the practice has run its course.
            var question: String?

            init(_ outcome: PracticeRun.StopOutcome, catalog: StringCatalog) {
                asksToKeep = outcome.asksToKeep
                practicedMs = outcome.practiced.wholeMilliseconds
                let practiced = DurationFormatting.words(outcome.practiced, language: catalog.language)
                let minimum = DurationFormatting.words(PracticeOutcome.minimumLoggedTime, language: catalog.language)
                if outcome.isCompleted {
                    self.outcome = .completed
                } else if asksToKeep {
                    self.outcome = .stoppedEarly
                    question = catalog.format(.runStopKeepQuestion, ["duration": practiced])
                } else {
                    self.outcome = .tooShortToLog
                    question = catalog.format(.runStopShortQuestion, ["minimum": minimum])
                }
            }
        }

        struct Board: Encodable {
            var segments: [Lines]
            var done: Lines
            /// The last milliseconds of a segment that beep, which the board counts down large.
            var finalCountMs = Int64(WorkoutPlan.countdownSeconds) * 1000

            /// A board's words; the times are the segment's and the timeline's, counted by the player.
            struct Lines: Encodable {
                var title: String
                var round: String?
                var set: String?
                var exercise: String?
                /// "Next: Rest", "Next: Plank", "Next: Finish"; absent once done.
                var next: String?

                init(_ board: WorkoutBoard, _ catalog: StringCatalog) {
                    let lines = board.lines(catalog)
                    (title, round, set, exercise, next) = (
                        lines.title, lines.round, lines.set, lines.exercise, lines.next
                    )
                }
            }

            init(_ timeline: Timeline, catalog: StringCatalog) {
                let boards = WorkoutBoard.boards(for: timeline)
                segments = boards.segments.map { Lines($0, catalog) }
                done = Lines(boards.done, catalog)
            }
        }

        init(_ run: PracticeRun, at instant: WallInstant, language: Language) {
            let state = run.run.state(at: instant)
            id = run.id.uuidString.lowercased()
            kind = run.kind
            status = state.status
            startedAt = run.run.startedAt?.date
            elapsedMs = state.elapsed.wholeMilliseconds
            remainingMs = state.remaining?.wholeMilliseconds
            segmentIndex = state.segmentIndex
            segmentKind = state.segment.kind
            timeline = run.run.timeline
            if case .meditation(let sit) = run.plan {
                phase = sit.phase(at: instant)
                affirmations = Affirmations(countdown: sit.affirmations.countdown, running: sit.affirmations.running)
                name = run.meditationPreset?.name
                summary = sit.plan.summary(.shared(for: language))
            }
            if case .workout = run.plan {
                board = Board(run.run.timeline, catalog: .shared(for: language))
            }
            ending = run.ending.map { EndingBody($0, kind: run.kind.practiceKind, language: language) }
            ifStopped = run.outcomeIfStopped(at: instant).map { IfStopped($0, catalog: .shared(for: language)) }
            record = run.loggedRecord
        }
    }

    struct RunList: Encodable {
        var runs: [RunResponse]
    }

    /// The runs still going (running or paused), oldest first, so a reload or a second tab finds
    /// them. Runs whose timeline played to its end meanwhile are logged first, as if the browser
    /// had reported the end (a closed tab loses no session).
    @Sendable func list(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<RunList> {
        let instant = WallInstant(now())
        let language = try await LanguageChoice.language(for: request, settings: services.settings)
        try await finishCompletedRuns(at: instant, logger: context.logger)
        let going = try await registry.all().filter { $0.ending == nil }
            .sorted { ($0.run.startedAt ?? instant) < ($1.run.startedAt ?? instant) }
        return JSONResponse(RunList(runs: going.map { RunResponse($0, at: instant, language: language) }))
    }

    /// Logs every run that completed unreported by `instant`, at its end, and forgets runs that
    /// ended over an hour ago.
    ///
    /// A run whose record cannot be written for good (a rule of the log refuses it) ends unlogged,
    /// with the reason in the server's log: otherwise it would fail every request that lists or
    /// starts runs from then on. A busy database is passed on (503): the next request tries again.
    func finishCompletedRuns(at instant: WallInstant, logger: Logger) async throws {
        for run in try await registry.all() where run.ending == nil && run.run.isCompleted(at: instant) {
            guard let end = run.run.endInstant else { continue }
            do {
                _ = try await registry.update(id: run.id) { run in
                    guard run.ending == nil else { return }
                    try await finish(&run, at: end, keep: true)
                }
            } catch  where FailureKind.of(error) == .unavailable {
                throw error
            } catch {
                logger.error("a completed run could not be logged", metadata: ["error": "\(error)"])
                do {
                    _ = try await registry.update(id: run.id) { run in
                        guard run.ending == nil else { return }
                        run.ending = .init(outcome: "completed", practicedMs: 0, logged: false)
                    }
                } catch {
                    // It stays going, and the next request that lists or starts runs tries again.
                    logger.warning(
                        "a completed run that could not be logged could not be ended either",
                        metadata: ["error": "\(error)"])
                }
            }
        }
        try await registry.forget(endedBefore: instant.advanced(by: .seconds(-3600)))
    }

    @Sendable func start(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<RunResponse> {
        try await finishCompletedRuns(at: WallInstant(now()), logger: context.logger)
        let body = try await RequestBody.decode(StartBody.self, from: request)
        let instant = WallInstant(try ReportedInstant.instant(body.at, now: now()))
        let language = try await LanguageChoice.language(for: request, settings: services.settings)
        var run = try await makeRun(body, language: language)
        try run.start(at: instant)
        try await registry.add(run)
        return JSONResponse(RunResponse(run, at: instant, language: language), status: .created)
    }

    /// The run `body` asks for, not started: a meditation of the plan, saved sit or settings; a
    /// breathing session of its plan; a workout of its plan or program. A sit together is made
    /// of the same body (``TogetherController``).
    func makeRun(_ body: StartBody, language: Language) async throws -> PracticeRun {
        var run: PracticeRun
        if body.preset != nil, body.kind != .meditation { throw APIError.badRequest(.apiPresetOnlyForMeditation) }
        if body.preset != nil, body.meditation != nil { throw APIError.badRequest(.apiPresetOrPlan) }
        if body.program != nil, body.kind != .workout { throw APIError.badRequest(.apiProgramOnlyForWorkout) }
        if body.program != nil, body.workout != nil { throw APIError.badRequest(.apiProgramOrPlan) }
        switch body.kind {
        case .meditation:
            let preset =
                if let name = body.preset { try await services.meditationPresets.preset(named: name) } else {
                    nil as MeditationPreset?
                }
            let plan =
                if let chosen = preset?.plan ?? body.meditation { chosen } else {
                    try await services.settings.load().meditation
                }
            let prepared = try await services.meditation.startSit(
                plan: plan, fromSavedSit: preset != nil, language: language)
            let sit = try MeditationSit<WallInstant>(plan: prepared.plan, affirmations: prepared.affirmations)
            run = PracticeRun(id: makeID(), plan: .meditation(sit))
            run.meditationPreset = preset
        case .breathing:
            let plan = try await (body.breathing ?? BreathingPlanBody()).plan(breathing: services.breathing)
            run = PracticeRun(id: makeID(), plan: .breathing(plan, TimelineRun(timeline: try plan.timeline())))
        case .workout:
            let plan =
                if let program = body.program {
                    try await services.workouts.program(named: program).plan(catalog: .shared(for: language))
                } else {
                    try (body.workout ?? WorkoutPlanBody(WorkoutPlan())).plan()
                }
            run = PracticeRun(id: makeID(), plan: .workout(plan, TimelineRun(timeline: try plan.timeline())))
        }
        return run
    }

    @Sendable func show(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<RunResponse> {
        let id = try runID(context)
        guard let run = try await registry.run(id: id) else {
            throw APIError.notFound(.apiNoRun, ["id": id.uuidString.lowercased()])
        }
        let language = try await LanguageChoice.language(for: request, settings: services.settings)
        return JSONResponse(RunResponse(run, at: WallInstant(now()), language: language))
    }

    @Sendable func pause(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<RunResponse> {
        let id = try runID(context)
        let body = try await RequestBody.decode(ActionBody.self, from: request, orEmpty: ActionBody())
        return try await change(id, at: body.at, request) { run, instant in try run.pause(at: instant) }
    }

    @Sendable func resume(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<RunResponse> {
        let id = try runID(context)
        let body = try await RequestBody.decode(ActionBody.self, from: request, orEmpty: ActionBody())
        return try await change(id, at: body.at, request) { run, instant in try run.resume(at: instant) }
    }

    @Sendable func stop(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<RunResponse> {
        let id = try runID(context)
        let body = try await RequestBody.decode(StopBody.self, from: request, orEmpty: StopBody())
        // Checked before the run changes: a refused report stops nothing, and the page can send again.
        let interruptions = try SoundInterruption.reported(
            milliseconds: (body.soundInterruptions ?? []).map { ($0.atMs, $0.durationMs) })
        let keep = body.keep ?? true
        return try await change(id, at: body.at, request) { run, instant in
            try await finish(&run, at: instant, keep: keep, soundInterruptions: interruptions)
        }
    }

    /// Stops `run` at `instant` and logs what it amounts to through the practice's service (one
    /// ``PracticeFinisher`` for every kind), with the interruptions of its sound worth telling.
    func finish(
        _ run: inout PracticeRun, at instant: WallInstant, keep: Bool, soundInterruptions: [SoundInterruption] = [],
        recordID: UUID? = nil
    ) async throws {
        let startedAt = run.run.startedAt?.date ?? instant.date
        let outcome = try run.stop(at: instant)
        let ending = try await run.log(
            outcome, services: services, startedAt: startedAt, endedAt: instant.date, keep: keep,
            soundInterruptions: soundInterruptions, recordID: recordID)
        run.loggedRecord = ending.record
        run.ending = .init(
            outcome: ending.outcome.rawValue, practicedMs: ending.practiced.wholeMilliseconds, logged: ending.isLogged,
            soundInterruptions: ending.soundInterruptions)
        if ending.isLogged { metrics.recordSessionLogged(kind: run.kind.rawValue) }
    }

    /// Changes the run `id` at the reported instant `at` (default now) by `action`, and answers
    /// its state then in the request's language.
    private func change(
        _ id: UUID, at reported: Date?, _ request: Request,
        _ action: @Sendable (inout PracticeRun, WallInstant) async throws -> Void
    ) async throws -> JSONResponse<RunResponse> {
        let instant = WallInstant(try ReportedInstant.instant(reported, now: now()))
        let language = try await LanguageChoice.language(for: request, settings: services.settings)
        let run = try await registry.update(id: id) { run in
            try await action(&run, instant)
            return run
        }
        return JSONResponse(RunResponse(run, at: instant, language: language))
    }

    private func runID(_ context: BasicRequestContext) throws -> UUID {
        guard let text = context.parameters.get("id"), let id = UUID(uuidString: text) else {
            throw APIError.notFound(.apiNoRunWithThatID)
        }
        return id
    }
}

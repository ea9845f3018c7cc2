import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// A practice in the form a device keeps to play it away from the server (docs/offline.md): its
/// plan as the server resolved it — a saved sit as it was, a breathing preset's pattern and
/// length, a workout program's phases — so a report logs what was played even when the saved
/// sit, preset or program has changed or gone since. The same parts as a stored run's
/// (``PracticeRun/Stored``), made again by the same code.
struct PreparedPractice: Codable, Sendable {
    var kind: PracticeRun.Kind
    var meditation: MeditationPlan?
    /// The saved sit a meditation was prepared from, as it was then: the log names it.
    var preset: PracticeRun.StoredPreset?
    var breathing: PracticeRun.StoredBreathing?
    var workout: PracticeRun.StoredWorkout?
}

extension RunsController {
    /// `POST /api/v1/runs/reports`: a practice played on a device with the server out of reach.
    ///
    /// ```json
    /// {"id": "…made on the device…", "practice": {"kind": "meditation", "meditation": {…}},
    ///  "steps": [{"action": "start", "at": "…"}, {"action": "pause", "at": "…"},
    ///            {"action": "resume", "at": "…"}, {"action": "stop", "at": "…"}],
    ///  "keep": true, "soundInterruptions": []}
    /// ```
    struct ReportBody: Decodable {
        var id: UUID
        var practice: PreparedPractice
        var steps: [ReportStep]
        /// For an early stop: whether to keep it in the log (default yes).
        var keep: Bool?
        var soundInterruptions: [SoundInterruptionBody]?
        /// A note written on the device's completion view, kept with the logged session as the
        /// log's Edit keeps one (`details.note`).
        var note: String?
    }

    struct ReportStep: Decodable {
        var action: PracticeRun.Step.Action
        var at: Date
    }

    /// How the reported practice ended, and whether this report or an earlier sending of it
    /// logged it.
    struct ReportResponse: Encodable {
        var id: String
        var kind: PracticeRun.Kind
        /// The same report was logged before (sent again after an answer that never arrived):
        /// nothing was written now.
        var alreadyLogged: Bool
        var ending: EndingBody
        var record: PracticeRecord?
    }

    /// Logs a reported practice by the one rule of every run: its plan made again, its steps
    /// replayed through the core's run, ended at its stop (or its timeline's end) and finished
    /// through the practice's service, under the report's own id. Sent again, it is found in the
    /// log by that id and its start, and nothing is written twice. A refused report changes
    /// nothing; the device keeps it and shows the reason.
    @Sendable func report(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<
        ReportResponse
    > {
        let body = try await RequestBody.decode(ReportBody.self, from: request)
        let language = try await LanguageChoice.language(for: request, settings: services.settings)
        let now = now()
        try RunReportRules.check(stepCount: body.steps.count)
        try RunReportRules.check(instants: body.steps.map(\.at), now: now)
        try RunReportRules.checkOrder(body.steps.map(\.at))
        try Self.check(note: body.note)
        let interruptions = try SoundInterruption.reported(
            milliseconds: (body.soundInterruptions ?? []).map { ($0.atMs, $0.durationMs) })

        var run = PracticeRun(id: body.id, plan: try plan(of: body.practice))
        run.meditationPreset = try body.practice.preset.map {
            try MeditationPreset(
                id: $0.id, name: $0.name, plan: $0.plan, createdAt: $0.createdAt, updatedAt: $0.updatedAt)
        }
        var stop: WallInstant?
        for step in body.steps {
            // Nothing follows a stop.
            guard stop == nil else { throw TimelineRunError.alreadyStopped }
            let instant = WallInstant(step.at)
            switch step.action {
            case .start: try run.start(at: instant)
            case .pause: try run.pause(at: instant)
            case .resume: try run.resume(at: instant)
            case .stop: stop = instant
            }
        }
        guard let startedAt = run.run.startedAt else { throw TimelineRunError.notStarted }
        let end = try stop ?? RunReportRules.end(of: run.run, now: WallInstant(now))

        if let record = try await services.practiceLog.record(
            id: body.id, startingWithin: startedAt.date...max(end.date, startedAt.date))
        {
            var replay = run
            let outcome = try replay.stop(at: end)
            run.ending = PracticeRun.Ending(
                outcome: (outcome.isCompleted ? PracticeEnding.Outcome.completed : .stoppedEarly).rawValue,
                practicedMs: outcome.practiced.wholeMilliseconds, logged: true,
                soundInterruptions: SoundInterruption.worthTelling(interruptions))
            return JSONResponse(
                ReportResponse(
                    body, run: run, alreadyLogged: true, record: try await noted(record, body.note), language: language)
            )
        }
        try await finish(&run, at: end, keep: body.keep ?? true, soundInterruptions: interruptions, recordID: body.id)
        var record = run.loggedRecord
        if let logged = record { record = try await noted(logged, body.note) }
        return JSONResponse(
            ReportResponse(body, run: run, alreadyLogged: false, record: record, language: language),
            status: record == nil ? .ok : .created)
    }

    /// The note is checked as the log's edit will check it (its length, and its text as a
    /// session's details), before anything is logged: a refused report logs nothing.
    private static func check(note: String?) throws(PracticeLogError) {
        guard let note else { return }
        guard note.count <= PracticeRecord.maximumNoteLength else { throw .noteTooLong }
        do {
            try TextInput.check(
                note.trimmingCharacters(in: .whitespacesAndNewlines), field: "details.note", lines: .multiple)
        } catch {
            throw .text(error)
        }
    }

    /// `record` with the report's note, saved through the log's one edit (its bounds and checks);
    /// a report sent again with a note written meanwhile brings it too.
    private func noted(_ record: PracticeRecord, _ note: String?) async throws -> PracticeRecord {
        let text = note?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !text.isEmpty, record.details["note"] != text else { return record }
        var details = record.details
        details["note"] = text
        return try await services.practiceLog.editRecord(record, details: details)
    }

    /// The prepared practice's plan, made again and checked by the core.
    private func plan(of practice: PreparedPractice) throws -> PracticeRun.Plan {
        do {
            return try PracticeRun.plan(
                kind: practice.kind, meditation: practice.meditation, affirmations: nil, breathing: practice.breathing,
                workout: practice.workout)
        } catch is PracticeRun.StoredPlanMissing {
            throw APIError.invalid(
                .apiReportPlanMissing, ["kind": practice.kind.rawValue, "field": "practice.\(practice.kind.rawValue)"])
        }
    }
}

extension RunsController.ReportResponse {
    fileprivate init(
        _ body: RunsController.ReportBody, run: PracticeRun, alreadyLogged: Bool, record: PracticeRecord?,
        language: Language
    ) {
        id = body.id.uuidString.lowercased()
        kind = run.kind
        self.alreadyLogged = alreadyLogged
        // A finished run always has its ending.
        let ending =
            run.ending
            ?? PracticeRun.Ending(
                outcome: PracticeEnding.Outcome.tooShortToLog.rawValue, practicedMs: 0, logged: false)
        self.ending = RunsController.EndingBody(ending, kind: run.kind.practiceKind, language: language)
        self.record = record
    }
}

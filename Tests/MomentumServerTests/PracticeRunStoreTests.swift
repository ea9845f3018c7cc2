import Foundation
import MomentumCore
import MomentumPostgres
import MomentumServices
import MomentumStore
import MomentumStoreContract
import MomentumStoreTestSupport
import Testing

@testable import MomentumServer

/// Where practice runs are kept: in memory on SQLite (``RunRegistry``), in `practice_run` on
/// PostgreSQL (``StoredRunRegistry``): the same answers either way, and a stored run rebuilt by
/// replaying its steps answers exactly what the run it was stored from answers.
@Suite("Practice runs kept in memory or in the database")
struct PracticeRunStoreTests {
    static let t0 = WallInstant(millisecondsSince1970: 1_800_000_000_000)

    static func at(_ seconds: Int64) -> WallInstant { t0.advanced(by: .seconds(seconds)) }

    /// The runs of `store`'s person, as the server keeps them on that store.
    private func runs(on store: StoreUnderTest) throws -> any PracticeRuns {
        switch store.kind {
        case .sqlite: return RunRegistry()
        case .postgres:
            let postgres = try #require(store.postgresStore).scoped(to: store.personID)
            return StoredRunRegistry(store: postgres, now: { Self.t0.date })
        }
    }

    static func breathing(id: UUID) throws -> PracticeRun {
        let plan = BreathingPlan(
            pattern: try BreathingPattern(inhale: 4, holdAfterInhale: 7, exhale: 8, holdAfterExhale: 0),
            length: .rounds(4), presetName: "Relax", presetID: "relax")
        return PracticeRun(id: id, plan: .breathing(plan, TimelineRun(timeline: try plan.timeline())))
    }

    static func meditation(id: UUID) throws -> PracticeRun {
        let plan = MeditationPlan(duration: .minutes(10), intervalGongs: .every(minutes: 5))
        let sit = try MeditationSit<WallInstant>(
            plan: plan, affirmations: Affirmations(rotationIndex: 3, catalog: .shared(for: .german)))
        var run = PracticeRun(id: id, plan: .meditation(sit))
        run.meditationPreset = try MeditationPreset(
            id: "e1", name: "Abend", plan: plan, createdAt: Date(timeIntervalSince1970: 1_700_000_000.123_456),
            updatedAt: Date(timeIntervalSince1970: 1_700_000_100.5))
        return run
    }

    static func workout(id: UUID) throws -> PracticeRun {
        var plan = WorkoutPlan()
        (plan.exerciseNames, plan.programName, plan.programID) = (["Squats", "Plank"], "Tabata", "tabata")
        return PracticeRun(id: id, plan: .workout(plan, TimelineRun(timeline: try plan.timeline())))
    }

    @Test(arguments: StoreKind.available)
    func runsAreAddedReadChangedAndForgottenAlikeOnBothStores(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let runs = try runs(on: store)
        let (first, second) = (UUID(), UUID())
        var run = try Self.breathing(id: first)
        try run.start(at: Self.t0)
        try await runs.add(run)
        var other = try Self.workout(id: second)
        try other.start(at: Self.at(5))
        try await runs.add(other)
        let all = try await runs.all()
        #expect(Set(all.map(\.id)) == [first, second])

        let paused = try await runs.update(id: first) { run in
            try run.pause(at: Self.at(10))
            return run.run.state(at: Self.at(20)).status
        }
        #expect(paused == .paused)
        let read = try #require(try await runs.run(id: first))
        #expect(read.run.elapsed(at: Self.at(60)) == .seconds(10))
        #expect(read.steps.map(\.action) == [.start, .pause])

        // A change that throws changes nothing.
        await #expect(throws: TimelineRunError.self) {
            _ = try await runs.update(id: first) { run in try run.pause(at: Self.at(30)) }
        }
        await #expect(throws: APIError.self) {
            _ = try await runs.update(id: UUID()) { _ in () }
        }
        let unchanged = try await runs.run(id: first)
        #expect(unchanged?.steps.count == 2)
        let unknown = try await runs.run(id: UUID())
        #expect(unknown == nil)

        try await runs.update(id: first) { run in
            try run.resume(at: Self.at(40))
            _ = try run.stop(at: Self.at(50))
            run.ending = .init(outcome: "stoppedEarly", practicedMs: 20_000, logged: false)
        }
        // Ended at 50 s: kept while it ended after the instant, forgotten after; a run still going stays.
        try await runs.forget(endedBefore: Self.at(50))
        let kept = try await runs.all()
        #expect(kept.count == 2)
        try await runs.forget(endedBefore: Self.at(51))
        let left = try await runs.all()
        #expect(left.map(\.id) == [second])
        if kind == .postgres {
            let rows = try await store.postgres(
                "SELECT count(*)::int FROM practice_run WHERE person_id = \(store.personID)")
            #expect(rows == 1)
        }
    }

    @Test(arguments: [PracticeRun.Kind.meditation, .breathing, .workout])
    func aStoredRunReplaysToExactlyTheSameAnswers(kind: PracticeRun.Kind) throws {
        var run: PracticeRun
        switch kind {
        case .meditation: run = try Self.meditation(id: UUID())
        case .breathing: run = try Self.breathing(id: UUID())
        case .workout: run = try Self.workout(id: UUID())
        }
        var checkpoints: [PracticeRun] = []
        func keep() { checkpoints.append(run) }
        keep()
        try run.start(at: Self.t0)
        keep()
        try run.pause(at: WallInstant(millisecondsSince1970: Self.t0.millisecondsSince1970 + 12_345))
        keep()
        try run.resume(at: Self.at(30))
        keep()
        try run.pause(at: Self.at(33))
        try run.resume(at: Self.at(34))
        _ = try run.stop(at: WallInstant(millisecondsSince1970: Self.at(45).millisecondsSince1970 + 1))
        run.ending = .init(
            outcome: "stoppedEarly", practicedMs: 42_346, logged: true,
            soundInterruptions: [try SoundInterruption(offsetMilliseconds: 20_000, lengthMilliseconds: 4_500)])
        run.loggedRecord = try PracticeRecord(
            id: UUID(), kind: run.kind.practiceKind, start: Self.t0.date, end: Self.at(45).date, countedSeconds: 42,
            energyKilocalories: kind == .workout ? 7.25 : nil, details: ["preset": "Abend"], device: "test")
        keep()

        for original in checkpoints {
            let rebuilt = try PracticeRun(storedText: try original.storedText())
            #expect(try rebuilt.storedText() == original.storedText())
            #expect(rebuilt.steps == original.steps)
            #expect(rebuilt.endedAt == original.endedAt)
            #expect(rebuilt.wasStoppedEarly == original.wasStoppedEarly)
            #expect(rebuilt.meditationPreset == original.meditationPreset)
            #expect(rebuilt.loggedRecord == original.loggedRecord)
            for seconds: Int64 in [-1, 0, 5, 12, 20, 31, 33, 40, 45, 46, 600, 3600] {
                for language in [Language.english, .german] {
                    let instant = Self.at(seconds)
                    #expect(
                        try Self.answer(rebuilt, at: instant, language) == Self.answer(original, at: instant, language))
                }
            }
        }
    }

    @Test func aStoredRunWhoseStepsDoNotReplayIsACorruptRow() throws {
        var run = try Self.breathing(id: UUID())
        try run.start(at: Self.t0)
        var stored = run.stored
        stored.steps.append(PracticeRun.Step(action: .resume, atMs: Self.at(3).millisecondsSince1970))
        let error = #expect(throws: StoreError.self) { _ = try PracticeRun(stored: stored) }
        guard case .corruptRow(table: "practice_run", _, _)? = error else {
            Issue.record("not a corrupt row: \(String(describing: error))")
            return
        }
        #expect(throws: StoreError.self) { _ = try PracticeRun(storedText: "{\"id\": 1}") }
    }

    /// What the server answers of `run` at `instant`, as JSON.
    private static func answer(_ run: PracticeRun, at instant: WallInstant, _ language: Language) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(
            decoding: try encoder.encode(RunsController.RunResponse(run, at: instant, language: language)),
            as: UTF8.self)
    }
}

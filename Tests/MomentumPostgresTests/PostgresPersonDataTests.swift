import Foundation
import MomentumCore
import MomentumServices
import MomentumStore
import MomentumStoreContract
import MomentumStoreTestSupport
import PostgresNIO
import Testing

@testable import MomentumPostgres

/// What only PostgreSQL has to show about timers, presets and the Morse course: several servers
/// on one database, several people in one table. The behaviour both stores share is tested by the
/// services' suites on both (see `StoreKind.available`).
@Suite("PostgreSQL: focus timers, presets, programs and the Morse course", .enabled(if: StoreKind.postgresURL != nil))
struct PostgresPersonDataTests {
    private struct Refused: Error, Equatable {}

    /// Two servers (two stores, two pools) changing the same person's timers at once: each change
    /// reads the timers, waits a moment and adds one named after how many it saw. Interleaved
    /// changes would both see the same count; under the person's lock every count is seen once.
    /// (Within a minute of the stores' opening: a test may wait long for its slot first.)
    // The trait is the backstop for work that ignores cancellation; the minute is `finishing`'s.
    @Test(.timeLimit(.minutes(10))) func focusTimerChangesOfTwoServersNeverInterleave() async throws {
        let store = try await StoreUnderTest(.postgres)
        guard let first = store.postgresStore, let schema = store.schema else { return }
        let second = try await PostgresStore.open(try StoreUnderTest.location(), schema: schema, poolSize: 2)
        defer { second.close() }
        let servers = [first.scoped(to: 3), second.scoped(to: 3)]
        let changesEach = 8
        let created = Date(timeIntervalSince1970: 1_800_000_000)
        try await finishing(within: .seconds(60)) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for server in servers {
                    group.addTask {
                        for _ in 0..<changesEach {
                            try await server.changeFocusTimers(at: created) { timers in
                                Thread.sleep(forTimeInterval: 0.005)
                                let timer = try FocusTimer(
                                    id: UUID(), name: "T\(timers.count)", sortOrder: timers.count, createdAt: created)
                                return (FocusTimerChanges(saved: [timer]), ())
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        let names = try await servers[1].focusTimers().map(\.name)
        #expect(names == (0..<(2 * changesEach)).map { "T\($0)" })
    }

    @Test func aRefusedChangeIsRethrownAsItselfAndWritesNothing() async throws {
        let store = try await StoreUnderTest(.postgres)
        guard let postgres = store.postgresStore else { return }
        let person = postgres.scoped(to: 1)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let timer = try FocusTimer(id: UUID(), name: "Reading", sortOrder: 0, createdAt: now)
        await #expect(throws: Refused()) {
            try await person.changeFocusTimers(at: now) { _ -> (FocusTimerChanges, Void) in throw Refused() }
        }
        // A timer the core refuses (its check runs again before writing) is refused as the core says.
        var blank = timer
        blank.name = " "
        await #expect(throws: FocusTimerError.blankName) {
            try await person.changeFocusTimers(at: now) { _ in (FocusTimerChanges(saved: [timer, blank]), ()) }
        }
        let timers = try await person.focusTimers()
        #expect(timers.isEmpty)
    }

    @Test func peopleKeepTheirOwnTimersPresetsProgramsAndCourse() async throws {
        let store = try await StoreUnderTest(.postgres)
        guard let postgres = store.postgresStore else { return }
        let (ada, ben) = (postgres.scoped(to: 1), postgres.scoped(to: 2))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        // The same ids and names (a backup restored by both) are each one's own.
        let item = try ChecklistItem(id: UUID(), text: "water", sortOrder: 0, createdAt: now)
        let timer = try FocusTimer(id: UUID(), name: "Morning", sortOrder: 0, createdAt: now, items: [item])
        let breathing = try BreathingPreset(
            id: UUID().uuidString.lowercased(), name: "Evening", pattern: try BreathingPattern(parsing: "4-0-4-0"),
            rounds: 10)
        let program = try WorkoutProgram(id: UUID().uuidString.lowercased(), name: "Legs", plan: WorkoutPlan())
        let sit = try MeditationPreset(
            id: UUID().uuidString.lowercased(), name: "Evening", plan: MeditationPlan(), createdAt: now, updatedAt: now)
        for person in [ada, ben] {
            try await person.changeFocusTimers(at: now) { _ in (FocusTimerChanges(saved: [timer]), ()) }
            try await person.saveBreathingPreset(breathing, at: now)
            try await person.saveWorkoutProgram(program, at: now)
            try await person.saveMeditationPreset(sit)
        }
        try await ada.saveMorseSession(
            progressJSON: "{}",
            summary: MorseSessionSummary(
                id: UUID(), direction: .receive, order: .standard, level: 1, nextLevel: 2, startedAt: now,
                endedAt: now.addingTimeInterval(300), trainingMilliseconds: 300_000, attempts: 10, correct: 10),
            record: nil, at: now)
        try await ben.changeFocusTimers(at: now) { _ in (FocusTimerChanges(deleted: [timer.id]), ()) }
        await #expect(try ben.deleteBreathingPreset(id: breathing.id))
        await #expect(try ben.deleteWorkoutProgram(id: program.id))
        await #expect(try ben.deleteMeditationPreset(id: sit.id, at: now))
        await #expect(try ada.focusTimers() == [timer])
        await #expect(try ada.breathingPresets() == [breathing])
        await #expect(try ada.workoutPrograms() == [program])
        await #expect(try ada.meditationPresets() == [sit])
        await #expect(try ada.morseSessions(limit: 10).count == 1)
        await #expect(try ben.focusTimers().isEmpty)
        await #expect(try ben.breathingPresets().isEmpty)
        await #expect(try ben.workoutPrograms().isEmpty)
        await #expect(try ben.meditationPresets().isEmpty)
        await #expect(try ben.morseCourseJSON() == nil)
        await #expect(try ben.morseSessions(limit: 10).isEmpty)
        // A name taken by the same person, in another case of A–Z, is refused by the database.
        var other = breathing
        other.id = UUID().uuidString.lowercased()
        other.name = "EVENING"
        await #expect(throws: StoreError.self) { try await ada.saveBreathingPreset(other, at: now) }
    }

    @Test func theSchemaRejectsTimersAndItemsTheCoreWouldNot() async throws {
        let store = try await StoreUnderTest(.postgres)
        let columns = "person_id, id, name, duration_ms, icon, color, sort_order, created_at_ms, updated_at_ms"
        let refused = [
            // running without the instant it resumed at
            "INSERT INTO focus_timer (\(columns), run_state, started_at_ms) VALUES (1, 'a', 'A', 60000, 'timer', '#000000', 0, 0, 0, 'running', 0)",
            // elapsed beyond the duration
            "INSERT INTO focus_timer (\(columns), run_state, started_at_ms, paused_at_ms, elapsed_ms) VALUES (1, 'b', 'B', 60000, 'timer', '#000000', 0, 0, 0, 'paused', 0, 0, 60001)",
            // an item of no timer
            "INSERT INTO checklist_item (person_id, id, timer_id, text, sort_order, created_at_ms, updated_at_ms) VALUES (1, 'i', 'nope', 'x', 0, 0, 0)",
            "INSERT INTO breathing_preset (person_id, id, name, inhale_ms, hold_after_inhale_ms, exhale_ms, hold_after_exhale_ms, rounds, created_at_ms, updated_at_ms) VALUES (1, 'p', 'P', 4000, 0, 4000, 0, 100, 0, 0)",
            "INSERT INTO morse_session (person_id, id, direction, koch, level, next_level, started_at_ms, ended_at_ms, training_ms, attempts, correct) VALUES (1, 's', 'sideways', 'standard', 1, 1, 0, 0, 0, 0, 0)",
        ]
        for statement in refused {
            await #expect(throws: StoreError.self) { try await store.postgres(statement) }
        }
        await #expect(try store.postgres("SELECT count(*) FROM focus_timer") == 0)
    }
}

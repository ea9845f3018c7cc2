import Foundation
import MomentumCore
import MomentumPostgres
import MomentumServices
import MomentumStore
import MomentumStoreTestSupport
import Testing

/// PostgreSQL's migration 12 (SQLite's v16): names written before issue 46 lose their direction
/// controls and still load and sync.
@Suite("PostgreSQL migration 12: names lose their direction controls")
struct PostgresNameRuleMigrationTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Given a timer, two breathing presets, a saved sit and a person written through the store,
    /// then given by SQL what the rule now refuses (a right-to-left override in the timer's name,
    /// its merged field and its logged change; an isolate that makes one preset's name the
    /// other's; a saved sit named by marks alone; a byte-order mark before a person's name); when
    /// migration 12 runs again; then everything reads back, and pulls, without them.
    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func migration12LeavesDirectionControlsOutOfNames() async throws {
        let store = try await StoreUnderTest(.postgres)
        let services = LogServices(store: store, now: { Self.now })
        // Made, then renamed: a new timer is logged as one put, a rename as a set of its name — the
        // logged write of a name this migration cleans (it ran before puts were logged).
        _ = try await services.focusTimers.addTimer(name: "Draft", items: ["Glasses"])
        let timer = try await services.focusTimers.editTimer(named: "Draft", .init(name: "Reading"))
        _ = try await services.breathing.addPreset(name: "Calm")
        let other = try await services.breathing.addPreset(name: "Other")
        let sit = try await services.meditationPresets.addPreset(name: "Sit", plan: MeditationPlan())
        let person = store.personID
        _ = try await store.household.ensureFounder(named: "Ada", at: Self.now)
        let override = "'Read' || chr(8238) || 'ing'"
        for statement in [
            "UPDATE focus_timer SET name = \(override) WHERE person_id = \(person)",
            "UPDATE checklist_item SET text = chr(65279) || text WHERE person_id = \(person)",
            """
            UPDATE sync_field SET value = replace(value, 'Reading', \(override))
            WHERE person_id = \(person) AND entity_type = 'focusTimer' AND field = 'name'
            """,
            """
            UPDATE sync_log SET message = replace(message, 'Reading', \(override))
            WHERE person_id = \(person) AND entity_type = 'focusTimer' AND field = 'name'
            """,
            "UPDATE breathing_preset SET name = 'Ca' || chr(8295) || 'lm' WHERE id = '\(other.id)'",
            "UPDATE meditation_preset SET name = chr(8235) || chr(8236) WHERE id = '\(sit.id)'",
            "UPDATE person SET name = chr(65279) || name",
            "DELETE FROM schema_migration WHERE version = 12",
        ] {
            try await store.postgres(statement)
        }

        let reopened = try await store.reopened()
        let timers = try await reopened.focusTimers()
        #expect(timers.map(\.name) == ["Reading"])
        #expect(timers.first?.items.map(\.text) == ["Glasses"])
        let key = SyncEntityKey(type: .focusTimer, id: timer.id.uuidString.lowercased())
        let log = try await store.reopenedSyncLog()
        await #expect(try log.lastChange(of: "name", in: key)?.value == .string("Reading"))
        let page = try await JSONDecoder().decode(
            SyncPullAnswer.self, from: try log.pullPageJSON(after: 0, limit: 100, at: Self.now))
        let names = try page.changes.map { try Change($0.change) }.compactMap { change -> SyncValue? in
            guard change.entity == key, case .set("name", let value) = change.operation else { return nil }
            return value
        }
        #expect(names == [.string("Reading")])
        // "Calm" is taken by the other preset: the cleaned one ends in its id's first characters.
        #expect(try await reopened.breathingPresets().map(\.name).sorted() == ["Calm", "Calm " + other.id.prefix(8)])
        #expect(try await reopened.meditationPresets().map(\.name) == ["Untitled " + sit.id.prefix(8)])
        await #expect(try store.reopenedHousehold().people().map(\.name) == ["Ada"])
    }
}

import Foundation
import MomentumCore
import MomentumStore
import MomentumStoreContract
import MomentumStoreTestSupport
import PostgresNIO
import Testing

@testable import MomentumPostgres

/// Against a real PostgreSQL: run by `scripts/test-postgres.sh` and CI, skipped without
/// `MOMENTUM_TEST_POSTGRES_URL`.
@Suite("PostgreSQL: pool, transactions and migrations", .enabled(if: StoreKind.postgresURL != nil))
struct PostgresStoreTests {
    private func record(startingAt seconds: TimeInterval) throws -> PracticeRecord {
        let start = Date(timeIntervalSince1970: seconds)
        return try PracticeRecord(
            id: UUID(), kind: .meditation, start: start, end: start.addingTimeInterval(600), countedSeconds: 600,
            device: "test")
    }

    /// More callers than cooperative threads (two here) and than connections (four): all of them
    /// finish, each waiting in line for a connection without holding a thread.
    /// (The minute counts from the store's opening: a test may wait long for its slot first.)
    // The trait is the backstop for work that ignores cancellation; the minute is `finishing`'s.
    @Test(.timeLimit(.minutes(10))) func manyMoreConcurrentCallersThanThreadsAndConnectionsAllFinish() async throws {
        let store = try await StoreUnderTest(.postgres)
        guard let postgres = store.postgresStore else { return }
        let person = postgres.scoped(to: 7)
        let callers = 16
        let started = Date()
        try await finishing(within: .seconds(60)) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<callers {
                    group.addTask {
                        try await person.savePracticeRecord(
                            try record(startingAt: Double(index) * 86_400), at: started)
                        _ = try await person.practiceEntries()
                        _ = try await person.logRevision()
                    }
                }
                try await group.waitForAll()
            }
        }
        let entries = try await person.practiceEntries()
        #expect(entries.count == callers)
        let revision = try await person.logRevision()
        #expect(revision == Int64(callers))
    }

    @Test func aTransactionThatThrowsLeavesNothingBehind() async throws {
        let store = try await StoreUnderTest(.postgres)
        guard let postgres = store.postgresStore else { return }
        let person = postgres.scoped(to: 1)
        let kept = try record(startingAt: 0)
        await #expect(throws: StoreError.busy) {
            try await postgres.write { session throws(StoreError) in
                try await session.execute(
                    PostgresPersonStore.insert(
                        [LoggedRecord(record: kept, createdAt: .now, updatedAt: .now)], for: 1, upsert: false))
                throw StoreError.busy
            }
        }
        let afterRollback = try await person.practiceRecords()
        #expect(afterRollback.isEmpty)
        try await postgres.write { session throws(StoreError) in
            try await session.execute(
                PostgresPersonStore.insert(
                    [LoggedRecord(record: kept, createdAt: .now, updatedAt: .now)], for: 1, upsert: false))
        }
        let afterCommit = try await person.practiceRecords()
        #expect(afterCommit == [kept])
    }

    @Test func peopleSeeOnlyTheirOwnRowsAndRevisions() async throws {
        let store = try await StoreUnderTest(.postgres)
        guard let postgres = store.postgresStore else { return }
        let ada = postgres.scoped(to: 1)
        let ben = postgres.scoped(to: 2)
        // The same record (a backup imported by both) is each one's own.
        let shared = try record(startingAt: 0)
        try await ada.savePracticeRecord(shared, at: .now)
        try await ben.savePracticeRecord(shared, at: .now)
        try await ada.saveSettingValues(["sound": "false"], at: .now)
        await #expect(try ben.deletePracticeRecord(id: shared.id, at: .now))
        let adas = try await ada.practiceRecords()
        #expect(adas == [shared])
        let bens = try await ben.practiceRecords()
        #expect(bens.isEmpty)
        let benSettings = try await ben.settingValues()
        #expect(benSettings.isEmpty)
        let revisions = await (try ada.logRevision(), try ben.logRevision(), try postgres.scoped(to: 3).logRevision())
        #expect(revisions == (2, 2, 0))
    }

    @Test func theSchemaRejectsRowsTheCoreWouldNot() async throws {
        let store = try await StoreUnderTest(.postgres)
        guard let postgres = store.postgresStore else { return }
        for values in ["(1, 'x', 'napping', 0, 1, 1, 'd', 0, 0)", "(1, 'y', 'meditation', 10, 1, 1, 'd', 0, 0)"] {
            await #expect(throws: StoreError.self) {
                try await postgres.read { session throws(StoreError) in
                    try await session.execute(
                        PostgresQuery(
                            unsafeSQL: """
                                INSERT INTO practice_record (person_id, id, kind, start_ms, end_ms, counted_seconds, device, created_at_ms, updated_at_ms)
                                VALUES \(values)
                                """))
                }
            }
        }
        let records = try await postgres.scoped(to: 1).practiceRecords()
        #expect(records.isEmpty)
    }

    /// Servers starting together: each migrates under the advisory lock, one after the other, and
    /// all of them end up on the same, complete schema.
    @Test(.timeLimit(.minutes(1)))
    func serversOpeningTogetherMigrateOnce() async throws {
        let location = try StoreUnderTest.location()
        let schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let opened = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
            for _ in 0..<6 {
                group.addTask { try await PostgresStore.open(location, schema: schema, poolSize: 1) }
            }
            var stores: [PostgresStore] = []
            for try await store in group { stores.append(store) }
            return stores
        }
        defer { for store in opened { store.close() } }
        #expect(opened.count == 6)
        let versions = try await opened[0].read { session throws(StoreError) in
            try await session.query("SELECT version FROM schema_migration ORDER BY version").map {
                row throws(StoreError) in
                try row.columns(Int.self)
            }
        }
        #expect(versions == PostgresStore.migrationVersions)
        try await opened[5].scoped(to: 1).saveSettingValues(["sound": "false"], at: .now)
        let values = try await opened[0].scoped(to: 1).settingValues()
        #expect(values == ["sound": "false"])
        try await opened[0].read { session throws(StoreError) in
            try await session.execute(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"))
        }
    }

    @Test func aSchemaFromANewerMomentumIsRefusedAndLeftAlone() async throws {
        let store = try await StoreUnderTest(.postgres)
        guard let postgres = store.postgresStore, let schema = store.schema else { return }
        try await postgres.read { session throws(StoreError) in
            try await session.execute("INSERT INTO schema_migration (version, name) VALUES (999, 'from the future')")
        }
        let location = try StoreUnderTest.location()
        await #expect(throws: StoreError.databaseFromNewerVersion(path: "\(location)")) {
            try await PostgresStore.open(location, schema: schema)
        }
    }

    @Test func anUnreachableServerIsAStoreErrorWithoutItsText() async throws {
        // A port nothing listens on: the kernel refuses at once.
        let location = PostgresLocation(host: "127.0.0.1", port: 1, user: "momentum", database: "momentum")
        do {
            _ = try await PostgresStore.open(location, schema: "unreachable")
            Issue.record("opened a store on a closed port")
        } catch {
            guard case .database(let message) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(message.hasPrefix("PostgreSQL connection"))
        }
    }

    @Test func aWaitForAFreeConnectionEndsAsBusy() async throws {
        let location = try StoreUnderTest.location()
        let store = try await StoreUnderTest(.postgres)
        guard let schema = store.schema else { return }
        let small = try await PostgresStore.open(location, schema: schema, poolSize: 1, busyTimeout: 0.2)
        defer { small.close() }
        await #expect(throws: StoreError.busy) {
            try await small.read { _ throws(StoreError) in
                // The one connection is in use: a second caller waits, then gives up.
                _ = try await small.scoped(to: 1).logRevision()
            }
        }
    }
}

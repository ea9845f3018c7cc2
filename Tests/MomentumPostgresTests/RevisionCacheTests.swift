import Foundation
import MomentumCore
import MomentumStore
import MomentumStoreContract
import MomentumStoreTestSupport
import PostgresNIO
import Synchronization
import Testing

@testable import MomentumPostgres

/// A person's store revision kept between reads on PostgreSQL: asked of the database only when a
/// server announced a change, this process wrote, or what it kept grew old.
@Suite(
    "PostgreSQL: the store revision kept, and forgotten when any server changes it",
    .enabled(if: StoreKind.postgresURL != nil))
struct RevisionCacheTests {
    private func record() throws -> PracticeRecord {
        let start = Date().addingTimeInterval(-3600)
        return try PracticeRecord(
            id: UUID(), kind: .meditation, start: start, end: start.addingTimeInterval(600), countedSeconds: 600,
            device: "test")
    }

    /// Another server's handle of the test's schema that keeps revisions for an hour: only an
    /// announcement moves what it answers.
    private func server(of store: StoreUnderTest) async throws -> PostgresStore {
        try await PostgresStore.open(
            try StoreUnderTest.location(), schema: store.schema, poolSize: 2, revisionAge: .seconds(3600))
    }

    /// Waits (at most five seconds) until `condition` holds: announcements arrive on their own time.
    private func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(5))
        }
        return try await condition()
    }

    @Test func aKeptRevisionIsNotReadAgainWhileNothingChanges() async throws {
        let store = try await StoreUnderTest(.postgres)
        let server = try await server(of: store)
        defer { server.close() }
        let person = server.scoped(to: 1)
        _ = try await person.logRevision()
        #expect(try await eventually { server.revisions.isListening })
        let reads = Mutex(0)
        let count: () throws(StoreError) -> Int64 = {
            reads.withLock { $0 += 1 }
            return 7
        }
        let first = try await server.revisions.revision(of: 1, in: server, read: count)
        let second = try await server.revisions.revision(of: 1, in: server, read: count)
        #expect(first == 7 && second == 7)
        #expect(reads.withLock { $0 } == 1)
    }

    @Test func aChangeThroughAnotherServerIsAnnouncedAndReadAgain() async throws {
        let store = try await StoreUnderTest(.postgres)
        let (first, second) = await (try server(of: store), try server(of: store))
        defer {
            first.close()
            second.close()
        }
        _ = try await first.scoped(to: 1).logRevision()
        #expect(try await eventually { first.revisions.isListening })
        let before = try await first.scoped(to: 1).logRevision()
        try await second.scoped(to: 1).savePracticeRecord(try record(), at: Date())
        let moved = try await eventually { try await first.scoped(to: 1).logRevision() == before + 1 }
        #expect(moved)
        // Another person's change is not theirs.
        try await second.scoped(to: 2).saveSettingValues(["goal.meditation": "30"], at: Date())
        await #expect(try first.scoped(to: 1).logRevision() == before + 1)
    }

    @Test func aWriteOfThisProcessIsReadAgainAtOnce() async throws {
        let store = try await StoreUnderTest(.postgres)
        let server = try await server(of: store)
        defer { server.close() }
        let person = server.scoped(to: 1)
        _ = try await person.logRevision()
        #expect(try await eventually { server.revisions.isListening })
        let before = try await person.logRevision()
        try await person.saveSettingValues(["goal.meditation": "30"], at: Date())
        await #expect(try person.logRevision() == before + 1)
    }

    @Test func announcementsAreRecognizedOnlyInTheirOwnForm() {
        #expect(RevisionCache.person(announcedIn: "revision:42") == 42)
        #expect(RevisionCache.person(announcedIn: "42:1093") == nil)
        #expect(RevisionCache.person(announcedIn: "revision:") == nil)
        #expect(RevisionCache.person(announcedIn: "revision:4x") == nil)
    }
}

import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumComposition
import MomentumCore
import MomentumServices
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

@testable import MomentumServer
@testable import MomentumStore

/// A full disk (issue 46): a write it refuses is answered 507 `disk_full` in the person's
/// language — never 500 "Something went wrong" — and reads keep working. On real databases: an
/// SQLite database capped at its size, and a PostgreSQL table whose inserts raise SQLSTATE 53100.
@Suite("A full disk: writes answer 507 disk_full, reads keep working")
struct DiskFullRoutesTests {
    /// A timer larger than any page left: a hundred items of 150 characters.
    static let largeTimer: String = {
        let items = (1...100).map { "\"\(String(repeating: "item \($0) ", count: 20).prefix(150))\"" }
        return #"{"name":"Large","durationMs":60000,"items":[\#(items.joined(separator: ","))]}"#
    }()

    /// A server of one person on `kind` whose disk takes no more: its SQLite database compacted
    /// and capped at its present size (`max_page_count`), or a trigger on PostgreSQL's timers that
    /// fails every insert as a full disk does.
    struct FullServer {
        let store: StoreUnderTest?
        let folder: TemporaryDirectory
        let household: HouseholdService
        let router: Router<BasicRequestContext>

        init(on kind: StoreKind) async throws {
            folder = try TemporaryDirectory()
            let now: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_000) }
            switch kind {
            case .sqlite:
                store = nil
                household = try await HouseholdService.open(
                    dataDirectory: folder.url, device: "test", login: "Ada", timeZone: .gmt, now: now)
            case .postgres:
                let store = try await StoreUnderTest(.postgres)
                self.store = store
                household = try await HouseholdService.open(
                    postgres: try #require(store.postgresStore), dataDirectory: folder.url, device: "test",
                    login: "Ada", timeZone: .gmt, now: now)
            }
            router = buildRouter(
                configuration: ServerConfiguration(host: "127.0.0.1", dataDirectory: folder.url),
                dependencies: ServerDependencies(household: household, now: now, version: "test-version"))
        }

        func fillTheDisk() async throws {
            if let store {
                try await store.postgres(
                    """
                    CREATE FUNCTION refuse_as_full() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full';
                    END $$
                    """)
                try await store.postgres(
                    "CREATE TRIGGER full_disk BEFORE INSERT ON focus_timer FOR EACH ROW EXECUTE FUNCTION refuse_as_full()"
                )
                return
            }
            let database = try household.founder.sqlite
            try await database.writer.writeWithoutTransaction { db in
                // No free page left, and none may be added: every write that needs a page fails.
                try db.execute(sql: "VACUUM")
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                try db.execute(sql: "PRAGMA max_page_count = \(pages)")
            }
        }

        func test<Value>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
            try await Application(router: router).test(.router, body)
        }
    }

    @Test(arguments: StoreKind.available)
    func aWriteTheFullDiskRefusesIsAnswered507AndReadsKeepWorking(kind: StoreKind) async throws {
        let server = try await FullServer(on: kind)
        try await server.test { client in
            let made = try await client.send(.post, "/api/v1/timers", json: #"{"name":"Tea","durationMs":60000}"#)
            #expect(made.status == .created, "\(made.text)")
        }
        try await server.fillTheDisk()
        try await server.test { client in
            let refused = try await client.send(.post, "/api/v1/timers", json: Self.largeTimer)
            #expect(refused.status.code == 507, "\(refused.status) \(refused.text)")
            #expect(refused.errorCode == "disk_full")
            #expect(
                refused.errorMessage
                    == "The server's disk is full: nothing was saved. Reading still works; free some space on the "
                    + "server and try again.")
            let german = try await client.send(.post, "/api/v1/timers?lang=de", json: Self.largeTimer)
            #expect(german.status.code == 507)
            #expect(german.errorMessage?.hasPrefix("Der Datenträger des Servers ist voll") == true, "\(german.text)")

            let listed = try await client.send(.get, "/api/v1/timers")
            #expect(listed.status == .ok, "\(listed.text)")
            let names = (try listed.object["timers"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names == ["Tea"])
        }
    }

    /// The everyday reads write nothing, so a full disk cannot fail them (before issue 46, listing
    /// the timers saved every timer again: each `GET /api/v1/timers` was a write).
    @Test(arguments: [
        "/api/v1/timers", "/api/v1/settings", "/api/v1/log", "/api/v1/progress/today", "/api/v1/progress/streaks",
        "/api/v1/progress/calendar", "/api/v1/meditation/presets", "/api/v1/breathing/presets",
        "/api/v1/workouts/programs", "/api/v1/runs", "/api/v1/library", "/api/v1/reminders", "/api/v1/morse/progress",
        "/api/v1/session", "/api/v1/sync/pull?after=0",
    ])
    func anEverydayReadWritesNothing(path: String) async throws {
        let server = try await FullServer(on: .sqlite)
        let database = try server.household.founder.sqlite
        try await server.test { client in
            _ = try await client.send(.post, "/api/v1/timers", json: #"{"name":"Tea","durationMs":60000}"#)
            let before = try await database.writer.write { $0.totalChangesCount }
            let read = try await client.send(.get, path)
            #expect(read.status == .ok, "\(path): \(read.text)")
            let after = try await database.writer.write { $0.totalChangesCount }
            #expect(after == before, "\(path) wrote \(after - before) rows")
        }
    }
}

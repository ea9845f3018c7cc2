import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract
import MomentumTestSupport
import Testing

@testable import MomentumStore

@Suite("Database: opening, migrations and bad files")
struct MomentumDatabaseTests {
    @Test func openingAnEmptyDirectoryCreatesAMigratedWALDatabaseWithForeignKeys() throws {
        let directory = try TemporaryDirectory()
        let database = try MomentumDatabase.open(directory: directory.url.appendingPathComponent("nested/data"))
        let (tables, journalMode, foreignKeys, applied) = try database.writer.read { db in
            (
                try ["setting", "practiceRecord"].filter { try db.tableExists($0) },
                try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                try Int.fetchOne(db, sql: "PRAGMA foreign_keys"),
                try MomentumDatabase.migrator.appliedIdentifiers(db)
            )
        }
        #expect(tables == ["setting", "practiceRecord"])
        #expect(journalMode == "wal")
        #expect(foreignKeys == 1)
        #expect(applied == Set(MomentumDatabase.migrationIdentifiers))
    }

    @Test func migrationFromAnEmptyFileWorksAndReopeningKeepsData() throws {
        let directory = try TemporaryDirectory()
        _ = FileManager.default.createFile(atPath: directory.file(MomentumDatabase.fileName).path, contents: Data())
        let first = try MomentumDatabase.open(directory: directory.url)
        try first.saveSettingValues(["language": "\"de\""], at: Date(timeIntervalSince1970: 0))
        let second = try MomentumDatabase.open(directory: directory.url)
        #expect(try second.settingValues() == ["language": "\"de\""])
    }

    @Test func aFileThatIsNotSQLiteIsRejectedAndLeftUntouched() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file(MomentumDatabase.fileName).path
        let contents = Data("these are my notes, not a database\n".utf8)
        _ = FileManager.default.createFile(atPath: path, contents: contents)
        #expect(throws: StoreError.notADatabase(path: path)) { try MomentumDatabase.open(directory: directory.url) }
        #expect(FileManager.default.contents(atPath: path) == contents)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }

    /// A read-only data directory is opened `immutable` (scripts/read-only-data.sh runs the real
    /// thing as an unprivileged user and on a read-only mount); the path must stay one path.
    @Test func aReadOnlyDatabaseIsOpenedThroughAnEscapedImmutableURI() {
        #expect(MomentumDatabase.immutableURI("/data/momentum.sqlite") == "file:/data/momentum.sqlite?immutable=1")
        #expect(
            MomentumDatabase.immutableURI("/a%b/c?d#e/momentum.sqlite")
                == "file:/a%25b/c%3Fd%23e/momentum.sqlite?immutable=1")
    }

    @Test func theFounderIsWrittenOnceAndThenOnlyRead() throws {
        let directory = try TemporaryDirectory()
        let database = try MomentumDatabase.open(directory: directory.url)
        let first = try database.ensureFounder(named: "Ada", at: Date(timeIntervalSince1970: 1_800_000_000))
        // From now on the writing connection refuses every write, as a read-only mount would.
        try database.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA query_only = ON") }
        let again = try database.ensureFounder(named: "Ben", at: Date(timeIntervalSince1970: 1_900_000_000))
        #expect(again == first)
        #expect(again.map(\.name) == ["Ada"])
        #expect(throws: StoreError.readOnly(path: directory.url.path)) {
            try database.insertPerson(named: "Cleo", role: .member, at: Date(timeIntervalSince1970: 1_900_000_000))
        }
    }

    @Test func aDataDirectoryThatCannotBeCreatedIsNamed() throws {
        let directory = try TemporaryDirectory()
        let blocker = directory.file("a-file")
        _ = FileManager.default.createFile(atPath: blocker.path, contents: Data("x".utf8))
        let wanted = blocker.appendingPathComponent("data")
        #expect(throws: StoreError.dataDirectoryNotWritable(path: wanted.path, reason: "it cannot be created")) {
            try MomentumDatabase.open(directory: wanted)
        }
        #expect(throws: StoreError.dataDirectoryNotWritable(path: blocker.path, reason: "it is a file")) {
            try MomentumDatabase.open(directory: blocker)
        }
    }

    @Test func aDatabaseFromANewerMomentumIsRefused() throws {
        let directory = try TemporaryDirectory()
        let database = try MomentumDatabase.open(directory: directory.url)
        try database.writer.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
        }
        #expect(throws: StoreError.databaseFromNewerVersion(path: database.path)) {
            try MomentumDatabase.open(directory: directory.url)
        }
    }

    @Test func dataDirectoryFollowsFlagThenEnvironmentThenHome() throws {
        let home = "/home/ada"
        #expect(
            try DataDirectory.resolve(explicit: "/x", environment: ["MOMENTUM_HOME": "/m"], homeDirectory: home).path
                == "/x")
        #expect(
            try DataDirectory.resolve(
                explicit: nil, environment: ["MOMENTUM_HOME": "/m", "XDG_DATA_HOME": "/d"],
                homeDirectory: home
            ).path == "/m")
        #expect(
            try DataDirectory.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "/d"], homeDirectory: home).path
                == "/d/momentum")
        #expect(
            try DataDirectory.resolve(explicit: nil, environment: [:], homeDirectory: home).path
                == "/home/ada/.local/share/momentum")
    }

    @Test(arguments: ["", "  "])
    func anEmptyDataFlagIsAnErrorNotTheDefaultDirectory(flag: String) {
        #expect(throws: DataDirectoryError.emptyPath) {
            try DataDirectory.resolve(explicit: flag, environment: ["MOMENTUM_HOME": "/m"], homeDirectory: "/home/ada")
        }
    }
}

@Suite("Database: observers of synced changes")
struct SyncObserverTests {
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var changes: [LoggedChange] = []
        func add(_ more: [LoggedChange]) { lock.withLock { changes += more } }
        var all: [LoggedChange] { lock.withLock { changes } }
    }

    /// The first write makes the replica and logs the data already there (its seed); a setting
    /// saved by that write is only in the seed, and observers (the live feed) must hear of it.
    @Test func theFirstWriteOfAFreshDatabaseTellsObserversEveryChangeItLogged() throws {
        let directory = try TemporaryDirectory()
        let database = try MomentumDatabase.open(directory: directory.url)
        let heard = Heard()
        database.observeChanges { heard.add($0) }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try database.saveSettingValues(["language": "\"de\""], at: now)
        let logged = try database.loggedChanges(after: 0, limit: 100, at: now).changes
        #expect(logged.count == 1)
        #expect(logged.first?.change.id == "language")
        #expect(heard.all == logged)

        try database.saveSettingValues(["language": "\"en\""], at: now)
        #expect(heard.all == (try database.loggedChanges(after: 0, limit: 100, at: now).changes))
        #expect(heard.all.count == 2)
    }
}

import Foundation
import GRDB
import MomentumStoreContract
import MomentumTestSupport
import Testing

@testable import MomentumStore

@Suite("A database from a newer version is refused and left untouched")
struct NewerDatabaseTests {
    /// How the newer version left its file: in WAL mode as Momentum writes it, or in
    /// rollback-journal mode (which opening a pool would switch to WAL, rewriting the header).
    enum JournalMode: String, CaseIterable {
        case wal
        case delete
    }

    /// Given a database whose migrations include one this program does not know; when it is
    /// opened; then the open is refused and every file of the directory is as it was.
    @Test(arguments: JournalMode.allCases)
    func aDatabaseMigratedByANewerVersionIsRefusedAndLeftByteForByte(_ mode: JournalMode) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file(MomentumDatabase.fileName).path
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = \(mode.rawValue)")
        }
        try MomentumDatabase.migrator.migrate(queue)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
        }
        try queue.close()
        let before = try Self.contents(of: directory.url)
        #expect(before.keys.sorted() == [MomentumDatabase.fileName])

        #expect(throws: StoreError.databaseFromNewerVersion(path: path)) {
            _ = try MomentumDatabase.open(directory: directory.url)
        }

        // No `-wal` or `-shm` left behind, and the database's bytes unchanged.
        let after = try Self.contents(of: directory.url)
        #expect(after.keys.sorted() == [MomentumDatabase.fileName])
        withKnownIssue(
            """
            GRDB's DatabasePool, opening a WAL database without a non-empty -wal file, creates and drops \
            a table (groue/GRDB.swift#102) before the version is checked: the file grows by a page.
            """
        ) {
            #expect(after == before)
        } when: {
            mode == .wal
        }
    }

    /// Every file of `directory` by name, with its bytes.
    static func contents(of directory: URL) throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            contents[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return contents
    }
}

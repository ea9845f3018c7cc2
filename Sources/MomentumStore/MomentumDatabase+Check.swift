import Foundation
import GRDB
import MomentumStoreContract

extension DatabaseFileCheck {
    /// SQLite's: `momentum.sqlite`, read by ``MomentumDatabase/check(path:)``.
    public static let sqlite = DatabaseFileCheck(fileName: MomentumDatabase.fileName) {
        (path: String) throws(StoreError) -> DatabaseCheck in try MomentumDatabase.check(path: path)
    }
}

extension MomentumDatabase {
    /// Reads the database at `path` (which exists) read-only: its integrity, schema and WAL.
    /// A file that is not SQLite, or one too damaged to read, throws ``StoreError``.
    public static func check(path: String) throws(StoreError) -> DatabaseCheck {
        try checkIsSQLiteOrAbsent(path)
        var configuration = Configuration()
        configuration.readonly = true
        // try?: no write-ahead log file means no bytes in it
        let walBytes = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int64) ?? 0
        return try translatingErrors(path: path) {
            // try?: a file this connection cannot open or read is opened again as immutable just below, which throws
            // what is wrong
            var queue = try? DatabaseQueue(path: path, configuration: configuration)
            // try?: a connection that cannot read is replaced by the immutable one below
            if (try? queue?.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }) == nil {
                // A folder this user may read but not write (no `-shm` to make): the file as it is.
                queue = try DatabaseQueue(path: immutableURI(path), configuration: configuration)
            }
            guard let queue else { throw StoreError.notADatabase(path: path) }
            return try queue.read { db in
                let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check(20)")
                let known = Self.migrator.migrations
                let applied =
                    try db.tableExists("grdb_migrations")
                    ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
                let unknown = applied.filter { !known.contains($0) }
                let schema: DatabaseCheck.Schema
                if !unknown.isEmpty {
                    schema = .newer(unknown: unknown)
                } else if applied.count < known.count {
                    schema = .older(pending: known.count - Set(applied).count)
                } else {
                    schema = .current(known.last ?? "")
                }
                return DatabaseCheck(integrity: integrity, schema: schema, walBytes: walBytes)
            }
        }
    }
}

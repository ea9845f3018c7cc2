import Foundation

/// Why the data directory that was asked for cannot be used.
public enum DataDirectoryError: Error, Equatable, Sendable {
    /// `--data` was given an empty (or blank) path.
    case emptyPath
}

/// What `momentum doctor` reads of a database without changing it: SQLite's integrity check, how
/// its schema stands against this program's migrations, and the size of its write-ahead log.
public struct DatabaseCheck: Sendable, Equatable {
    public enum Schema: Sendable, Equatable {
        /// Every migration this program knows has run: the newest one's name ("v17: …").
        case current(String)
        /// Made by an older Momentum: this many migrations run at the next start.
        case older(pending: Int)
        /// Made by a newer Momentum: the migrations it ran that this program does not know.
        case newer(unknown: [String])
    }

    /// `["ok"]`, or what SQLite found wrong (its first lines).
    public var integrity: [String]
    public var schema: Schema
    /// The bytes of `momentum.sqlite-wal` (0 without one).
    public var walBytes: Int64

    public var isIntact: Bool { integrity == ["ok"] }

    public init(integrity: [String], schema: Schema, walBytes: Int64) {
        self.integrity = integrity
        self.schema = schema
        self.walBytes = walBytes
    }
}

/// How `momentum doctor` reads the database files of a data directory without changing them: the
/// file each database is kept in and the check of one. The store's (``sqlite``, in
/// MomentumStore) is handed to the doctor by the command that runs it.
public struct DatabaseFileCheck: Sendable {
    /// The name of each database file (the founder's in the data directory, each person's in
    /// `people/ID/`).
    public var fileName: String
    /// Reads the database at a path (which exists) read-only.
    public var check: @Sendable (String) throws(StoreError) -> DatabaseCheck

    public init(fileName: String, check: @escaping @Sendable (String) throws(StoreError) -> DatabaseCheck) {
        self.fileName = fileName
        self.check = check
    }
}

import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract
import Synchronization

/// The one database of a Momentum data directory: SQLite through GRDB, in WAL mode with foreign
/// keys on, migrated when opened.
///
/// ```swift
/// let database = try MomentumDatabase.open(directory: dataDirectory)
/// try database.savePracticeRecord(record)
/// ```
public final class MomentumDatabase: Sendable {
    /// `DatabasePool` is itself `Sendable`; it serializes writes and allows concurrent reads.
    let writer: DatabasePool
    public let path: String
    /// The human name synced changes made here carry ("changed by"), e.g. `terminal@laptop`.
    public let device: String
    /// Makes the replica's node id, once, when the database first syncs.
    let makeNodeID: @Sendable () -> String
    /// Told of every change logged here, after its transaction commits (the server's live feed).
    let changeObservers = Mutex<[@Sendable ([LoggedChange]) -> Void]>([])
    /// Keeps the store revision while the database files stand still (see ``logRevision()``).
    let revisionWatch: RevisionWatch
    /// Keeps the household's people the same way: the server asks for them on every request.
    let peopleWatch: StampedCache<[Person]>
    /// Pushes arriving together commit together (see ``acceptPushGrouped(_:at:)``).
    let pushCommits: PushCommitQueue
    /// Pull pages that can no longer change (see ``pullPageJSON(after:limit:at:)``).
    let pullPages = PullPageCache()

    public static let fileName = "momentum.sqlite"

    /// How soon a person added or removed by another process (`momentum user add` while the
    /// server runs) is seen by this one at the latest; this process's own changes at once.
    public static let peopleRereadAfter: Double = 0.25

    private init(writer: DatabasePool, path: String, device: String, makeNodeID: @escaping @Sendable () -> String) {
        self.writer = writer
        self.path = path
        self.device = device
        self.makeNodeID = makeNodeID
        revisionWatch = RevisionWatch(databasePath: path)
        peopleWatch = StampedCache(databasePath: path, rereadAfter: Self.peopleRereadAfter)
        pushCommits = PushCommitQueue()
    }

    /// Opens (creating if needed) the database in `directory` and brings its schema up to date.
    /// `device` names this installation in synced changes; `makeNodeID` makes its sync node id
    /// (once, kept in the database).
    ///
    /// Nothing is written when the directory is unusable, the file is not SQLite, or the schema is
    /// newer than this program knows.
    public static func open(
        directory: URL, device: String = "momentum",
        makeNodeID: @escaping @Sendable () -> String = { SyncNodeID.random() }
    ) throws(StoreError) -> MomentumDatabase {
        let directoryPath = directory.path
        let path = directory.appendingPathComponent(fileName).path
        let writable = try prepareDirectory(directoryPath, databasePath: path)
        try checkIsSQLiteOrAbsent(path)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(StoreLimits.busyTimeout)
        guard writable else {
            return try openReadOnly(path: path, directory: directoryPath, configuration: configuration, device: device)
        }
        return try translatingErrors(path: path) {
            try refuseNewerRollbackJournalDatabase(path, configuration: configuration)
            let pool = try DatabasePool(path: path, configuration: configuration)
            let migrator = Self.migrator
            let isNewer = try pool.read { try migrator.hasBeenSuperseded($0) }
            if isNewer { throw StoreError.databaseFromNewerVersion(path: path) }
            try migrator.migrate(pool)
            return MomentumDatabase(writer: pool, path: path, device: device, makeNodeID: makeNodeID)
        }
    }

    /// Makes sure the directory exists; `false` when it (or the database file in it) can be read
    /// but not written — a read-only mount, a folder of another user — and holds a database.
    private static func prepareDirectory(_ path: String, databasePath: String) throws(StoreError) -> Bool {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .dataDirectoryNotWritable(path: path, reason: "it is a file") }
        } else {
            do {
                try files.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw .dataDirectoryNotWritable(path: path, reason: "it cannot be created")
            }
        }
        let databaseExists = files.fileExists(atPath: databasePath)
        if files.isWritableFile(atPath: path), !databaseExists || files.isWritableFile(atPath: databasePath) {
            return true
        }
        guard databaseExists, files.isReadableFile(atPath: databasePath) else {
            throw .dataDirectoryNotWritable(path: path, reason: "it is not writable")
        }
        return false
    }

    /// A data directory that can only be read: the database is opened `immutable` (SQLite then
    /// needs no `-wal` or `-shm` file beside it, which a read-only folder cannot take), so `log`,
    /// `streak`, `calendar` and `export` work and every write is refused as ``StoreError/readOnly``.
    /// A database that still needs a migration cannot be brought up to date here and is refused.
    private static func openReadOnly(
        path: String, directory: String, configuration: Configuration, device: String
    ) throws(StoreError) -> MomentumDatabase {
        var readOnly = configuration
        readOnly.readonly = true
        return try translatingErrors(path: path) {
            let pool = try DatabasePool(path: immutableURI(path), configuration: readOnly)
            let migrator = Self.migrator
            let (isNewer, isCurrent) = try pool.read {
                (try migrator.hasBeenSuperseded($0), try migrator.hasCompletedMigrations($0))
            }
            if isNewer { throw StoreError.databaseFromNewerVersion(path: path) }
            guard isCurrent else { throw StoreError.readOnly(path: directory) }
            return MomentumDatabase(writer: pool, path: path, device: device, makeNodeID: { SyncNodeID.random() })
        }
    }

    /// `file:PATH?immutable=1`, the path percent-encoded as a URI path (`%`, `?` and `#` among
    /// what is escaped); SQLite reads URIs when built with `SQLITE_USE_URI`, as Debian's and
    /// Apple's are.
    static func immutableURI(_ path: String) -> String {
        let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        return "file:\(escaped)?immutable=1"
    }

    /// SQLite files start with a fixed 16-byte header; checking it first means a foreign file is
    /// never touched (opening it in WAL mode would try to write to it).
    static func checkIsSQLiteOrAbsent(_ path: String) throws(StoreError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            if FileManager.default.fileExists(atPath: path) {
                throw .dataDirectoryNotWritable(path: path, reason: "the database file cannot be read")
            }
            return
        }
        // try?: the handle only reads; a failed close loses nothing
        defer { try? handle.close() }
        // try?: a header that does not read is taken for an empty file: opening it then names the failure
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        guard header.isEmpty || header == Data("SQLite format 3\0".utf8) else { throw .notADatabase(path: path) }
    }

    /// Opening the pool switches a database in rollback-journal mode to WAL, which rewrites its
    /// header: so such a file is first read through a read-only connection (which writes nothing)
    /// and refused there when it comes from a newer version. A file already in WAL mode is left
    /// to the pool's own check, because a read-only connection to it would leave `-wal` and `-shm`
    /// files behind (the pool still writes one page to it: see `NewerDatabaseTests`).
    private static func refuseNewerRollbackJournalDatabase(_ path: String, configuration: Configuration) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        // try?: a header that does not read is left to the pool's own open and check, which name the failure
        let header = (try? handle.read(upToCount: 20)) ?? Data()
        // try?: the handle only read; a failed close loses nothing
        try? handle.close()
        // Bytes 18 and 19 are the file format's write and read versions: 2 means WAL.
        guard header.count == 20, header[18] == 1 else { return }
        var readOnly = configuration
        readOnly.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: readOnly)
        // try?: a read-only queue; a failed close loses nothing
        defer { try? queue.close() }
        if try queue.read({ try migrator.hasBeenSuperseded($0) }) {
            throw StoreError.databaseFromNewerVersion(path: path)
        }
    }

    static func storeError(_ error: DatabaseError, path: String) -> StoreError {
        switch error.resultCode {
        case .SQLITE_NOTADB: .notADatabase(path: path)
        case .SQLITE_CORRUPT: .damaged(path: path)
        case .SQLITE_BUSY, .SQLITE_LOCKED: .busy
        case .SQLITE_FULL: .diskFull
        case .SQLITE_READONLY: .readOnly(path: (path as NSString).deletingLastPathComponent)
        case .SQLITE_CANTOPEN, .SQLITE_PERM:
            .dataDirectoryNotWritable(path: path, reason: error.message ?? "\(error.resultCode)")
        default: .database(message: error.message ?? "\(error)")
        }
    }

    /// Runs a write and turns GRDB's errors into ``StoreError``.
    func write<T>(_ updates: (Database) throws -> T) throws(StoreError) -> T {
        try Self.translatingErrors(path: path) { try writer.write(updates) }
    }

    /// Runs a write that logs synced changes (see ``writeSynced(_:)``) and turns GRDB's errors
    /// into ``StoreError``.
    func syncedWrite<T>(_ updates: (Database, SyncReplicaStore) throws -> (T, [LoggedChange])) throws(StoreError) -> T {
        try Self.translatingErrors(path: path) { try writeSynced(updates) }
    }

    /// Runs a read and turns GRDB's errors into ``StoreError``.
    func read<T>(_ value: (Database) throws -> T) throws(StoreError) -> T {
        try Self.translatingErrors(path: path) { try writer.read(value) }
    }

    static func translatingErrors<T>(path: String, _ work: () throws -> T) throws(StoreError) -> T {
        do {
            return try work()
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: path)
        } catch {
            throw .database(message: "\(error)")
        }
    }
}

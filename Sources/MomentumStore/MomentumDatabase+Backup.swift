import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

extension BackupKind {
    /// The table SQLite keeps rows of this kind in.
    public var table: String {
        switch self {
        case .settings: SettingRow.databaseTableName
        case .practiceLog: PracticeRecordRow.databaseTableName
        case .breathingPresets: BreathingPresetRow.databaseTableName
        case .meditationPresets: MeditationPresetRow.databaseTableName
        case .workoutPrograms: WorkoutProgramRow.databaseTableName
        case .focusTimers: FocusTimerRow.databaseTableName
        case .checklistItems: ChecklistItemRow.databaseTableName
        case .morseCourse: MorseCourseRow.databaseTableName
        case .morseSessions: MorseSessionRow.databaseTableName
        case .library: LibraryItemRow.databaseTableName
        case .libraryViews: LibraryViewRow.databaseTableName
        case .trackers: TrackerRow.tableName
        case .trackerDays: TrackerDayRow.tableName
        }
    }
}

extension MomentumDatabase {
    /// Tables that belong to this machine or its household, not to the person: never in a backup.
    static let machineTables: Set<String> = [
        "grdb_migrations", "storeRevision", "accessToken", "accessSession", "syncReplica", "syncField",
        "syncDeletion", "syncItemTimer", "syncLog", "syncOutbox", "person", "pairingCode", "timerShare",
        "pushServerKey", "pushSubscription", "pushOutbox",
    ]

    /// Every row a person owns, per kind, column for column, in the order they were written.
    public func backupRows() throws(StoreError) -> [String: [BackupRow]] {
        try read { db in
            var tables: [String: [BackupRow]] = [:]
            for kind in BackupKind.allCases {
                var rows: [BackupRow] = []
                let order = kind.keepsWrittenOrder ? "rowid" : kind.key
                let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM \(kind.table) ORDER BY \(order)")
                while let row = try cursor.next() {
                    var values: BackupRow = [:]
                    for (column, value) in row {
                        switch value.storage {
                        case .null: values[column] = .null
                        case .int64(let integer): values[column] = .integer(integer)
                        case .double(let real): values[column] = .real(real)
                        case .string(let text): values[column] = .text(text)
                        case .blob:
                            throw StoreError.corruptRow(table: kind.table, id: "?", reason: "\(column) holds bytes")
                        }
                    }
                    rows.append(values)
                }
                tables[kind.rawValue] = rows
            }
            return tables
        }
    }

    public func backupColumns(of kind: BackupKind) throws(StoreError) -> [String] {
        try read { db in try db.columns(in: kind.table).map(\.name) }
    }

    /// Writes one stored row of `kind` as it is: the schema's checks, and only they, decide (a
    /// restore writes each row its walk has checked so; tests probe the schema with it).
    public func insertStoredRow(_ kind: BackupKind, _ values: BackupRow) throws(StoreError) {
        try write { db in try Self.insert(kind, values, db) }
    }

    private static func insert(_ kind: BackupKind, _ values: BackupRow, _ db: Database) throws {
        let columns = try db.columns(in: kind.table).map(\.name)
        let statement = try db.cachedStatement(
            sql:
                "INSERT INTO \(kind.table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
        )
        try statement.execute(arguments: StatementArguments(columns.map { (values[$0] ?? .null).databaseValue }))
    }

    /// The names of every table of the schema (for the test that each is backed up or the machine's).
    public func tableNames() throws(StoreError) -> [String] {
        try read { db in
            try String.fetchAll(
                db,
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        }
    }

    /// Checks every row of a backup — exactly the table's columns, values a stored row may
    /// have — and plans what a restore adds: rows whose id (or setting key, or library audio) is
    /// not here yet. `libraryFileAvailable` says whether a library row's audio can be put in
    /// place; rows without it are skipped and counted. `checkRecord` is asked about each practice
    /// record to add (the rules that depend on the clock), with its number among them.
    ///
    /// The document is read a table at a time, a row at a time: nothing of it is held.
    public func planRestore(
        _ document: BackupDocumentReader, libraryFileAvailable: (LibraryItem) -> Bool,
        checkRecord: (PracticeRecord, Int) throws -> Void
    ) throws -> BackupRestorePlan {
        do {
            return try writer.read { db in
                try BackupRestoreWalk.walk(
                    document, into: BackupRestoreTarget(db: db), libraryFileAvailable: libraryFileAvailable,
                    checkRecord: checkRecord, add: nil)
            }
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: path)
        }
    }

    /// Adds every row of `document` that is not here yet (deciding as ``planRestore`` does), in
    /// one transaction, and logs the synced kinds (log, settings, focus timers and their items,
    /// saved sits) for the other devices — a new row is one change. All of it, or nothing. The
    /// rows are read from the document as they are written; the write-ahead log is emptied after.
    @discardableResult
    public func restore(
        _ document: BackupDocumentReader, libraryFileAvailable: (LibraryItem) -> Bool, at now: Date
    ) throws -> BackupRestorePlan {
        let plan: BackupRestorePlan
        do {
            plan = try writeSynced { (db: Database, replica: SyncReplicaStore) -> (BackupRestorePlan, [LoggedChange]) in
                // The replica first (a first one logs the data already here): the rows added
                // below are logged by this restore, not taken for data that was here.
                _ = try replica.clock(at: now)
                let storedSettings = Dictionary(
                    uniqueKeysWithValues: try SettingRow.fetchAll(db).map { ($0.key, $0.value) })
                var changes = RestoredSyncChanges()
                var told: [LoggedChange] = []
                var loggedCount = 0
                func log() throws {
                    let logged = try replica.recordLocal(sets: changes.take(), deletes: [], at: now)
                    loggedCount += logged.count
                    told = loggedCount > StoreLimits.restoreBatch ? logged.last.map { [$0] } ?? told : told + logged
                }
                let plan = try BackupRestoreWalk.walk(
                    document, into: BackupRestoreTarget(db: db), libraryFileAvailable: libraryFileAvailable,
                    checkRecord: { _, _ in }
                ) { kind, values in
                    try Self.insert(kind, values, db)
                    try changes.note(kind, values)
                    if changes.isBatchFull { try log() }
                }
                // Timers and items are read back whole, so their fields are the ones a device merges.
                let timers =
                    changes.needsTimers
                    ? try Self.assemble(
                        try FocusTimerRow.order(Column("sortOrder"), Column.rowID).fetchAll(db),
                        try ChecklistItemRow.order(Column("sortOrder"), Column.rowID).fetchAll(db)) : []
                changes.finish(storedSettings: storedSettings, timers: timers)
                try log()
                return (plan, told)
            }
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: path)
        }
        // One transaction wrote every page into the write-ahead log: give the space back.
        // try?: giving the write-ahead log's space back is best-effort: the restore has committed, and SQLite
        // checkpoints again on its own
        try? writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        return plan
    }
}

extension BackupValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let value): value.databaseValue
        case .real(let value): value.databaseValue
        case .text(let value): value.databaseValue
        }
    }
}

extension BackupRestoreTarget {
    /// What a restore needs to know of one SQLite database, read inside its transaction.
    fileprivate init(db: Database) throws {
        self.init()
        for kind in BackupKind.allCases {
            columns[kind] = try db.columns(in: kind.table).map(\.name)
            keys[kind] = Set(
                try DatabaseValue.fetchAll(db, sql: "SELECT \(kind.key) FROM \(kind.table)").compactMap { value in
                    switch value.storage {
                    case .int64(let integer): "\(integer)"
                    case .string(let text): text
                    default: nil
                    }
                })
            switch kind {
            case .breathingPresets, .meditationPresets, .workoutPrograms, .trackers:
                names[kind] = try String.fetchAll(db, sql: "SELECT name FROM \(kind.table)")
            default: break
            }
        }
        libraryContentHashes = Set(try String.fetchAll(db, sql: "SELECT contentHash FROM \(LibraryItemRow.tableName)"))
    }
}

import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

extension BackupKind {
    var table: String {
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
        }
    }

    /// The column that tells two rows apart.
    var key: String {
        switch self {
        case .settings: "key"
        default: "id"
        }
    }
}

extension MomentumDatabase {
    /// Tables that belong to this machine or its household, not to the person: never in a backup.
    static let machineTables: Set<String> = [
        "grdb_migrations", "storeRevision", "accessToken", "accessSession", "syncReplica", "syncField",
        "syncDeletion", "syncItemTimer", "syncLog", "syncOutbox", "person", "pairingCode", "timerShare",
    ]

    /// Every row a person owns, per kind, column for column, in the order they were written.
    public func backupRows() throws(StoreError) -> [String: [BackupRow]] {
        try read { db in
            var tables: [String: [BackupRow]] = [:]
            for kind in BackupKind.allCases {
                var rows: [BackupRow] = []
                let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM \(kind.table) ORDER BY rowid")
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
        for name in document.tableNames.sorted() where BackupKind(rawValue: name) == nil {
            throw BackupError.unknownTable(name)
        }
        do {
            return try writer.read { db in
                try Self.walk(
                    document, db, libraryFileAvailable: libraryFileAvailable, checkRecord: checkRecord, add: nil)
            }
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: path)
        }
    }

    /// Goes through every row of `document`, kind by kind in ``BackupKind``'s order, checks it and
    /// decides whether it is added; with `add`, hands each row to add (renamed where its name is
    /// taken) to it. The plan and the restore walk alike, so they decide alike.
    private static func walk(
        _ document: BackupDocumentReader, _ db: Database, libraryFileAvailable: (LibraryItem) -> Bool,
        checkRecord: (PracticeRecord, Int) throws -> Void, add: ((BackupKind, BackupRow, Row) throws -> Void)?
    ) throws -> BackupRestorePlan {
        var plan = BackupRestorePlan()
        var timersInBackup: Set<String> = []
        var timersAdded: Set<String> = []
        let hashes = Set(try String.fetchAll(db, sql: "SELECT contentHash FROM library_items"))
        for kind in BackupKind.allCases {
            plan.counts[kind] = document.count(of: kind.rawValue)
            let columns = try db.columns(in: kind.table).map(\.name)
            let exists = try db.makeStatement(sql: "SELECT 1 FROM \(kind.table) WHERE \(kind.key) = ? LIMIT 1")
            var seen: Set<String> = []
            var names = Set(try foldedNames(kind, db))
            var index = 0
            try document.forEachRow(in: kind.rawValue) { backupRow in
                index += 1
                var backupRow = backupRow
                let invalid = { (reason: String) in
                    BackupError.invalidRow(table: kind.rawValue, row: index, reason: reason)
                }
                let row = try checkedRow(backupRow, kind: kind, index: index, columns: columns)
                let keyValue = backupRow[kind.key] ?? .null
                let key: String
                switch keyValue {
                case .text(let text): key = text
                case .integer(let integer): key = "\(integer)"
                default: throw invalid("\(kind.key) is missing")
                }
                guard seen.insert(key).inserted else { throw BackupError.repeatedID(table: kind.rawValue, id: key) }
                var isNew = try Bool.fetchOne(exists, arguments: [keyValue.databaseValue]) == nil
                var record: PracticeRecord?
                do {
                    switch kind {
                    case .settings:
                        let setting = try SettingRow(row: row)
                        if let reason = MomentumSettings.storedValueProblem(key: setting.key, value: setting.value) {
                            throw invalid(reason)
                        }
                    case .practiceLog:
                        record = try PracticeRecordRow(row: row).record()
                    case .breathingPresets:
                        let preset = try BreathingPresetRow(row: row).preset()
                        if isNew { rename(preset.name, in: &backupRow, taken: &names, plan: &plan) }
                    case .meditationPresets:
                        let preset = try MeditationPresetRow(row: row).preset()
                        if isNew { rename(preset.name, in: &backupRow, taken: &names, plan: &plan) }
                    case .workoutPrograms:
                        let program = try WorkoutProgramRow(row: row).program()
                        if isNew { rename(program.name, in: &backupRow, taken: &names, plan: &plan) }
                    case .focusTimers:
                        _ = try FocusTimerRow(row: row).timer(items: [])
                        timersInBackup.insert(key)
                        if isNew { timersAdded.insert(key) }
                    case .checklistItems:
                        let item = try ChecklistItemRow(row: row)
                        _ = try item.item()
                        guard timersInBackup.contains(item.timerId) else {
                            throw invalid("its timer \(item.timerId) is not in the backup")
                        }
                        // An item belongs to its timer: a timer kept as it is keeps its own items.
                        isNew = isNew && timersAdded.contains(item.timerId)
                    case .morseCourse:
                        let course = try MorseCourseRow(row: row)
                        guard course.id == 1,
                            // try?: progress that does not read refuses the backup just below
                            (try? JSONDecoder().decode(MorseCourseProgress.self, from: Data(course.progress.utf8)))
                                != nil
                        else { throw invalid("the course progress does not read") }
                    case .morseSessions:
                        _ = try MorseSessionRow(row: row).summary()
                    case .library:
                        let libraryRow = try LibraryItemRow(row: row)
                        let item = try libraryRow.item()
                        guard libraryRow.fileName == "\(libraryRow.id).\(libraryRow.format)",
                            BackupArchiveLayout.isLibraryFileName(libraryRow.fileName),
                            libraryRow.contentHash.count == 64,
                            libraryRow.contentHash.allSatisfy({ "0123456789abcdef".contains($0) })
                        else { throw invalid("the file name or SHA-256 is not one the library gives") }
                        if isNew, hashes.contains(libraryRow.contentHash) {
                            isNew = false
                        } else if isNew, !libraryFileAvailable(item) {
                            plan.skippedWithoutAudio += 1
                            return
                        }
                        if isNew { plan.libraryItems.append(item) }
                    case .libraryViews:
                        _ = try LibraryViewRow(row: row).view()
                    }
                } catch let error as BackupError {
                    throw error
                } catch let StoreError.corruptRow(_, _, reason) {
                    throw invalid(reason)
                } catch {
                    throw invalid("\(error)")
                }
                if isNew, let record { try checkRecord(record, plan.added[kind, default: 0]) }
                if isNew {
                    try add?(kind, backupRow, row)
                    plan.added[kind, default: 0] += 1
                } else {
                    plan.kept[kind, default: 0] += 1
                }
            }
        }
        return plan
    }

    /// Gives a preset or program to add a free name ("Calm (2)") when another here has its own.
    private static func rename(
        _ name: String, in row: inout BackupRow, taken: inout Set<String>, plan: inout BackupRestorePlan
    ) {
        guard let free = freeName(name, taken: &taken) else { return }
        plan.renamed[name] = free
        row["name"] = .text(free)
    }

    /// How many synced rows a restore hands to the sync log at a time, and how many logged
    /// changes it tells observers about at most: a larger restore tells them only of its last
    /// change, and live clients, seeing the gap, pull (docs/sync.md).
    static let restoreBatch = 1000

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
                var sets: [(SyncEntityKey, [String: SyncValue])] = []
                var told: [LoggedChange] = []
                var loggedCount = 0
                func log() throws {
                    let logged = try replica.recordLocal(sets: sets, deletes: [], at: now)
                    sets.removeAll(keepingCapacity: true)
                    loggedCount += logged.count
                    told = loggedCount > Self.restoreBatch ? logged.last.map { [$0] } ?? told : told + logged
                }
                var addedSettings: [String: String] = [:]
                var addedTimers: Set<String> = []
                var addedItems: Set<String> = []
                var inserts: [BackupKind: (columns: [String], statement: Statement)] = [:]
                let plan = try Self.walk(
                    document, db, libraryFileAvailable: libraryFileAvailable, checkRecord: { _, _ in }
                ) { kind, values, row in
                    if inserts[kind] == nil {
                        let columns = try db.columns(in: kind.table).map(\.name)
                        let sql =
                            "INSERT INTO \(kind.table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
                        inserts[kind] = (columns, try db.makeStatement(sql: sql))
                    }
                    guard let (columns, statement) = inserts[kind] else { return }
                    try statement.execute(
                        arguments: StatementArguments(columns.map { (values[$0] ?? .null).databaseValue }))
                    switch kind {
                    case .settings:
                        let setting = try SettingRow(row: row)
                        addedSettings[setting.key] = setting.value
                    case .practiceLog: sets.append(Self.syncSet(try PracticeRecordRow(row: row).record()))
                    case .meditationPresets:
                        let preset = try MeditationPresetRow(row: Self.row(values, columns: columns)).preset()
                        if let key = Self.syncKey(ofMeditationPreset: preset.id) {
                            sets.append((key, preset.syncFields))
                        }
                    case .focusTimers: addedTimers.insert(values["id"]?.textValue ?? "")
                    case .checklistItems: addedItems.insert(values["id"]?.textValue ?? "")
                    default: break
                    }
                    if sets.count >= Self.restoreBatch { try log() }
                }
                sets += Self.settingSyncSets(from: storedSettings, to: storedSettings.merging(addedSettings) { $1 })
                // Timers and items are read back whole, so their fields are the ones a device merges.
                if !addedTimers.isEmpty || !addedItems.isEmpty {
                    let timers = try Self.assemble(
                        try FocusTimerRow.order(Column("sortOrder"), Column.rowID).fetchAll(db),
                        try ChecklistItemRow.order(Column("sortOrder"), Column.rowID).fetchAll(db))
                    for timer in timers {
                        let id = timer.id.uuidString.lowercased()
                        if addedTimers.contains(id) {
                            sets.append((SyncEntityKey(type: .focusTimer, id: id), timer.syncFields))
                        }
                        for item in timer.items where addedItems.contains(item.id.uuidString.lowercased()) {
                            sets.append(
                                (
                                    SyncEntityKey(type: .checklistItem, id: item.id.uuidString.lowercased()),
                                    item.syncFields(timerID: timer.id)
                                ))
                        }
                    }
                }
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

    private static func checkedRow(_ values: BackupRow, kind: BackupKind, index: Int, columns: [String]) throws -> Row {
        for column in values.keys.sorted() where !columns.contains(column) {
            throw BackupError.unknownColumn(table: kind.rawValue, row: index, column: column)
        }
        for column in columns where values[column] == nil {
            throw BackupError.missingColumn(table: kind.rawValue, row: index, column: column)
        }
        for (column, value) in values {
            guard case .text(let text) = value else { continue }
            // Every stored text is clean of control characters but newlines in notes and details.
            if text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || $0.value == 0x7f })
            {
                throw BackupError.invalidRow(
                    table: kind.rawValue, row: index, reason: "\(column) holds a control character")
            }
        }
        return row(values, columns: columns)
    }

    private static func row(_ values: BackupRow, columns: [String]) -> Row {
        var dictionary: [String: (any DatabaseValueConvertible)?] = [:]
        for column in columns { dictionary[column] = (values[column] ?? .null).databaseValue }
        return Row(dictionary)
    }

    private static func foldedNames(_ kind: BackupKind, _ db: Database) throws -> [String] {
        switch kind {
        case .breathingPresets, .meditationPresets, .workoutPrograms:
            try String.fetchAll(db, sql: "SELECT name FROM \(kind.table)").map { $0.lowercased() }
        default: []
        }
    }

    /// `nil` when `name` is free (and takes it); otherwise the first free "name (2)", "name (3)" ….
    static func freeName(_ name: String, taken: inout Set<String>) -> String? {
        LocalSyncChanges.freeName(name, taken: &taken)
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

    var textValue: String? {
        if case .text(let text) = self { text } else { nil }
    }
}

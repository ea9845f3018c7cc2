import Foundation
import GRDB
import MomentumCore

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

/// A checked backup, ready to restore: which rows are new here and which are kept.
public struct BackupRestorePlan: Sendable {
    /// Rows to insert, per kind, in the backup's order.
    var inserts: [BackupKind: [BackupRow]]
    public var added: [BackupKind: Int]
    public var kept: [BackupKind: Int]
    /// Presets and programs renamed because another one here has their name.
    public var renamed: [String: String]
    /// Library rows left out because their audio is not available.
    public var skippedWithoutAudio: Int
    /// The library rows to add: their audio must be in place before ``MomentumDatabase/restore(_:at:)``.
    public var libraryItems: [LibraryItem]
    /// The practice records to add, for the rules that depend on the clock.
    public var records: [PracticeRecord]
    /// Every row of the backup, per kind.
    public var counts: [BackupKind: Int]
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
    /// have — and plans what a restore adds: rows whose id (or setting key, or library audio)
    /// is not here yet. `libraryFileAvailable` says whether a library row's audio can be put in
    /// place; rows without it are skipped and counted.
    public func planRestore(
        _ tables: [String: [BackupRow]], libraryFileAvailable: (LibraryItem) -> Bool
    ) throws -> BackupRestorePlan {
        for name in tables.keys.sorted() where BackupKind(rawValue: name) == nil {
            throw BackupError.unknownTable(name)
        }
        do {
            return try writer.read { db in try Self.plan(tables, db, libraryFileAvailable: libraryFileAvailable) }
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: path)
        }
    }

    private static func plan(
        _ tables: [String: [BackupRow]], _ db: Database, libraryFileAvailable: (LibraryItem) -> Bool
    ) throws -> BackupRestorePlan {
        do {
            var plan = BackupRestorePlan(
                inserts: [:], added: [:], kept: [:], renamed: [:], skippedWithoutAudio: 0, libraryItems: [],
                records: [], counts: [:])
            var timersInBackup: Set<String> = []
            var timersAdded: Set<String> = []
            for kind in BackupKind.allCases {
                let rows = tables[kind.rawValue] ?? []
                plan.counts[kind] = rows.count
                let columns = try db.columns(in: kind.table).map(\.name)
                let existing = Set(try String.fetchAll(db, sql: "SELECT CAST(\(kind.key) AS TEXT) FROM \(kind.table)"))
                var seen: Set<String> = []
                var names = Set(try foldedNames(kind, db))
                let hashes = Set(try String.fetchAll(db, sql: "SELECT contentHash FROM library_items"))
                var inserts: [BackupRow] = []
                for (index, backupRow) in rows.enumerated() {
                    var backupRow = backupRow
                    let row = try checkedRow(backupRow, kind: kind, index: index + 1, columns: columns)
                    let key: String
                    switch backupRow[kind.key] ?? .null {
                    case .text(let text): key = text
                    case .integer(let integer): key = "\(integer)"
                    default:
                        throw BackupError.invalidRow(
                            table: kind.rawValue, row: index + 1, reason: "\(kind.key) is missing")
                    }
                    guard seen.insert(key).inserted else { throw BackupError.repeatedID(table: kind.rawValue, id: key) }
                    let invalid = { (reason: String) in
                        BackupError.invalidRow(table: kind.rawValue, row: index + 1, reason: reason)
                    }
                    var isNew = !existing.contains(key)
                    do {
                        switch kind {
                        case .settings:
                            let setting = try SettingRow(row: row)
                            guard
                                let reason = MomentumSettings.storedValueProblem(key: setting.key, value: setting.value)
                            else { break }
                            throw invalid(reason)
                        case .practiceLog:
                            let record = try PracticeRecordRow(row: row).record()
                            if isNew { plan.records.append(record) }
                        case .breathingPresets:
                            let preset = try BreathingPresetRow(row: row).preset()
                            if isNew, let name = freeName(preset.name, taken: &names) {
                                plan.renamed[preset.name] = name
                                backupRow["name"] = .text(name)
                            }
                        case .meditationPresets:
                            let preset = try MeditationPresetRow(row: row).preset()
                            if isNew, let name = freeName(preset.name, taken: &names) {
                                plan.renamed[preset.name] = name
                                backupRow["name"] = .text(name)
                            }
                        case .workoutPrograms:
                            let program = try WorkoutProgramRow(row: row).program()
                            if isNew, let name = freeName(program.name, taken: &names) {
                                plan.renamed[program.name] = name
                                backupRow["name"] = .text(name)
                            }
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
                                continue
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
                    if isNew {
                        inserts.append(backupRow)
                        plan.added[kind, default: 0] += 1
                    } else {
                        plan.kept[kind, default: 0] += 1
                    }
                }
                plan.inserts[kind] = inserts
            }
            return plan
        }
    }

    /// Inserts what `plan` adds, in one transaction, and logs the synced kinds (log, settings,
    /// focus timers and their items, saved sits) for the other devices. All of it, or nothing.
    public func restore(_ plan: BackupRestorePlan, at now: Date) throws(StoreError) {
        try syncedWrite { (db: Database, replica: SyncReplicaStore) -> ((), [LoggedChange]) in
            let storedSettings = Dictionary(
                uniqueKeysWithValues: try SettingRow.fetchAll(db).map { ($0.key, $0.value) })
            var sets: [(SyncEntityKey, [String: SyncValue])] = []
            var addedSettings: [String: String] = [:]
            for kind in BackupKind.allCases {
                let columns = try db.columns(in: kind.table).map(\.name)
                let sql =
                    "INSERT INTO \(kind.table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
                let statement = try db.makeStatement(sql: sql)
                for values in plan.inserts[kind] ?? [] {
                    let arguments = StatementArguments(columns.map { (values[$0] ?? .null).databaseValue })
                    try statement.execute(arguments: arguments)
                    let row = Self.row(values, columns: columns)
                    switch kind {
                    case .settings:
                        let setting = try SettingRow(row: row)
                        addedSettings[setting.key] = setting.value
                    case .practiceLog: sets.append(Self.syncSet(try PracticeRecordRow(row: row).record()))
                    case .meditationPresets:
                        let preset = try MeditationPresetRow(row: row).preset()
                        if let key = Self.syncKey(ofMeditationPreset: preset.id) {
                            sets.append((key, preset.syncFields))
                        }
                    default: break
                    }
                }
            }
            sets += Self.settingSyncSets(from: storedSettings, to: storedSettings.merging(addedSettings) { $1 })
            // Timers and items are read back whole, so their fields are the ones a device merges.
            let addedTimers = Set((plan.inserts[.focusTimers] ?? []).compactMap { $0["id"]?.textValue })
            let addedItems = Set((plan.inserts[.checklistItems] ?? []).compactMap { $0["id"]?.textValue })
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
            return ((), try replica.recordLocal(sets: sets, deletes: [], at: now))
        }
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

import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

/// A person's backup on PostgreSQL (docs/backup.md): the same document as SQLite's — each kind's
/// rows column for column, by SQLite's column names (`timerId` is `timer_id` here), booleans as
/// 0 and 1 — so an archive made on either store restores into the other. The household's library
/// items are in the founder's backup, as the founder's database keeps them on SQLite.
extension PostgresPersonStore: BackupTableStore {
    /// Every row the person owns, per kind, column for column: kinds whose written order matters
    /// in that order, the others by key (as SQLite lists them).
    public func backupRows() async throws(StoreError) -> [String: [BackupRow]] {
        try await store.read { session throws(StoreError) in
            var tables: [String: [BackupRow]] = [:]
            let columnsByKind = try await Self.backupColumns(in: session)
            for kind in BackupKind.allCases {
                guard kind != .library || personID == Person.founderID else {
                    tables[kind.rawValue] = []
                    continue
                }
                let columns = columnsByKind[kind] ?? []
                let stored = columns.filter { !$0.isFixed }
                // The Morse course is one row, keyed by the person alone.
                let order =
                    kind == .morseCourse
                    ? ""
                    : " ORDER BY "
                        + (kind.keepsWrittenOrder ? "position" : Self.postgresName(kind.key))
                let sql =
                    "SELECT \(stored.map(\.name).joined(separator: ", ")) FROM \(kind.postgresTable)"
                    + (kind.isHouseholds ? "" : " WHERE person_id = $1") + order
                let rows = try await session.query(
                    PostgresQuery(unsafeSQL: sql, binds: kind.isHouseholds ? PostgresBindings() : Self.binds(personID)))
                var backupRows: [BackupRow] = []
                backupRows.reserveCapacity(rows.count)
                for row in rows {
                    var values: BackupRow = [:]
                    for column in columns where column.isFixed { values[column.backupName] = .integer(1) }
                    for (column, cell) in zip(stored, row) {
                        values[column.backupName] = try Self.backupValue(cell, kind: kind)
                    }
                    backupRows.append(values)
                }
                tables[kind.rawValue] = backupRows
            }
            return tables
        }
    }

    /// Writes one stored row of `kind` as it is: the schema's checks, and only they, decide (a
    /// restore writes each row its walk has checked so; tests probe the schema with it).
    public func insertStoredRow(_ kind: BackupKind, _ values: BackupRow) async throws {
        try await store.writeRethrowing({ session in
            var columns: [BackupKind: [BackupColumn]] = [:]
            try await BackupRestoreWriter.insert(kind, values, session: session, personID: personID, columns: &columns)
        })
    }

    public func backupColumns(of kind: BackupKind) async throws(StoreError) -> [String] {
        try await store.read { session throws(StoreError) in
            await (try Self.backupColumns(in: session)[kind] ?? []).map(\.backupName)
        }
    }

    public func planRestore(
        _ document: BackupDocumentReader, libraryFileAvailable: (LibraryItem) -> Bool,
        checkRecord: (PracticeRecord, Int) throws -> Void
    ) async throws -> BackupRestorePlan {
        var refusal: (any Error)?
        do {
            return try await store.read { session throws(StoreError) in
                do {
                    return try BackupRestoreWalk.walk(
                        document, into: try await Self.restoreTarget(in: session, for: personID),
                        libraryFileAvailable: libraryFileAvailable, checkRecord: checkRecord, add: nil)
                } catch let error as StoreError {
                    throw error
                } catch {
                    refusal = error
                    throw StoreError.database(message: "backup refused")
                }
            }
        } catch {
            if let refusal { throw refusal }
            throw error
        }
    }

    /// Adds every row of `document` that is not here yet (deciding as ``planRestore`` does) in
    /// one transaction, and logs the synced kinds for the other devices, as SQLite's restore does.
    @discardableResult
    public func restore(_ document: BackupDocumentReader, libraryFileAvailable: (LibraryItem) -> Bool, at now: Date)
        async
        throws -> BackupRestorePlan
    {
        var refusal: (any Error)?
        do {
            return try await syncedWrite(at: now) { session, replica throws(StoreError) in
                try await Self.lockFocusTimers(in: session, for: personID)
                let restore = BackupRestoreWriter(session: session, replica: replica, personID: personID, now: now)
                let storedSettings = try await Self.settingValues(in: session, for: personID)
                let plan: BackupRestorePlan
                do {
                    // The walk decides what to add from what it read here; the rows go in after it.
                    var added: [(BackupKind, BackupRow)] = []
                    plan = try BackupRestoreWalk.walk(
                        document, into: try await Self.restoreTarget(in: session, for: personID),
                        libraryFileAvailable: libraryFileAvailable, checkRecord: { _, _ in },
                        add: { kind, row in added.append((kind, row)) })
                    for (kind, row) in added { try await restore.add(kind, row) }
                } catch let error as StoreError {
                    throw error
                } catch {
                    refusal = error
                    throw StoreError.database(message: "backup refused")
                }
                try await restore.finish(storedSettings: storedSettings)
                return plan
            }
        } catch {
            if let refusal { throw refusal }
            throw error
        }
    }

    // MARK: Columns

    /// A column of a kind's table: its name here and in the document, and its type. The Morse
    /// course's `id` is fixed (1): PostgreSQL keeps one course per person, without an id.
    struct BackupColumn {
        var name: String
        var backupName: String
        var type: String
        var isFixed = false
    }

    /// Each kind's columns but the person's id and the written order, as the schema has them: one
    /// read of the catalog for every kind.
    static func backupColumns(in session: PostgresSession) async throws(StoreError) -> [BackupKind: [BackupColumn]] {
        let tables = BackupKind.allCases.map(\.postgresTable)
        let rows = try await session.query(
            """
            SELECT table_name, column_name, data_type FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = ANY(\(tables))
            ORDER BY table_name, ordinal_position
            """)
        var columnsByTable: [String: [BackupColumn]] = [:]
        for row in rows {
            let (table, name, type) = try row.columns((String, String, String).self)
            guard name != "person_id", name != "position" else { continue }
            columnsByTable[table, default: []].append(
                BackupColumn(name: name, backupName: backupName(name), type: type))
        }
        var columns: [BackupKind: [BackupColumn]] = [:]
        for kind in BackupKind.allCases {
            // PostgreSQL keeps one Morse course per person, without an id; the document has `id` 1.
            let fixed =
                kind == .morseCourse ? [BackupColumn(name: "", backupName: "id", type: "bigint", isFixed: true)] : []
            columns[kind] = fixed + (columnsByTable[kind.postgresTable] ?? [])
        }
        return columns
    }

    /// `timer_id` → `timerId`: SQLite's name of a column.
    static func backupName(_ name: String) -> String {
        let parts = name.split(separator: "_")
        return parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.capitalized }.joined()
    }

    /// `timerId` → `timer_id`: this store's name of a column.
    static func postgresName(_ name: String) -> String {
        name.unicodeScalars.map {
            CharacterSet.uppercaseLetters.contains($0) ? "_" + String($0).lowercased() : String($0)
        }
        .joined()
    }

    /// A stored value as the document holds it: what SQLite would hold.
    static func backupValue(_ cell: PostgresCell, kind: BackupKind) throws(StoreError) -> BackupValue {
        guard cell.bytes != nil else { return .null }
        do {
            switch cell.dataType {
            case .int8, .int4, .int2: return .integer(try cell.decode(Int64.self))
            case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
            case .float8, .float4: return .real(try cell.decode(Double.self))
            case .text, .varchar: return .text(try cell.decode(String.self))
            default:
                throw StoreError.corruptRow(
                    table: kind.postgresTable, id: "?", reason: "\(cell.columnName) is of type \(cell.dataType)")
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .corruptRow(table: kind.postgresTable, id: "?", reason: "\(cell.columnName) does not read")
        }
    }
}

extension BackupKind {
    /// The table PostgreSQL keeps rows of this kind in.
    public var postgresTable: String {
        switch self {
        case .settings: "setting"
        case .practiceLog: "practice_record"
        case .breathingPresets: "breathing_preset"
        case .meditationPresets: "meditation_preset"
        case .workoutPrograms: "workout_program"
        case .focusTimers: "focus_timer"
        case .checklistItems: "checklist_item"
        case .morseCourse: "morse_course"
        case .morseSessions: "morse_session"
        case .library: "library_item"
        case .libraryViews: "library_view"
        case .trackers: "tracker"
        case .trackerDays: "tracker_day"
        }
    }

    /// The household's rows (the library's items), not one person's.
    var isHouseholds: Bool { self == .library }
}

extension PostgresPersonStore {
    /// What a restore needs to know of one person's rows (and the household's library), read
    /// inside its transaction.
    fileprivate static func restoreTarget(in session: PostgresSession, for personID: Person.ID) async throws(StoreError)
        -> BackupRestoreTarget
    {
        var target = BackupRestoreTarget()
        target.viewsNeedTheirItem = true
        for (kind, columns) in try await backupColumns(in: session) { target.columns[kind] = columns.map(\.backupName) }
        for kind in BackupKind.allCases {
            let owner = kind.isHouseholds ? "" : " WHERE person_id = $1"
            let binds = kind.isHouseholds ? PostgresBindings() : binds(personID)
            // PostgreSQL keeps one Morse course per person, without an id: the document's is 1.
            let key = kind == .morseCourse ? "1" : postgresName(kind.key)
            var keys: Set<String> = []
            for row in try await session.query(
                PostgresQuery(unsafeSQL: "SELECT \(key)::text FROM \(kind.postgresTable)\(owner)", binds: binds))
            {
                keys.insert(try row.columns(String.self))
            }
            target.keys[kind] = keys
            switch kind {
            case .breathingPresets, .meditationPresets, .workoutPrograms, .trackers:
                target.names[kind] = try await session.query(
                    PostgresQuery(unsafeSQL: "SELECT name FROM \(kind.postgresTable)\(owner)", binds: binds)
                ).map { row throws(StoreError) in try row.columns(String.self) }
            default: break
            }
        }
        for row in try await session.query("SELECT content_hash FROM library_item") {
            target.libraryContentHashes.insert(try row.columns(String.self))
        }
        return target
    }
}

/// Writes the rows a restore adds, and hands what other devices must hear of to the sync log a
/// thousand rows at a time, as SQLite's restore does (docs/backup.md).
private final class BackupRestoreWriter {
    let session: PostgresSession
    let replica: PostgresSyncReplica
    let personID: Person.ID
    let now: Date
    private var columns: [BackupKind: [PostgresPersonStore.BackupColumn]] = [:]
    private var changes = RestoredSyncChanges()

    init(session: PostgresSession, replica: PostgresSyncReplica, personID: Person.ID, now: Date) {
        (self.session, self.replica, self.personID, self.now) = (session, replica, personID, now)
    }

    func add(_ kind: BackupKind, _ values: BackupRow) async throws {
        try await Self.insert(kind, values, session: session, personID: personID, columns: &columns)
        if try changes.note(kind, values) { session.movesRevision() }
        if changes.isBatchFull { try await log() }
    }

    /// Logs the settings whose synced text changed and the added timers and items, read back
    /// whole so their fields are the ones a device merges.
    func finish(storedSettings: [String: String]) async throws(StoreError) {
        let timers = await changes.needsTimers ? try PostgresPersonStore.focusTimers(in: session, for: personID) : []
        changes.finish(storedSettings: storedSettings, timers: timers)
        try await log()
    }

    private func log() async throws(StoreError) {
        let sets = changes.take()
        guard !sets.isEmpty else { return }
        try await replica.recordLocal(sets: sets, deletes: [], at: now)
    }

    /// Inserts one stored row of `kind` for `personID` (the household's, for the library), its
    /// values as its columns' types.
    static func insert(
        _ kind: BackupKind, _ values: BackupRow, session: PostgresSession, personID: Person.ID,
        columns: inout [BackupKind: [PostgresPersonStore.BackupColumn]]
    ) async throws {
        if columns.isEmpty { columns = try await PostgresPersonStore.backupColumns(in: session) }
        let stored = (columns[kind] ?? []).filter { !$0.isFixed }
        var binds = PostgresBindings(capacity: stored.count + 1)
        var names: [String] = []
        if !kind.isHouseholds {
            binds.append(personID)
            names.append("person_id")
        }
        for column in stored {
            try bind(values[column.backupName] ?? .null, as: column, kind: kind, to: &binds)
            names.append(column.name)
        }
        let sql =
            "INSERT INTO \(kind.postgresTable) (\(names.joined(separator: ", "))) VALUES (\((1...names.count).map { "$\($0)" }.joined(separator: ", ")))"
        try await session.execute(PostgresQuery(unsafeSQL: sql, binds: binds))
    }

    /// `value` as the column's type: the walk has checked it is a value a stored row may have.
    private static func bind(
        _ value: BackupValue, as column: PostgresPersonStore.BackupColumn, kind: BackupKind,
        to binds: inout PostgresBindings
    ) throws {
        func refused() -> BackupError {
            .invalidRow(table: kind.rawValue, row: 0, reason: "\(column.backupName) does not fit its column")
        }
        switch (column.type, value) {
        case ("bigint", .null): binds.append(Int64?.none)
        case ("bigint", .integer(let integer)): binds.append(integer)
        case ("bigint", .real(let real)) where real.rounded() == real && abs(real) < 9.0e15: binds.append(Int64(real))
        case ("boolean", .null): binds.append(Bool?.none)
        case ("boolean", .integer(let integer)) where integer == 0 || integer == 1: binds.append(integer == 1)
        case ("double precision", .null): binds.append(Double?.none)
        case ("double precision", .real(let real)): binds.append(real)
        case ("double precision", .integer(let integer)): binds.append(Double(integer))
        case ("text", .null): binds.append(String?.none)
        case ("text", .text(let text)): binds.append(text)
        default: throw refused()
        }
    }
}

import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

/// The part of a replica's merged state one transaction needs, loaded from and written back to
/// the sync tables. The merge itself is ``ReplicaState``'s; this only keeps what it needs.
///
/// For a set of changed entities it loads the entities, their tombstones, the timers each item
/// named, and — for a timer — every item that named it (a timer's deletion reaches them), which
/// is everything ``ReplicaState/apply(_:)`` reads for those changes.
struct SyncReplicaStore {
    let db: Database
    let device: String
    let makeNodeID: @Sendable () -> String
    /// The changes the first use of the replica logged for the data already here (see `seed`):
    /// logged like any other, so the transaction's observers hear of them too.
    let seeded = SeededChanges()

    final class SeededChanges {
        var changes: [LoggedChange] = []
    }

    /// A statement from the connection's cache when its `IN` list is short: a merge runs the same
    /// few statements for every push, and preparing them again cost more than running them. Long
    /// lists (seeding a replica) are prepared each time, so the cache stays small.
    private func statement(_ sql: String, listLength: Int) throws -> Statement {
        listLength <= 32 ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
    }

    // MARK: The replica's own row

    /// The clock, creating the replica (a new node id, and changes for the data already here)
    /// the first time.
    func clock(at now: Date) throws -> HybridLogicalClock {
        if let row = try Row.fetchOne(
            try db.cachedStatement(sql: "SELECT node, lastStamp FROM syncReplica WHERE id = 1"))
        {
            let node: String = row["node"]
            let last: String? = row["lastStamp"]
            return try HybridLogicalClock(node: node, last: try last.map { try HybridTimestamp(parsing: $0) })
        }
        var clock = try HybridLogicalClock(node: makeNodeID())
        try db.cachedStatement(sql: "INSERT INTO syncReplica (id, node) VALUES (1, ?)").execute(arguments: [clock.node])
        try seed(&clock, at: now)
        try save(clock)
        return clock
    }

    func save(_ clock: HybridLogicalClock) throws {
        try db.cachedStatement(sql: "UPDATE syncReplica SET lastStamp = ? WHERE id = 1").execute(arguments: [
            clock.last?.description
        ])
    }

    /// The data written before this database synced becomes local changes, so a first sync
    /// sends it (a row that does not read stops it, as it stops every read of the rows).
    private func seed(_ clock: inout HybridLogicalClock, at now: Date) throws {
        let items = Dictionary(grouping: try ChecklistItemRow.fetchAll(db), by: \.timerId)
        let timers = try FocusTimerRow.order(Column("sortOrder"), Column.rowID).fetchAll(db).map { row in
            try row.timer(items: items[row.id] ?? [])
        }
        let records = try PracticeRecordRow.order(Column("startMs")).fetchAll(db).map { try $0.record() }
        let presets = try MeditationPresetRow.order(Column("createdAtMs"), Column.rowID).fetchAll(db).map {
            try $0.preset()
        }
        let logged = try SyncReplicaEngine.seed(
            timers: timers, records: records, meditationPresets: presets, storedSettings: try storedSettingValues(),
            clock: &clock, device: device, at: now, in: self)
        seeded.changes += logged
        try queueInOutbox(logged)
    }

    // MARK: Local changes

    /// Turns the new values of entities written here into changes (``SyncReplicaEngine``), merged,
    /// logged as local and — on a client — queued in the outbox. Returns what was logged.
    func recordLocal(
        sets: [(SyncEntityKey, [String: SyncValue])], deletes: [SyncEntityKey], at now: Date
    ) throws -> [LoggedChange] {
        var clock = try clock(at: now)
        let logged = try SyncReplicaEngine.recordLocal(
            sets: sets, deletes: deletes, clock: &clock, device: device, at: now, in: self)
        try queueInOutbox(logged)
        try save(clock)
        return logged
    }

    /// On a client, what was logged here waits in the outbox until a sync sends it.
    private func queueInOutbox(_ logged: [LoggedChange]) throws {
        guard !logged.isEmpty,
            try String.fetchOne(try db.cachedStatement(sql: "SELECT serverURL FROM syncReplica WHERE id = 1")) != nil
        else { return }
        for entry in logged {
            try db.cachedStatement(sql: "INSERT INTO syncOutbox (seq) VALUES (?)").execute(arguments: [entry.seq])
        }
    }

    // MARK: Changes from elsewhere

    typealias RemoteResult = SyncReplicaEngine.RemoteResult

    /// Merges checked changes from elsewhere (``SyncReplicaEngine/applyRemote(_:clock:at:compacting:in:)``)
    /// and keeps the clock.
    func applyRemote(_ changes: [Change], at now: Date, compacting: Bool = false) throws -> RemoteResult {
        var clock = try clock(at: now)
        let result = try SyncReplicaEngine.applyRemote(
            changes, clock: &clock, at: now, compacting: compacting, in: self)
        try save(clock)
        return result
    }

}

/// The SQLite replica's primitives: what the engine reads and writes, on the `sync…` tables and
/// the app's rows of this database.
extension SyncReplicaStore: SyncReplicaPrimitives {
    func failure(_ error: any Error) -> any Error { error }

    func execute(_ writes: [SyncReplicaEngine.Write], at now: Date) throws -> SyncReplicaEngine.Executed {
        var executed = SyncReplicaEngine.Executed()
        for write in writes {
            switch write {
            case .persist(let changes): try persist(changes)
            case .log(let change, let origin):
                let entry = try appendToLog(change, origin: origin)
                executed.logged.append(entry)
                executed.seqs.append(entry.seq)
            case .findLogged(let change): executed.seqs.append(try seqOfLogged(change))
            case .dropWritesBeaten(let change): try dropWritesBeaten(by: change)
            case .removeRow(let key): try removeRow(key)
            case .saveTimer(let timer): try FocusTimerRow(timer).save(db)
            case .saveItem(let item, let timerID): try ChecklistItemRow(item, timerID: timerID).save(db)
            case .saveRecord(let record): try saveRecord(record, at: now)
            case .saveSettingValues(let values):
                for (key, value) in values {
                    try SettingRow(key: key, value: value, updatedAtMs: now.millisecondsSince1970).save(db)
                }
            case .saveMeditationPreset(let preset): try MeditationPresetRow(preset).save(db)
            }
        }
        return executed
    }

    // MARK: Loading and saving the replica

    func load(_ keys: Set<SyncEntityKey>) throws -> ReplicaState {
        var keys = keys
        let itemIDs = keys.filter { $0.type == .checklistItem }.map(\.id)
        for chunk in itemIDs.chunked(500) {
            let named = try String.fetchAll(
                try statement(
                    "SELECT timerId FROM syncItemTimer WHERE itemId IN \(Self.placeholders(chunk.count))",
                    listLength: chunk.count),
                arguments: StatementArguments(chunk))
            for id in named { keys.insert(SyncEntityKey(type: .focusTimer, id: id)) }
        }
        let timers = keys.filter { $0.type == .focusTimer }.map(\.id)
        for chunk in timers.chunked(500) {
            let items = try String.fetchAll(
                try statement(
                    "SELECT itemId FROM syncItemTimer WHERE timerId IN \(Self.placeholders(chunk.count))",
                    listLength: chunk.count),
                arguments: StatementArguments(chunk))
            for id in items { keys.insert(SyncEntityKey(type: .checklistItem, id: id)) }
        }
        var entities: [SyncEntityType: [String: [String: FieldVersion]]] = [:]
        var deletions: [SyncEntityKey: Deletion] = [:]
        var timersOfItems: [String: Set<String>] = [:]
        for (type, ids) in Dictionary(grouping: keys, by: \.type) {
            for chunk in ids.map(\.id).chunked(500) {
                let arguments = StatementArguments([type.rawValue]) + StatementArguments(chunk)
                let list = Self.placeholders(chunk.count)
                for row in try Row.fetchAll(
                    try statement(
                        "SELECT entityId, field, value, stamp, device FROM syncField WHERE entityType = ? AND entityId IN \(list)",
                        listLength: chunk.count), arguments: arguments)
                {
                    let value = try JSONDecoder().decode(SyncValue.self, from: Data((row["value"] as String).utf8))
                    let version = FieldVersion(
                        value: value, stamp: try HybridTimestamp(parsing: row["stamp"]), device: row["device"])
                    entities[type, default: [:]][row["entityId"], default: [:]][row["field"]] = version
                }
                for row in try Row.fetchAll(
                    try statement(
                        "SELECT entityId, stamp, device FROM syncDeletion WHERE entityType = ? AND entityId IN \(list)",
                        listLength: chunk.count), arguments: arguments)
                {
                    deletions[SyncEntityKey(type: type, id: row["entityId"])] = Deletion(
                        stamp: try HybridTimestamp(parsing: row["stamp"]), device: row["device"])
                }
                if type == .checklistItem {
                    for row in try Row.fetchAll(
                        try statement(
                            "SELECT itemId, timerId FROM syncItemTimer WHERE itemId IN \(list)", listLength: chunk.count
                        ),
                        arguments: StatementArguments(chunk))
                    {
                        timersOfItems[row["itemId"], default: []].insert(row["timerId"])
                    }
                }
            }
        }
        return ReplicaState(entities: entities, deletions: deletions, timersOfItems: timersOfItems)
    }

    /// Writes what differs between two states of the loaded entities.
    func persist(_ changes: SyncReplicaEngine.StateChanges) throws {
        for (type, id, field) in changes.removedFields {
            try db.cachedStatement(sql: "DELETE FROM syncField WHERE entityType = ? AND entityId = ? AND field = ?")
                .execute(arguments: [type.rawValue, id, field])
        }
        for (type, id, field, version) in changes.writtenFields {
            try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO syncField (entityType, entityId, field, value, stamp, device)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                type.rawValue, id, field, try Self.json(version.value), version.stamp.description, version.device,
            ])
        }
        for (key, deletion) in changes.deletions {
            try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO syncDeletion (entityType, entityId, stamp, device) VALUES (?, ?, ?, ?)"
            ).execute(arguments: [key.type.rawValue, key.id, deletion.stamp.description, deletion.device])
        }
        for (itemID, timerID) in changes.links {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO syncItemTimer (itemId, timerId) VALUES (?, ?)")
                .execute(arguments: [itemID, timerID])
        }
    }

    func appendToLog(_ change: Change, origin: String) throws -> LoggedChange {
        let message = ChangeMessage(change)
        let field = change.loggedField
        try db.cachedStatement(
            sql: """
                INSERT INTO syncLog (stamp, entityType, entityId, field, message, origin) VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            change.stamp.description, change.entity.type.rawValue, change.entity.id, field,
            try message.logText(), origin,
        ])
        return LoggedChange(seq: db.lastInsertedRowID, change: message)
    }

    /// Deletes the logged writes of `change`'s field with a lower stamp: compaction's first rule
    /// (`MomentumDatabase+SyncCompaction.swift`, docs/sync.md "Compaction") applied as the write
    /// is merged, so a log of fields written again and again stays small without a compaction run
    /// holding the writer for milliseconds. Called after `change` is logged: the log's newest
    /// change is never deleted (its number would be given again). A checklist item's `timerID`
    /// writes are always kept, as compaction keeps them.
    func dropWritesBeaten(by change: Change) throws {
        for field in change.fieldsWhoseOlderWritesItBeats {
            try db.cachedStatement(
                sql: "DELETE FROM syncLog WHERE entityType = ? AND entityId = ? AND field = ? AND stamp < ?"
            ).execute(arguments: [change.entity.type.rawValue, change.entity.id, field, change.stamp.description])
        }
    }

    func seqOfLogged(_ change: Change) throws -> Int64? {
        let field = change.loggedField
        return try Int64.fetchOne(
            try db.cachedStatement(
                sql:
                    "SELECT seq FROM syncLog WHERE stamp = ? AND entityType = ? AND entityId = ? AND field IS ? LIMIT 1"
            ), arguments: [change.stamp.description, change.entity.type.rawValue, change.entity.id, field])
    }

    // MARK: The app's rows

    func storedRows(_ reads: SyncReplicaEngine.RowReads) throws -> SyncReplicaEngine.StoredRows {
        var rows = SyncReplicaEngine.StoredRows()
        for chunk in Array(reads.timers).chunked(500) {
            let list = Self.placeholders(chunk.count)
            rows.timersWithRows.formUnion(
                try String.fetchAll(
                    try statement("SELECT id FROM focusTimer WHERE id IN \(list)", listLength: chunk.count),
                    arguments: StatementArguments(chunk)))
            for row in try Row.fetchAll(
                try statement(
                    "SELECT id, timerId FROM checklistItem WHERE timerId IN \(list)", listLength: chunk.count),
                arguments: StatementArguments(chunk))
            {
                rows.itemsOfTimers[row["timerId"], default: []].insert(row["id"])
            }
        }
        for chunk in Array(reads.records).chunked(500) {
            for row in try PracticeRecordRow.filter(keys: chunk).fetchAll(db) {
                // try?: a stored row that no longer reads is written again from the merged state.
                if let record = try? row.record() { rows.records[row.id] = record }
            }
        }
        if reads.settings { rows.settingValues = try storedSettingValues() }
        if reads.meditationPresetNames {
            for row in try Row.fetchAll(try db.cachedStatement(sql: "SELECT id, name FROM meditationPreset")) {
                rows.meditationPresetNames[row["id"]] = row["name"]
            }
        }
        return rows
    }

    func saveRecord(_ record: PracticeRecord, at now: Date) throws {
        let createdAtMs = try Int64.fetchOne(
            try db.cachedStatement(sql: "SELECT createdAtMs FROM practiceRecord WHERE id = ?"),
            arguments: [record.id.uuidString.lowercased()])
        let createdAt = createdAtMs.map { Date(millisecondsSince1970: $0) } ?? now
        try PracticeRecordRow(record, createdAt: createdAt, updatedAt: now).save(db)
    }

    func storedSettingValues() throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try SettingRow.fetchAll(db).map { ($0.key, $0.value) })
    }

    func removeRow(_ key: SyncEntityKey) throws {
        switch key.type {
        case .focusTimer: try FocusTimerRow.deleteOne(db, key: key.id)
        case .checklistItem: try ChecklistItemRow.deleteOne(db, key: key.id)
        case .practiceRecord: try PracticeRecordRow.deleteOne(db, key: key.id)
        case .setting: break
        case .meditationPreset: try MeditationPresetRow.deleteOne(db, key: key.id)
        }
    }

    // MARK: Helpers

    static func json(_ value: SyncValue) throws -> String {
        try value.logText()
    }

    static func placeholders(_ count: Int) -> String {
        "(" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
    }
}

extension Array {
    fileprivate func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

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
    /// sends it. Settings still at their defaults are left out: a new device must not overwrite
    /// another's choices with its defaults.
    private func seed(_ clock: inout HybridLogicalClock, at now: Date) throws {
        let items = Dictionary(grouping: try ChecklistItemRow.fetchAll(db), by: \.timerId)
        let timers = try FocusTimerRow.order(Column("sortOrder"), Column.rowID).fetchAll(db).compactMap { row in
            try? row.timer(items: items[row.id] ?? [])
        }
        let records = try PracticeRecordRow.order(Column("startMs")).fetchAll(db).compactMap { try? $0.record() }
        let presets = try MeditationPresetRow.order(Column("createdAtMs"), Column.rowID).fetchAll(db).compactMap {
            try? $0.preset()
        }
        let sets = LocalSyncChanges.seed(
            timers: timers, records: records, meditationPresets: presets, storedSettings: try storedSettingValues())
        seeded.changes += try recordLocal(sets: sets, deletes: [], clock: &clock, at: now)
    }

    // MARK: Local changes

    /// Turns the new values of entities written here into changes: each field that differs from
    /// the replica's becomes a stamped change (`deletes` become tombstones), merged, logged as
    /// local and — on a client — queued in the outbox. Writes to an entity the replica has
    /// deleted are dropped, and so is its row. Returns what was logged.
    func recordLocal(
        sets: [(SyncEntityKey, [String: SyncValue])], deletes: [SyncEntityKey], at now: Date
    ) throws -> [LoggedChange] {
        var clock = try clock(at: now)
        let logged = try recordLocal(sets: sets, deletes: deletes, clock: &clock, at: now)
        try save(clock)
        return logged
    }

    private func recordLocal(
        sets: [(SyncEntityKey, [String: SyncValue])], deletes: [SyncEntityKey], clock: inout HybridLogicalClock,
        at now: Date
    ) throws -> [LoggedChange] {
        let keys = Set(sets.map(\.0)).union(deletes)
        guard !keys.isEmpty else { return [] }
        let before = try load(keys, timerIDs: [])
        var state = before
        let (changes, droppedRows) = try state.recordLocal(
            sets: sets, deletes: deletes, clock: &clock, device: device, at: now)
        try persist(from: before, to: state)
        for key in droppedRows { try removeRow(key) }
        let isClient =
            try String.fetchOne(try db.cachedStatement(sql: "SELECT serverURL FROM syncReplica WHERE id = 1")) != nil
        var logged: [LoggedChange] = []
        for change in changes {
            let entry = try appendToLog(change, origin: "local")
            if isClient {
                try db.cachedStatement(sql: "INSERT INTO syncOutbox (seq) VALUES (?)").execute(arguments: [entry.seq])
            }
            logged.append(entry)
        }
        return logged
    }

    // MARK: Changes from elsewhere

    /// What merging changes from another replica did: each change's outcome, and what was logged.
    struct RemoteResult {
        var outcomes: [ChangeOutcome]
        /// Per change: its sequence number in this log (for a duplicate, the earlier entry's).
        var seqs: [Int64?]
        var logged: [LoggedChange]
        /// Stamps this replica's clock found too far ahead (applied anyway; the clock kept).
        var farAhead: [HybridTimestamp]
    }

    /// Merges checked changes from elsewhere: applies them, moves the clock past their stamps
    /// (a stamp too far ahead is applied but does not move the clock), logs each that is not a
    /// duplicate, and brings the app's rows up to date.
    ///
    /// `compacting`: each write that wins also drops the writes of its field it beats from the log
    /// (``dropWritesBeaten(by:)``), as compaction would later — the server's merge of a push.
    func applyRemote(_ changes: [Change], at now: Date, compacting: Bool = false) throws -> RemoteResult {
        var clock = try clock(at: now)
        let keys = Set(changes.map(\.entity))
        let timerIDs = Set(
            changes.compactMap { change -> String? in
                guard case .set(SyncEntityType.timerReferenceField, .string(let id)) = change.operation else {
                    return nil
                }
                return id
            })
        let before = try load(keys, timerIDs: timerIDs)
        var state = before
        var result = RemoteResult(outcomes: [], seqs: [], logged: [], farAhead: [])
        for change in changes {
            let outcome = state.apply(change)
            result.outcomes.append(outcome)
            do {
                try clock.receive(change.stamp, at: now)
            } catch {
                guard case .tooFarAhead = error else { throw error }
                result.farAhead.append(change.stamp)
            }
            if outcome == .duplicate {
                result.seqs.append(try seqOfLogged(change))
            } else {
                let entry = try appendToLog(change, origin: "remote")
                result.seqs.append(entry.seq)
                result.logged.append(entry)
                if compacting, outcome == .applied { try dropWritesBeaten(by: change) }
            }
        }
        try persist(from: before, to: state)
        try materialize(from: before, to: state, at: now)
        try save(clock)
        return result
    }

    // MARK: Loading and saving the replica

    private func load(_ keys: Set<SyncEntityKey>, timerIDs: Set<String>) throws -> ReplicaState {
        var keys = keys
        for id in timerIDs { keys.insert(SyncEntityKey(type: .focusTimer, id: id)) }
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
    private func persist(from before: ReplicaState, to after: ReplicaState) throws {
        for type in SyncEntityType.allCases {
            let old = before.entities[type] ?? [:]
            let new = after.entities[type] ?? [:]
            for id in Set(old.keys).union(new.keys) where old[id] != new[id] {
                let oldFields = old[id] ?? [:]
                let newFields = new[id] ?? [:]
                for field in oldFields.keys where newFields[field] == nil {
                    try db.cachedStatement(
                        sql: "DELETE FROM syncField WHERE entityType = ? AND entityId = ? AND field = ?"
                    ).execute(arguments: [type.rawValue, id, field])
                }
                for (field, version) in newFields where oldFields[field] != version {
                    try db.cachedStatement(
                        sql: """
                            INSERT OR REPLACE INTO syncField (entityType, entityId, field, value, stamp, device)
                            VALUES (?, ?, ?, ?, ?, ?)
                            """
                    ).execute(arguments: [
                        type.rawValue, id, field, try Self.json(version.value), version.stamp.description,
                        version.device,
                    ])
                }
            }
        }
        for (key, deletion) in after.deletions where before.deletions[key] != deletion {
            try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO syncDeletion (entityType, entityId, stamp, device) VALUES (?, ?, ?, ?)"
            ).execute(arguments: [key.type.rawValue, key.id, deletion.stamp.description, deletion.device])
        }
        for (itemID, timers) in after.timersOfItems {
            for timerID in timers.subtracting(before.timersOfItems[itemID] ?? []) {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO syncItemTimer (itemId, timerId) VALUES (?, ?)")
                    .execute(arguments: [itemID, timerID])
            }
        }
    }

    private func appendToLog(_ change: Change, origin: String) throws -> LoggedChange {
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
    private func dropWritesBeaten(by change: Change) throws {
        for field in change.fieldsWhoseOlderWritesItBeats {
            try db.cachedStatement(
                sql: "DELETE FROM syncLog WHERE entityType = ? AND entityId = ? AND field = ? AND stamp < ?"
            ).execute(arguments: [change.entity.type.rawValue, change.entity.id, field, change.stamp.description])
        }
    }

    private func seqOfLogged(_ change: Change) throws -> Int64? {
        let field = change.loggedField
        return try Int64.fetchOne(
            try db.cachedStatement(
                sql:
                    "SELECT seq FROM syncLog WHERE stamp = ? AND entityType = ? AND entityId = ? AND field IS ? LIMIT 1"
            ), arguments: [change.stamp.description, change.entity.type.rawValue, change.entity.id, field])
    }

    // MARK: The app's rows

    /// Brings the app's rows of every entity whose merged state changed up to date: timers first
    /// (an item needs its timer's row), then items — also those of a changed timer — records
    /// and settings. A state that makes no valid value leaves the row out.
    private func materialize(from before: ReplicaState, to after: ReplicaState, at now: Date) throws {
        let changed = after.entitiesToMaterialize(since: before)
        for id in (changed[.focusTimer] ?? []).sorted() { try materializeTimer(id, in: after, at: now) }
        for id in (changed[.checklistItem] ?? []).sorted() { try materializeItem(id, in: after, at: now) }
        for id in (changed[.practiceRecord] ?? []).sorted() { try materializeRecord(id, in: after, at: now) }
        if let settingIDs = changed[.setting] { try materializeSettings(settingIDs, in: after, at: now) }
        for id in (changed[.meditationPreset] ?? []).sorted() {
            try materializeMeditationPreset(id, in: after, at: now)
        }
    }

    private func materializeTimer(_ id: String, in state: ReplicaState, at now: Date) throws {
        let key = SyncEntityKey(type: .focusTimer, id: id)
        guard let uuid = UUID(uuidString: id), let fields = state.values(of: key),
            let timer = FocusTimer.synced(
                id: uuid, fields: fields, items: [], fallbackCreatedAt: state.firstWritten(key), updatedAt: now)
        else { return try removeRow(key) }
        try FocusTimerRow(timer).save(db)
    }

    private func materializeItem(_ id: String, in state: ReplicaState, at now: Date) throws {
        let key = SyncEntityKey(type: .checklistItem, id: id)
        guard let uuid = UUID(uuidString: id), let fields = state.values(of: key),
            let synced = ChecklistItem.synced(
                id: uuid, fields: fields, fallbackCreatedAt: state.firstWritten(key), updatedAt: now)
        else { return try removeRow(key) }
        let (item, timerID) = synced
        let timer = timerID.uuidString.lowercased()
        let timerExists = try FocusTimerRow.exists(db, key: timer)
        let count =
            try Int.fetchOne(
                try db.cachedStatement(sql: "SELECT COUNT(*) FROM checklistItem WHERE timerId = ? AND id != ?"),
                arguments: [timer, id])
            ?? 0
        guard timerExists, count < FocusTimer.maximumItems else { return try removeRow(key) }
        try ChecklistItemRow(item, timerID: timerID).save(db)
    }

    private func materializeRecord(_ id: String, in state: ReplicaState, at now: Date) throws {
        let key = SyncEntityKey(type: .practiceRecord, id: id)
        guard let uuid = UUID(uuidString: id), let fields = state.values(of: key),
            let record = PracticeRecord.synced(id: uuid, fields: fields)
        else { return try removeRow(key) }
        let existing = try PracticeRecordRow.fetchOne(db, key: id)
        let createdAt = existing.map { Date(millisecondsSince1970: $0.createdAtMs) } ?? now
        let row = PracticeRecordRow(record, createdAt: createdAt, updatedAt: now)
        if let existing, (try? existing.record()) == record { return }
        try row.save(db)
    }

    /// A saved sit whose name another one here has (each device named one alike) takes the first
    /// free "Name (2)" here, as a restore does, rather than the write failing.
    private func materializeMeditationPreset(_ id: String, in state: ReplicaState, at now: Date) throws {
        let key = SyncEntityKey(type: .meditationPreset, id: id)
        guard let fields = state.values(of: key),
            var preset = MeditationPreset.synced(
                id: id, fields: fields, fallbackCreatedAt: state.firstWritten(key), updatedAt: now)
        else { return try removeRow(key) }
        var taken = Set(
            try String.fetchAll(
                try db.cachedStatement(sql: "SELECT name FROM meditationPreset WHERE id != ?"), arguments: [id]
            )
            .map { $0.lowercased() })
        if let free = MomentumDatabase.freeName(preset.name, taken: &taken) { preset.name = free }
        try MeditationPresetRow(preset).save(db)
    }

    private func materializeSettings(_ ids: Set<String>, in state: ReplicaState, at now: Date) throws {
        var texts: [SettingKey: String] = [:]
        for id in ids {
            guard let key = SettingKey(rawValue: id),
                case .string(let text)? = state.values(of: SyncEntityKey(type: .setting, id: id))?[
                    SyncEntityType.settingValueField]
            else { continue }
            texts[key] = text
        }
        let stored = try storedSettingValues()
        let settings = MomentumSettings(storedValues: stored).applyingSyncTexts(texts)
        for (key, value) in settings.storedValues where stored[key] != value {
            try SettingRow(key: key, value: value, updatedAtMs: now.millisecondsSince1970).save(db)
        }
    }

    private func storedSettingValues() throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try SettingRow.fetchAll(db).map { ($0.key, $0.value) })
    }

    private func removeRow(_ key: SyncEntityKey) throws {
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

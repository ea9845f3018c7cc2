import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

extension MomentumDatabase {
    /// Every focus timer with its checklist, in their order.
    public func focusTimers() throws(StoreError) -> [FocusTimer] {
        let (timers, items) = try read { db in
            (
                try FocusTimerRow.order(Column("sortOrder"), Column.rowID).fetchAll(db),
                try ChecklistItemRow.order(Column("sortOrder"), Column.rowID).fetchAll(db)
            )
        }
        return try Self.assemble(timers, items)
    }

    /// Reads the timers, lets `change` decide what to write from them, and writes it — all in
    /// one write transaction, so two processes never both act on the same state (a completion is
    /// logged once). Whatever `change` throws is rethrown and nothing is written.
    @discardableResult
    public func changeFocusTimers<Result: Sendable>(
        at now: Date, _ change: ([FocusTimer]) throws -> (FocusTimerChanges, Result)
    ) throws -> Result {
        do {
            return try writeSynced { db, replica in
                let timers = try Self.assemble(
                    try FocusTimerRow.order(Column("sortOrder"), Column.rowID).fetchAll(db),
                    try ChecklistItemRow.order(Column("sortOrder"), Column.rowID).fetchAll(db))
                let (changes, result) = try change(timers)
                // Only what this write changed: a field the replica never had keeps its default
                // here, and must not overwrite another device's later-arriving value.
                let (sets, deletes) = LocalSyncChanges.focusTimers(
                    before: timers, saved: changes.saved, deleted: changes.deleted, records: changes.records)
                for id in changes.deleted {
                    try FocusTimerRow.deleteOne(db, key: id.uuidString.lowercased())
                }
                for timer in changes.saved {
                    try timer.validate()
                    try FocusTimerRow(timer).save(db)
                    let keep = timer.items.map { $0.id.uuidString.lowercased() }
                    try ChecklistItemRow.filter(Column("timerId") == timer.id.uuidString.lowercased())
                        .filter(!keep.contains(Column("id"))).deleteAll(db)
                    for item in timer.items { try ChecklistItemRow(item, timerID: timer.id).save(db) }
                }
                for record in changes.records {
                    try PracticeRecordRow(record, createdAt: now, updatedAt: now).insert(db)
                }
                return (result, try replica.recordLocal(sets: sets, deletes: deletes, at: now))
            }
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: path)
        }
    }

    /// The fields of `new` that differ from `old` (all of them for a new entity).
    static func changedFields(_ new: [String: SyncValue], from old: [String: SyncValue]?) -> [String: SyncValue] {
        LocalSyncChanges.changedFields(new, from: old)
    }

    static func assemble(_ timers: [FocusTimerRow], _ items: [ChecklistItemRow]) throws(StoreError)
        -> [FocusTimer]
    {
        let byTimer = Dictionary(grouping: items, by: \.timerId)
        var result: [FocusTimer] = []
        for row in timers { result.append(try row.timer(items: byTimer[row.id] ?? [])) }
        return result
    }
}

extension FocusTimerRow: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { tableName }
}

extension ChecklistItemRow: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { tableName }
}

import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

/// A focus timer as stored: its run spread over nullable instants the table's checks keep
/// consistent with `runState`.
struct FocusTimerRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "focusTimer"
    var id: String
    var name: String
    var durationMs: Int64
    var icon: String
    var color: String
    var notes: String
    var sortOrder: Int
    var createdAtMs: Int64
    var updatedAtMs: Int64
    var runState: String
    var startedAtMs: Int64?
    var resumedAtMs: Int64?
    var pausedAtMs: Int64?
    var completedAtMs: Int64?
    var elapsedMs: Int64

    init(_ timer: FocusTimer) {
        id = timer.id.uuidString.lowercased()
        name = timer.name
        durationMs = timer.duration.wholeMilliseconds
        icon = timer.icon
        color = timer.color
        notes = timer.notes
        sortOrder = timer.sortOrder
        createdAtMs = timer.createdAt.millisecondsSince1970
        updatedAtMs = timer.updatedAt.millisecondsSince1970
        let run = FocusRunColumns(timer.run)
        (runState, startedAtMs, resumedAtMs) = (run.state, run.startedAtMs, run.resumedAtMs)
        (pausedAtMs, completedAtMs, elapsedMs) = (run.pausedAtMs, run.completedAtMs, run.elapsedMs)
    }

    func run() -> FocusRun? {
        FocusRunColumns(
            state: runState, startedAtMs: startedAtMs, resumedAtMs: resumedAtMs, pausedAtMs: pausedAtMs,
            completedAtMs: completedAtMs, elapsedMs: elapsedMs
        ).run
    }

    func timer(items: [ChecklistItemRow]) throws(StoreError) -> FocusTimer {
        func corrupt(_ reason: String) -> StoreError {
            .corruptRow(table: Self.databaseTableName, id: id, reason: reason)
        }
        guard let uuid = UUID(uuidString: id) else { throw corrupt("id is not a UUID") }
        guard let run = run() else { throw corrupt("run state \(runState) lacks its instants") }
        var checklist: [ChecklistItem] = []
        for item in items { checklist.append(try item.item()) }
        do {
            return try FocusTimer(
                id: uuid, name: name, duration: .milliseconds(durationMs), icon: icon, color: color, notes: notes,
                sortOrder: sortOrder, createdAt: Date(millisecondsSince1970: createdAtMs),
                updatedAt: Date(millisecondsSince1970: updatedAtMs), items: checklist, run: run)
        } catch {
            throw corrupt("\(error)")
        }
    }
}

/// A checklist item as stored.
struct ChecklistItemRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "checklistItem"
    var id: String
    var timerId: String
    var text: String
    var done: Bool
    var sortOrder: Int
    var createdAtMs: Int64
    var updatedAtMs: Int64

    init(_ item: ChecklistItem, timerID: UUID) {
        id = item.id.uuidString.lowercased()
        timerId = timerID.uuidString.lowercased()
        text = item.text
        done = item.done
        sortOrder = item.sortOrder
        createdAtMs = item.createdAt.millisecondsSince1970
        updatedAtMs = item.updatedAt.millisecondsSince1970
    }

    func item() throws(StoreError) -> ChecklistItem {
        guard let uuid = UUID(uuidString: id) else {
            throw .corruptRow(table: Self.databaseTableName, id: id, reason: "id is not a UUID")
        }
        do {
            return try ChecklistItem(
                id: uuid, text: text, done: done, sortOrder: sortOrder,
                createdAt: Date(millisecondsSince1970: createdAtMs), updatedAt: Date(millisecondsSince1970: updatedAtMs)
            )
        } catch {
            throw .corruptRow(table: Self.databaseTableName, id: id, reason: "\(error)")
        }
    }
}

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

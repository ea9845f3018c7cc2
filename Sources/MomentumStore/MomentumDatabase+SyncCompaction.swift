import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

/// Keeping the sync log small (docs/sync.md, "Compaction").
///
/// The merge keeps each field's latest write, and a deletion beats every write to its entity
/// (``ReplicaState``). So a logged write is *dominated* — it can never decide any replica's state
/// — when the log holds a write of the same field with a higher stamp, or a deletion of its
/// entity; so is a deletion when a later deletion of the same entity is logged. Compaction
/// deletes dominated changes. The changes that dominate them stay, and a replica gets every kept
/// change after its cursor: one that saw the dropped change before has it, one that did not gets
/// what beats it. Either way it ends in the state it would have reached with the whole log,
/// whatever its cursor — so no replica needs a snapshot, and sequence numbers never move (a puller
/// mid-way goes on from its cursor).
///
/// Two kinds of change are always kept: a checklist item's `timerID` writes (every timer an item
/// ever named takes the item with it when deleted, so an old write still decides), and changes
/// tied on stamp with another (only replicas sharing a node make those; the merge then looks at
/// the device and value).
extension MomentumDatabase {
    public func syncLogSize() throws(StoreError) -> SyncLogSize {
        try read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT (SELECT COUNT(*) FROM syncLog), (SELECT MAX(seq) FROM syncLog),
                        (SELECT compactedThrough FROM syncReplica WHERE id = 1)
                    """)
            return SyncLogSize(kept: row?[0] ?? 0, head: row?[1] ?? 0, compactedThrough: row?[2] ?? 0)
        }
    }

    /// Deletes the dominated changes among — or beaten by — the changes logged since the last
    /// compaction (at most ``StoreLimits/compactionChunk`` of them); returns how many went. One write
    /// transaction; pulls read on meanwhile.
    @discardableResult
    public func compactSyncLog() throws(StoreError) -> Int {
        try write { db in try Self.compactSyncLog(db) }
    }

    /// ``compactSyncLog()`` when ``StoreLimits/compactionInterval`` changes were logged since it last ran.
    @discardableResult
    public func compactSyncLogIfDue() throws(StoreError) -> Int {
        // Asked after every group of pushes: two lookups by key (not `syncLogSize`, which counts).
        let due = try read { db in
            try Bool.fetchOne(
                try db.cachedStatement(
                    sql: """
                        SELECT (SELECT MAX(seq) FROM syncLog) - compactedThrough >= ? FROM syncReplica WHERE id = 1
                        """),
                arguments: [StoreLimits.compactionInterval]) ?? false
        }
        return due ? try compactSyncLog() : 0
    }

    static func compactSyncLog(_ db: Database) throws -> Int {
        guard let through = try Int64.fetchOne(db, sql: "SELECT compactedThrough FROM syncReplica WHERE id = 1")
        else { return 0 }
        let head = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM syncLog") ?? 0
        guard head > through else { return 0 }
        let upTo = min(head, through + StoreLimits.compactionChunk)
        try db.execute(
            sql: SyncLogCompactionRule(table: "syncLog", entityType: "entityType", entityID: "entityId")
                .deleteDominated(through: through, upTo: upTo, head: head))
        let removed = db.changesCount
        try db.execute(sql: "UPDATE syncReplica SET compactedThrough = ? WHERE id = 1", arguments: [upTo])
        return removed
    }

    /// Schema v15: what compaction needs — the log found by field and stamp, and how far it has
    /// looked.
    static func addSyncCompaction(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX syncLog_field ON syncLog (entityType, entityId, field, stamp);
                ALTER TABLE syncReplica ADD COLUMN compactedThrough INTEGER NOT NULL DEFAULT 0
                    CHECK (compactedThrough >= 0);
                """)
    }
}

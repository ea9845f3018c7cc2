import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

/// Keeping a person's sync log small on PostgreSQL: SQLite's compaction
/// (`MomentumDatabase+SyncCompaction.swift`, docs/sync.md "Compaction") with the same rule — one
/// statement, ``SyncLogCompactionRule`` — and the same intervals.
extension PostgresPersonStore {
    /// What the person's log holds: changes kept, the highest sequence number given, and how far
    /// compaction has looked.
    public func syncLogSize() async throws(StoreError) -> SyncLogSize {
        try await store.read { session throws(StoreError) in
            let rows = try await session.query(
                """
                SELECT (SELECT COUNT(*) FROM sync_log WHERE person_id = \(personID)),
                    (SELECT head FROM sync_replica WHERE person_id = \(personID)),
                    (SELECT compacted_through FROM sync_replica WHERE person_id = \(personID))
                """)
            guard let row = rows.first else {
                return SyncLogSize(kept: 0, head: 0, compactedThrough: 0)
            }
            let (kept, head, through) = try row.columns((Int64, Int64?, Int64?).self)
            return SyncLogSize(kept: Int(kept), head: head ?? 0, compactedThrough: through ?? 0)
        }
    }

    /// Deletes the dominated changes among — or beaten by — the changes logged since the last
    /// compaction (at most ``StoreLimits/compactionChunk`` of them); returns how
    /// many went.
    ///
    /// One compaction of a person at a time (a transaction-level advisory lock), but pushes go on
    /// meanwhile: it looks only at changes up to the head it read, which pushes never change, and
    /// whatever they log later is the next compaction's. The person's replica row is locked only
    /// by the last statement, which writes how far it looked, just before the commit.
    @discardableResult
    public func compactSyncLog() async throws(StoreError) -> Int {
        try await store.write { session throws(StoreError) in
            try await session.execute(
                "SELECT pg_advisory_xact_lock(\(Self.compactionLockKey), \(Int32(truncatingIfNeeded: personID)))")
            let rows = try await session.query(
                "SELECT head, compacted_through FROM sync_replica WHERE person_id = \(personID)")
            guard let row = rows.first else { return 0 }
            let (head, through) = try row.columns((Int64, Int64).self)
            guard head > through else { return 0 }
            let upTo = min(head, through + StoreLimits.compactionChunk)
            let person = personID
            let compaction = SyncLogCompactionRule(
                table: "sync_log", entityType: "entity_type", entityID: "entity_id", person: ("person_id", person))
            let removed = try await session.execute(
                PostgresQuery(unsafeSQL: compaction.deleteDominated(through: through, upTo: upTo, head: head)))
            try await session.execute(
                "UPDATE sync_replica SET compacted_through = \(upTo) WHERE person_id = \(person)")
            return removed
        }
    }

    /// The first half of compaction's advisory lock ("cmpt"); the second is the person's id.
    static let compactionLockKey: Int32 = 0x636d_7074

    /// ``compactSyncLog()`` when ``StoreLimits/compactionInterval`` changes were
    /// logged since it last ran (asked after every push: one indexed row).
    @discardableResult
    public func compactSyncLogIfDue() async throws(StoreError) -> Int {
        let due = try await store.read { session throws(StoreError) in
            let rows = try await session.query(
                """
                SELECT head - compacted_through >= \(StoreLimits.compactionInterval) FROM sync_replica
                WHERE person_id = \(personID)
                """)
            return try rows.first?.columns(Bool.self) ?? false
        }
        return await due ? try compactSyncLog() : 0
    }
}

import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

extension MomentumDatabase {
    /// Adds a record, or replaces the one with the same id (keeping when it was first created).
    public func savePracticeRecord(_ record: PracticeRecord, at now: Date) throws(StoreError) {
        try syncedWrite { db, replica in
            let existing = try PracticeRecordRow.fetchOne(db, key: record.id.uuidString.lowercased())
            try PracticeRecordRow(
                record, createdAt: existing.map { Date(millisecondsSince1970: $0.createdAtMs) } ?? now,
                updatedAt: now
            ).save(db)
            let (key, fields) = Self.syncSet(record)
            // try?: a stored row that no longer reads counts as absent: every field of the saved one is logged as
            // changed
            let changed = Self.changedFields(fields, from: (try? existing?.record())?.syncFields)
            return ((), try replica.recordLocal(sets: [(key, changed)], deletes: [], at: now))
        }
    }

    /// Adds or replaces many records in one transaction: all of them, or none.
    public func savePracticeRecords(_ records: [PracticeRecord], at now: Date) throws(StoreError) {
        try syncedWrite { db, replica in
            for record in records { try PracticeRecordRow(record, createdAt: now, updatedAt: now).save(db) }
            return ((), try replica.recordLocal(sets: records.map(Self.syncSet), deletes: [], at: now))
        }
    }

    /// Records matching `query`, oldest first.
    public func practiceRecords(matching query: PracticeLogQuery = PracticeLogQuery()) throws(StoreError)
        -> [PracticeRecord]
    {
        let rows = try read { db in
            var request = PracticeRecordRow.all()
            if let kind = query.kind { request = request.filter(Column("kind") == kind.rawValue) }
            if let since = query.since { request = request.filter(Column("startMs") >= since.millisecondsSince1970) }
            if let until = query.until { request = request.filter(Column("startMs") < until.millisecondsSince1970) }
            return try request.order(Column("startMs"), Column("id")).fetchAll(db)
        }
        var records: [PracticeRecord] = []
        records.reserveCapacity(rows.count)
        for row in rows { records.append(try row.record()) }
        return records
    }

    /// Every record with when it was written and changed, oldest first: what exports write.
    public func loggedRecords() throws(StoreError) -> [LoggedRecord] {
        let rows = try read { db in try PracticeRecordRow.order(Column("startMs"), Column("id")).fetchAll(db) }
        var records: [LoggedRecord] = []
        records.reserveCapacity(rows.count)
        for row in rows { records.append(try row.logged()) }
        return records
    }

    /// Adds imported records and (for a backup) replaces settings, in one transaction: everything
    /// or, if anything fails, nothing.
    public func importLog(_ records: [LoggedRecord], settingValues: [String: String], at now: Date)
        throws(StoreError)
    {
        try syncedWrite { db, replica in
            for record in records { try PracticeRecordRow(record).insert(db) }
            let settingSets = try Self.saveSettings(settingValues, in: db, at: now)
            return (
                (),
                try replica.recordLocal(
                    sets: records.map { Self.syncSet($0.record) } + settingSets, deletes: [], at: now)
            )
        }
    }

    /// Every record's kind, start and counted seconds, read column by column (no JSON, no ids):
    /// the input of days, streaks and statistics.
    public func practiceEntries() throws(StoreError) -> [PracticeEntry] {
        try read { db in
            var entries: [PracticeEntry] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT kind, startMs, countedSeconds FROM practiceRecord")
            while let row = try rows.next() {
                let kindName: String = row[0]
                guard let kind = PracticeKind(rawValue: kindName) else {
                    throw StoreError.corruptRow(
                        table: PracticeRecordRow.databaseTableName, id: "?", reason: "unknown kind \(kindName)")
                }
                let startMs: Int64 = row[1]
                entries.append(
                    PracticeEntry(kind: kind, start: Date(millisecondsSince1970: startMs), countedSeconds: row[2]))
            }
            return entries
        }
    }

    /// A number that changes whenever a practice record or a setting is written, by any process.
    ///
    /// Asked on every progress request, so it is answered from the database files' stamps while
    /// they stand still (``RevisionWatch``) and read from the database when they have moved.
    public func logRevision() throws(StoreError) -> Int64 {
        try revisionWatch.revision { () throws(StoreError) in
            try read { db in try Int64.fetchOne(db, sql: "SELECT value FROM storeRevision WHERE id = 1") ?? 0 }
        }
    }

    /// Deletes the record with `id`; returns whether there was one.
    @discardableResult
    public func deletePracticeRecord(id: UUID, at now: Date) throws(StoreError) -> Bool {
        try syncedWrite { db, replica in
            let id = id.uuidString.lowercased()
            guard try PracticeRecordRow.deleteOne(db, key: id) else { return (false, []) }
            return (
                true,
                try replica.recordLocal(sets: [], deletes: [SyncEntityKey(type: .practiceRecord, id: id)], at: now)
            )
        }
    }

    /// A record's synced fields.
    static func syncSet(_ record: PracticeRecord) -> (SyncEntityKey, [String: SyncValue]) {
        LocalSyncChanges.record(record)
    }
}

extension PracticeRecordRow: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { tableName }
}

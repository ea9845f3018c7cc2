import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

extension MomentumDatabase {
    /// The stored course progress as JSON text, nil before the first session.
    public func morseCourseJSON() throws(StoreError) -> String? {
        try read { db in try MorseCourseRow.fetchOne(db, key: 1)?.progress }
    }

    /// Saves a finished session in one transaction: the new progress, the session's line in the
    /// history and its practice-log record. All three, or none.
    public func saveMorseSession(
        progressJSON: String, summary: MorseSessionSummary, record: PracticeRecord?, at now: Date
    ) throws(StoreError) {
        try syncedWrite { db, replica in
            try MorseCourseRow(progress: progressJSON, updatedAtMs: now.millisecondsSince1970).save(db)
            try MorseSessionRow(summary).insert(db)
            guard let record else { return ((), []) }
            try PracticeRecordRow(record, createdAt: now, updatedAt: now).insert(db)
            return ((), try replica.recordLocal(sets: [Self.syncSet(record)], deletes: [], at: now))
        }
    }

    /// Finished sessions, newest first (at most `limit`).
    public func morseSessions(limit: Int = 100) throws(StoreError) -> [MorseSessionSummary] {
        let rows = try read { db in
            try MorseSessionRow.order(Column("startedAtMs").desc).limit(limit).fetchAll(db)
        }
        var summaries: [MorseSessionSummary] = []
        for row in rows { summaries.append(try row.summary()) }
        return summaries
    }
}

extension MorseCourseRow: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { tableName }
}

extension MorseSessionRow: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { tableName }
}

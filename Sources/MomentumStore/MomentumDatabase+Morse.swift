import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

/// The Morse course's one row: the whole progress (both directions, streak, schedule) as JSON.
struct MorseCourseRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "morseCourse"
    var id: Int = 1
    var progress: String
    var updatedAtMs: Int64
}

struct MorseSessionRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "morseSession"
    var id: String
    var direction: String
    var koch: String
    var level: Int
    var nextLevel: Int
    var startedAtMs: Int64
    var endedAtMs: Int64
    var trainingMs: Int64
    var attempts: Int
    var correct: Int

    init(_ summary: MorseSessionSummary) {
        id = summary.id.uuidString.lowercased()
        direction = summary.direction.rawValue
        koch = summary.order.rawValue
        level = summary.level
        nextLevel = summary.nextLevel
        startedAtMs = summary.startedAt.millisecondsSince1970
        endedAtMs = summary.endedAt.millisecondsSince1970
        trainingMs = summary.trainingMilliseconds
        attempts = summary.attempts
        correct = summary.correct
    }

    func summary() throws(StoreError) -> MorseSessionSummary {
        guard let uuid = UUID(uuidString: id), let direction = MorseDirection(rawValue: direction),
            let order = KochOrder(rawValue: koch)
        else { throw .corruptRow(table: Self.databaseTableName, id: id, reason: "unknown id, direction or order") }
        return MorseSessionSummary(
            id: uuid, direction: direction, order: order, level: level, nextLevel: nextLevel,
            startedAt: Date(millisecondsSince1970: startedAtMs), endedAt: Date(millisecondsSince1970: endedAtMs),
            trainingMilliseconds: trainingMs, attempts: attempts, correct: correct)
    }
}

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

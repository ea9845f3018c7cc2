import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

/// One person's Morse course on PostgreSQL, as SQLite keeps it (`MomentumDatabase+Morse.swift`):
/// the progress as JSON in one row per person, and the history of finished sessions.
extension PostgresPersonStore {
    /// The stored course progress as JSON text, nil before the first session.
    public func morseCourseJSON() async throws(StoreError) -> String? {
        try await store.read { session throws(StoreError) in
            let rows = try await session.query("SELECT progress FROM morse_course WHERE person_id = \(personID)")
            return try rows.first?.columns(String.self)
        }
    }

    /// Saves a finished session in one transaction: the new progress, the session's line in the
    /// history and its practice-log record. All three, or none.
    public func saveMorseSession(
        progressJSON: String, summary: MorseSessionSummary, record: PracticeRecord?, at now: Date
    ) async throws(StoreError) {
        let ms = now.millisecondsSince1970
        try await syncedWrite(at: now) { session, replica throws(StoreError) in
            try await session.execute(
                """
                INSERT INTO morse_course (person_id, progress, updated_at_ms) VALUES (\(personID), \(progressJSON), \(ms))
                ON CONFLICT (person_id) DO UPDATE SET progress = EXCLUDED.progress, updated_at_ms = EXCLUDED.updated_at_ms
                """)
            try await session.execute(
                """
                INSERT INTO morse_session (person_id, id, direction, koch, level, next_level, started_at_ms,
                    ended_at_ms, training_ms, attempts, correct)
                VALUES (\(personID), \(summary.id.uuidString.lowercased()), \(summary.direction.rawValue),
                    \(summary.order.rawValue), \(Int64(summary.level)), \(Int64(summary.nextLevel)),
                    \(summary.startedAt.millisecondsSince1970), \(summary.endedAt.millisecondsSince1970),
                    \(Int64(summary.trainingMilliseconds)), \(Int64(summary.attempts)), \(Int64(summary.correct)))
                """)
            guard let record else { return }
            try await session.execute(
                Self.insert(
                    [LoggedRecord(record: record, createdAt: now, updatedAt: now)], for: personID, upsert: false))
            session.movesRevision()
            try await replica.recordLocal(sets: [LocalSyncChanges.record(record)], deletes: [], at: now)
        }
    }

    /// Finished sessions, newest first (at most `limit`).
    public func morseSessions(limit: Int = 100) async throws(StoreError) -> [MorseSessionSummary] {
        let rows = try await store.read { session throws(StoreError) in
            try await session.query(
                """
                SELECT id, direction, koch, level, next_level, started_at_ms, ended_at_ms, training_ms, attempts, correct
                FROM morse_session WHERE person_id = \(personID) ORDER BY started_at_ms DESC LIMIT \(Int64(max(0, limit)))
                """)
        }
        var summaries: [MorseSessionSummary] = []
        for row in rows {
            let (id, directionName, koch, level, nextLevel, startedMs, endedMs, trainingMs, attempts, correct) =
                try row.columns((String, String, String, Int, Int, Int64, Int64, Int64, Int, Int).self)
            guard let uuid = UUID(uuidString: id), let direction = MorseDirection(rawValue: directionName),
                let order = KochOrder(rawValue: koch)
            else { throw .corruptRow(table: "morse_session", id: id, reason: "unknown id, direction or order") }
            summaries.append(
                MorseSessionSummary(
                    id: uuid, direction: direction, order: order, level: level, nextLevel: nextLevel,
                    startedAt: Date(millisecondsSince1970: startedMs), endedAt: Date(millisecondsSince1970: endedMs),
                    trainingMilliseconds: trainingMs, attempts: attempts, correct: correct))
        }
        return summaries
    }
}

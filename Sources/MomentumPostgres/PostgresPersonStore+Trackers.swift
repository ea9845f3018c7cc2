import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

/// One person's quiet daily trackers on PostgreSQL, as SQLite keeps them
/// (`MomentumDatabase+Trackers.swift`).
extension PostgresPersonStore {
    public func trackers() async throws(StoreError) -> [Tracker] {
        let rows = try await store.read { session throws(StoreError) in
            try await session.query(
                """
                SELECT id, name, ask_minute, about, created_at_ms, updated_at_ms FROM tracker
                WHERE person_id = \(personID) ORDER BY position
                """)
        }
        var trackers: [Tracker] = []
        for row in rows {
            let (id, name, askMinute, about, created, updated) =
                try row.columns((String, String, Int64, String, Int64, Int64).self)
            trackers.append(
                try TrackerRow(
                    id: id, name: name, askMinute: Int(askMinute), about: about, createdAtMs: created,
                    updatedAtMs: updated
                ).tracker())
        }
        return trackers
    }

    public func saveTracker(_ tracker: Tracker, at now: Date) async throws(StoreError) {
        let row = TrackerRow(tracker, at: now)
        try await store.write { session throws(StoreError) in
            try await session.execute(
                """
                INSERT INTO tracker (person_id, id, name, ask_minute, about, created_at_ms, updated_at_ms)
                VALUES (\(personID), \(row.id), \(row.name), \(Int64(row.askMinute)), \(row.about), \(row.createdAtMs),
                    \(row.updatedAtMs))
                ON CONFLICT (person_id, id) DO UPDATE SET name = EXCLUDED.name, ask_minute = EXCLUDED.ask_minute,
                    about = EXCLUDED.about, updated_at_ms = EXCLUDED.updated_at_ms
                """)
        }
    }

    @discardableResult
    public func deleteTracker(id: UUID) async throws(StoreError) -> Bool {
        try await store.write { session throws(StoreError) in
            try await session.execute(
                "DELETE FROM tracker WHERE person_id = \(personID) AND id = \(id.uuidString.lowercased())") > 0
        }
    }

    public func trackerAnswers() async throws(StoreError) -> [UUID: [TrackerAnswer]] {
        let rows = try await store.read { session throws(StoreError) in
            try await session.query(
                """
                SELECT id, tracker_id, day, answer, answered_at_ms FROM tracker_day
                WHERE person_id = \(personID) ORDER BY day
                """)
        }
        var answers: [UUID: [TrackerAnswer]] = [:]
        for row in rows {
            let (id, trackerID, day, answer, answeredAt) = try row.columns((String, String, String, Bool, Int64).self)
            let (tracker, answered) = try TrackerDayRow(
                id: id, trackerId: trackerID, day: day, answer: answer, answeredAtMs: answeredAt
            ).answered()
            answers[tracker, default: []].append(answered)
        }
        return answers
    }

    @discardableResult
    public func saveTrackerAnswer(_ answer: TrackerAnswer, trackerID: UUID, id: UUID) async throws(StoreError) -> Bool {
        let row = TrackerDayRow(id: id, trackerID: trackerID, answer: answer)
        return try await store.write { session throws(StoreError) in
            // Nothing is written when the person has no such tracker.
            try await session.execute(
                """
                INSERT INTO tracker_day (person_id, id, tracker_id, day, answer, answered_at_ms)
                SELECT \(personID), \(row.id), \(row.trackerId), \(row.day), \(row.answer), \(row.answeredAtMs)
                WHERE EXISTS (SELECT 1 FROM tracker WHERE person_id = \(personID) AND id = \(row.trackerId))
                ON CONFLICT (person_id, tracker_id, day) DO UPDATE SET answer = EXCLUDED.answer,
                    answered_at_ms = EXCLUDED.answered_at_ms
                """) > 0
        }
    }

    @discardableResult
    public func deleteTrackerAnswer(trackerID: UUID, day: Day) async throws(StoreError) -> Bool {
        try await store.write { session throws(StoreError) in
            try await session.execute(
                """
                DELETE FROM tracker_day WHERE person_id = \(personID) AND tracker_id = \(trackerID.uuidString.lowercased())
                    AND day = \(day.description)
                """) > 0
        }
    }
}

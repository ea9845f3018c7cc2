import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

/// The person's quiet daily trackers and their answered days (docs/notifications.md).
extension MomentumDatabase {
    public func trackers() throws(StoreError) -> [Tracker] {
        let rows = try read { db in try TrackerRow.order(Column.rowID).fetchAll(db) }
        var trackers: [Tracker] = []
        for row in rows { trackers.append(try row.tracker()) }
        return trackers
    }

    public func saveTracker(_ tracker: Tracker, at now: Date) throws(StoreError) {
        let row = TrackerRow(tracker, at: now)
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO tracker (id, name, askMinute, about, createdAtMs, updatedAtMs) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name, askMinute = excluded.askMinute,
                        about = excluded.about, updatedAtMs = excluded.updatedAtMs
                    """,
                arguments: [row.id, row.name, row.askMinute, row.about, row.createdAtMs, row.updatedAtMs])
        }
    }

    @discardableResult
    public func deleteTracker(id: UUID) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM tracker WHERE id = ?", arguments: [id.uuidString.lowercased()])
            return db.changesCount > 0
        }
    }

    public func trackerAnswers() throws(StoreError) -> [UUID: [TrackerAnswer]] {
        let rows = try read { db in try TrackerDayRow.order(Column("day")).fetchAll(db) }
        var answers: [UUID: [TrackerAnswer]] = [:]
        for row in rows {
            let (trackerID, answer) = try row.answered()
            answers[trackerID, default: []].append(answer)
        }
        return answers
    }

    @discardableResult
    public func saveTrackerAnswer(_ answer: TrackerAnswer, trackerID: UUID, id: UUID) throws(StoreError) -> Bool {
        let row = TrackerDayRow(id: id, trackerID: trackerID, answer: answer)
        return try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM tracker WHERE id = ?", arguments: [row.trackerId]) != nil
            else { return false }
            try db.execute(
                sql: """
                    INSERT INTO trackerDay (id, trackerId, day, answer, answeredAtMs) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (trackerId, day) DO UPDATE SET answer = excluded.answer,
                        answeredAtMs = excluded.answeredAtMs
                    """,
                arguments: [row.id, row.trackerId, row.day, row.answer, row.answeredAtMs])
            return true
        }
    }

    @discardableResult
    public func deleteTrackerAnswer(trackerID: UUID, day: Day) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(
                sql: "DELETE FROM trackerDay WHERE trackerId = ? AND day = ?",
                arguments: [trackerID.uuidString.lowercased(), day.description])
            return db.changesCount > 0
        }
    }
}

extension TrackerRow: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { tableName }
}

extension TrackerDayRow: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { tableName }
}

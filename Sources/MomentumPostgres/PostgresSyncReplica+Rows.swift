import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

/// The person's rows, as the sync engine (``SyncReplicaEngine``) brings them up to date.
extension PostgresSyncReplica {
    func storedRows(_ reads: SyncReplicaEngine.RowReads) async throws(StoreError) -> SyncReplicaEngine.StoredRows {
        var rows = SyncReplicaEngine.StoredRows()
        if !reads.timers.isEmpty {
            // A timer with no item is one row whose item id is NULL.
            for row in try await session.query(
                """
                SELECT t.id, i.id FROM focus_timer t
                    LEFT JOIN checklist_item i ON i.person_id = t.person_id AND i.timer_id = t.id
                WHERE t.person_id = \(personID) AND t.id = ANY(\(Array(reads.timers))::text[])
                """)
            {
                let (timer, item) = try row.columns((String, String?).self)
                rows.timersWithRows.insert(timer)
                if let item { rows.itemsOfTimers[timer, default: []].insert(item) }
            }
        }
        for id in reads.records {
            rows.records[id] = try await PostgresPersonStore.loggedRecord(id: id, in: session, for: personID)?.record
        }
        if reads.settings {
            rows.settingValues = try await PostgresPersonStore.settingValues(in: session, for: personID)
        }
        if reads.meditationPresetNames {
            for row in try await session.query("SELECT id, name FROM meditation_preset WHERE person_id = \(personID)") {
                let (id, name) = try row.columns((String, String).self)
                rows.meditationPresetNames[id] = name
            }
        }
        return rows
    }

    // The rows' writes are sent with the next statement awaited (``PostgresSession/sendWithNext(_:)``):
    // nothing reads their answers, and a merge of many entities costs no wait for each.

    func saveItem(_ item: ChecklistItem, timerID: UUID) {
        let (id, timer) = (item.id.uuidString.lowercased(), timerID.uuidString.lowercased())
        session.sendWithNext(
            """
            INSERT INTO checklist_item (person_id, id, timer_id, text, done, sort_order, created_at_ms, updated_at_ms)
            VALUES (\(personID), \(id), \(timer), \(item.text), \(item.done), \(Int64(item.sortOrder)),
                \(item.createdAt.millisecondsSince1970), \(item.updatedAt.millisecondsSince1970))
            ON CONFLICT (person_id, id) DO UPDATE SET timer_id = EXCLUDED.timer_id, text = EXCLUDED.text,
                done = EXCLUDED.done, sort_order = EXCLUDED.sort_order, created_at_ms = EXCLUDED.created_at_ms,
                updated_at_ms = EXCLUDED.updated_at_ms
            """)
    }

    func saveRecord(_ record: PracticeRecord, at now: Date) throws(StoreError) {
        // An upsert keeps the stored row's `created_at_ms`.
        session.sendWithNext(
            PostgresPersonStore.insert(
                [LoggedRecord(record: record, createdAt: now, updatedAt: now)], for: personID, upsert: true))
        session.movesRevision()
    }

    func removeRow(_ key: SyncEntityKey) {
        let (person, id) = (personID, key.id)
        switch key.type {
        case .focusTimer:
            session.sendWithNext("DELETE FROM focus_timer WHERE person_id = \(person) AND id = \(id)")
        case .checklistItem:
            session.sendWithNext("DELETE FROM checklist_item WHERE person_id = \(person) AND id = \(id)")
        case .practiceRecord:
            session.sendWithNext("DELETE FROM practice_record WHERE person_id = \(person) AND id = \(id)")
            session.movesRevision()
        case .setting: break
        case .meditationPreset:
            session.sendWithNext("DELETE FROM meditation_preset WHERE person_id = \(person) AND id = \(id)")
        }
    }
}

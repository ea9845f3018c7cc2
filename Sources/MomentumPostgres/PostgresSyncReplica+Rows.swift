import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

/// The person's rows, as the sync engine (``SyncReplicaEngine``) brings them up to date.
extension PostgresSyncReplica {
    func saveTimer(_ timer: FocusTimer) throws(StoreError) {
        try session.execute(PostgresPersonStore.upsert(timer, for: personID))
    }

    func itemRoom(timerID: String, except itemID: String) throws(StoreError) -> (timerExists: Bool, items: Int) {
        let rows = try session.query(
            """
            SELECT EXISTS (SELECT 1 FROM focus_timer WHERE person_id = \(personID) AND id = \(timerID)),
                (SELECT COUNT(*) FROM checklist_item WHERE person_id = \(personID) AND timer_id = \(timerID)
                    AND id <> \(itemID))
            """)
        guard let row = rows.first else { return (false, 0) }
        let (timerExists, count) = try row.columns((Bool, Int64).self)
        return (timerExists, Int(count))
    }

    func saveItem(_ item: ChecklistItem, timerID: UUID) throws(StoreError) {
        let (id, timer) = (item.id.uuidString.lowercased(), timerID.uuidString.lowercased())
        try session.execute(
            """
            INSERT INTO checklist_item (person_id, id, timer_id, text, done, sort_order, created_at_ms, updated_at_ms)
            VALUES (\(personID), \(id), \(timer), \(item.text), \(item.done), \(Int64(item.sortOrder)),
                \(item.createdAt.millisecondsSince1970), \(item.updatedAt.millisecondsSince1970))
            ON CONFLICT (person_id, id) DO UPDATE SET timer_id = EXCLUDED.timer_id, text = EXCLUDED.text,
                done = EXCLUDED.done, sort_order = EXCLUDED.sort_order, created_at_ms = EXCLUDED.created_at_ms,
                updated_at_ms = EXCLUDED.updated_at_ms
            """)
    }

    func storedRecord(id: String) throws(StoreError) -> PracticeRecord? {
        try PostgresPersonStore.loggedRecord(id: id, in: session, for: personID)?.record
    }

    func saveRecord(_ record: PracticeRecord, at now: Date) throws(StoreError) {
        // An upsert keeps the stored row's `created_at_ms`.
        try session.execute(
            PostgresPersonStore.insert(
                [LoggedRecord(record: record, createdAt: now, updatedAt: now)], for: personID, upsert: true))
        session.movesRevision()
    }

    func storedSettingValues() throws(StoreError) -> [String: String] {
        try PostgresPersonStore.settingValues(in: session, for: personID)
    }

    func saveSettingValues(_ values: [String: String], at now: Date) throws(StoreError) {
        try PostgresPersonStore.saveSettings(values, in: session, for: personID, at: now)
    }

    func meditationPresetNames(except id: String) throws(StoreError) -> [String] {
        var names: [String] = []
        for row in try session.query(
            "SELECT name FROM meditation_preset WHERE person_id = \(personID) AND id <> \(id)")
        {
            names.append(try row.columns(String.self))
        }
        return names
    }

    func saveMeditationPreset(_ preset: MeditationPreset) throws(StoreError) {
        try session.execute(PostgresPersonStore.upsert(preset, for: personID, replacingCreatedAt: true))
    }

    func removeRow(_ key: SyncEntityKey) throws(StoreError) {
        let (person, id) = (personID, key.id)
        switch key.type {
        case .focusTimer: try session.execute("DELETE FROM focus_timer WHERE person_id = \(person) AND id = \(id)")
        case .checklistItem:
            try session.execute("DELETE FROM checklist_item WHERE person_id = \(person) AND id = \(id)")
        case .practiceRecord:
            try session.execute("DELETE FROM practice_record WHERE person_id = \(person) AND id = \(id)")
            session.movesRevision()
        case .setting: break
        case .meditationPreset:
            try session.execute("DELETE FROM meditation_preset WHERE person_id = \(person) AND id = \(id)")
        }
    }
}

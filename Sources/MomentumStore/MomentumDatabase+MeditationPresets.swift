import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

extension MomentumDatabase {
    /// The person's saved sits in their order (``MeditationPreset/ordered(_:)``).
    public func meditationPresets() throws(StoreError) -> [MeditationPreset] {
        let rows = try read { db in
            try MeditationPresetRow.order(Column("sortOrder"), Column("createdAtMs"), Column("id")).fetchAll(db)
        }
        var presets: [MeditationPreset] = []
        for row in rows { presets.append(try row.preset()) }
        return presets
    }

    /// Adds a saved sit, or replaces the one with the same id (keeping when it was first created),
    /// and logs its changed fields for the other devices. A name another saved sit already has
    /// (ignoring case) is refused by the database.
    public func saveMeditationPreset(_ preset: MeditationPreset) throws(StoreError) {
        var row = try MeditationPresetRow(preset)
        try syncedWrite { db, replica in
            let existing = try MeditationPresetRow.fetchOne(db, key: preset.id)
            if let existing { row.createdAtMs = existing.createdAtMs }
            try row.save(db)
            guard let key = Self.syncKey(ofMeditationPreset: preset.id) else { return ((), []) }
            let saved = try row.preset()
            // try?: a stored row that no longer reads counts as absent: every field of the saved one is logged as
            // changed
            let changed = Self.changedFields(saved.syncFields, from: (try? existing?.preset())?.syncFields)
            return ((), try replica.recordLocal(sets: [(key, changed)], deletes: [], at: preset.updatedAt))
        }
    }

    /// Deletes the saved sit with `id` (on every device); returns whether there was one.
    @discardableResult
    public func deleteMeditationPreset(id: String, at now: Date) throws(StoreError) -> Bool {
        try syncedWrite { db, replica in
            guard try MeditationPresetRow.deleteOne(db, key: id) else { return (false, []) }
            guard let key = Self.syncKey(ofMeditationPreset: id) else { return (true, []) }
            return (true, try replica.recordLocal(sets: [], deletes: [key], at: now))
        }
    }

    /// The sync key of a saved sit; `nil` for an id that is not a lower-case UUID (one a backup
    /// brought from elsewhere), which stays on this device.
    static func syncKey(ofMeditationPreset id: String) -> SyncEntityKey? {
        LocalSyncChanges.meditationPresetKey(id)
    }
}

extension MeditationPresetRow: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { tableName }
}

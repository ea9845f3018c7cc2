import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

extension MomentumDatabase {
    /// The person's own breathing presets, oldest first.
    public func breathingPresets() throws(StoreError) -> [BreathingPreset] {
        let rows = try read { db in
            try BreathingPresetRow.order(Column("createdAtMs"), Column.rowID).fetchAll(db)
        }
        var presets: [BreathingPreset] = []
        for row in rows { presets.append(try row.preset()) }
        return presets
    }

    /// Adds a preset, or replaces the one with the same id (keeping when it was first created).
    /// A name another preset already has (ignoring case) is refused by the database.
    public func saveBreathingPreset(_ preset: BreathingPreset, at now: Date) throws(StoreError) {
        try write { db in
            let existing = try BreathingPresetRow.fetchOne(db, key: preset.id)
            try BreathingPresetRow(
                preset, createdAt: existing.map { Date(millisecondsSince1970: $0.createdAtMs) } ?? now,
                updatedAt: now
            ).save(db)
        }
    }

    /// Deletes the preset with `id`; returns whether there was one.
    @discardableResult
    public func deleteBreathingPreset(id: String) throws(StoreError) -> Bool {
        try write { db in try BreathingPresetRow.deleteOne(db, key: id) }
    }
}

extension BreathingPresetRow: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { tableName }
}

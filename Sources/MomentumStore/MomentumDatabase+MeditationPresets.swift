import Foundation
import GRDB
import MomentumCore

/// One saved sit as stored: its plan in the plan's own JSON form (durations in milliseconds).
struct MeditationPresetRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "meditationPreset"
    var id: String
    var name: String
    var plan: String
    var createdAtMs: Int64
    var updatedAtMs: Int64

    init(_ preset: MeditationPreset) throws(StoreError) {
        id = preset.id
        name = preset.name
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            plan = String(decoding: try encoder.encode(preset.plan), as: UTF8.self)
        } catch {
            throw .corruptRow(table: Self.databaseTableName, id: preset.id, reason: "\(error)")
        }
        createdAtMs = preset.createdAt.millisecondsSince1970
        updatedAtMs = preset.updatedAt.millisecondsSince1970
    }

    func preset() throws(StoreError) -> MeditationPreset {
        do {
            let plan = try JSONDecoder().decode(MeditationPlan.self, from: Data(self.plan.utf8))
            return try MeditationPreset(
                id: id, name: name, plan: plan, createdAt: Date(millisecondsSince1970: createdAtMs),
                updatedAt: Date(millisecondsSince1970: updatedAtMs))
        } catch {
            throw .corruptRow(table: Self.databaseTableName, id: id, reason: "\(error)")
        }
    }
}

extension MomentumDatabase {
    /// The person's saved sits, oldest first.
    public func meditationPresets() throws(StoreError) -> [MeditationPreset] {
        let rows = try read { db in
            try MeditationPresetRow.order(Column("createdAtMs"), Column.rowID).fetchAll(db)
        }
        var presets: [MeditationPreset] = []
        for row in rows { presets.append(try row.preset()) }
        return presets
    }

    /// Adds a saved sit, or replaces the one with the same id (keeping when it was first created).
    /// A name another saved sit already has (ignoring case) is refused by the database.
    public func saveMeditationPreset(_ preset: MeditationPreset) throws(StoreError) {
        var row = try MeditationPresetRow(preset)
        try write { db in
            if let existing = try MeditationPresetRow.fetchOne(db, key: preset.id) {
                row.createdAtMs = existing.createdAtMs
            }
            try row.save(db)
        }
    }

    /// Deletes the saved sit with `id`; returns whether there was one.
    @discardableResult
    public func deleteMeditationPreset(id: String) throws(StoreError) -> Bool {
        try write { db in try MeditationPresetRow.deleteOne(db, key: id) }
    }
}

import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

/// One of the person's own breathing presets as stored: phases in milliseconds.
struct BreathingPresetRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "breathingPreset"
    var id: String
    var name: String
    var inhaleMs: Int64
    var holdAfterInhaleMs: Int64
    var exhaleMs: Int64
    var holdAfterExhaleMs: Int64
    var rounds: Int
    var createdAtMs: Int64
    var updatedAtMs: Int64

    init(_ preset: BreathingPreset, createdAt: Date, updatedAt: Date) {
        id = preset.id
        name = preset.name
        inhaleMs = preset.pattern.inhale.wholeMilliseconds
        holdAfterInhaleMs = preset.pattern.holdAfterInhale.wholeMilliseconds
        exhaleMs = preset.pattern.exhale.wholeMilliseconds
        holdAfterExhaleMs = preset.pattern.holdAfterExhale.wholeMilliseconds
        rounds = preset.rounds
        createdAtMs = createdAt.millisecondsSince1970
        updatedAtMs = updatedAt.millisecondsSince1970
    }

    func preset() throws(StoreError) -> BreathingPreset {
        do {
            let pattern = try BreathingPattern(
                inhale: Double(inhaleMs) / 1000, holdAfterInhale: Double(holdAfterInhaleMs) / 1000,
                exhale: Double(exhaleMs) / 1000, holdAfterExhale: Double(holdAfterExhaleMs) / 1000)
            return try BreathingPreset(id: id, name: name, pattern: pattern, rounds: rounds)
        } catch {
            throw .corruptRow(table: Self.databaseTableName, id: id, reason: "\(error)")
        }
    }
}

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

import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

extension MomentumDatabase {
    /// Every stored setting, key → JSON text.
    public func settingValues() throws(StoreError) -> [String: String] {
        try read { db in
            Dictionary(uniqueKeysWithValues: try SettingRow.fetchAll(db).map { ($0.key, $0.value) })
        }
    }

    /// Stores the given settings in one transaction; keys not given are left as they are.
    public func saveSettingValues(_ values: [String: String], at now: Date) throws(StoreError) {
        try syncedWrite { db, replica in
            let sets = try Self.saveSettings(values, in: db, at: now)
            return ((), try replica.recordLocal(sets: sets, deletes: [], at: now))
        }
    }

    /// Stores settings and returns the synced settings (``SettingKey``s) whose text they changed.
    static func saveSettings(_ values: [String: String], in db: Database, at now: Date) throws
        -> [(SyncEntityKey, [String: SyncValue])]
    {
        let stored = Dictionary(uniqueKeysWithValues: try SettingRow.fetchAll(db).map { ($0.key, $0.value) })
        for (key, value) in values {
            try SettingRow(key: key, value: value, updatedAtMs: now.millisecondsSince1970).save(db)
        }
        return settingSyncSets(from: stored, to: stored.merging(values) { $1 })
    }

    /// The synced settings (``SettingKey``s) whose text differs between two stored states.
    static func settingSyncSets(from stored: [String: String], to changed: [String: String])
        -> [(SyncEntityKey, [String: SyncValue])]
    {
        LocalSyncChanges.settings(from: stored, to: changed)
    }
}

extension SettingRow: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { tableName }
}

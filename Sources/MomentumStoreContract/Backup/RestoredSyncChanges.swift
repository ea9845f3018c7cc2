import Foundation
import MomentumCore

/// What a restore hands to the sync log for the other devices (docs/backup.md), as both stores
/// write rows: each added practice record and saved sit as it is added, then the settings whose
/// synced text changed and the added focus timers and checklist items, read back whole so their
/// fields are the ones a device merges. A new row is one change (a put).
public struct RestoredSyncChanges {
    /// The changes not yet handed to the log.
    public private(set) var sets: [(SyncEntityKey, [String: SyncValue])] = []
    private var addedSettings: [String: String] = [:]
    private var addedTimers: Set<String> = []
    private var addedItems: Set<String> = []

    public init() {}

    /// Notes a row the restore added (its values as the walk handed them, renamed where needed).
    /// Whether it moves the person's store revision: a practice record or a setting.
    @discardableResult
    public mutating func note(_ kind: BackupKind, _ values: BackupRow) throws -> Bool {
        switch kind {
        case .settings:
            let setting = try BackupRowDecoder.decode(SettingRow.self, from: values)
            addedSettings[setting.key] = setting.value
            return true
        case .practiceLog:
            sets.append(
                LocalSyncChanges.record(try BackupRowDecoder.decode(PracticeRecordRow.self, from: values).record()))
            return true
        case .meditationPresets:
            let preset = try BackupRowDecoder.decode(MeditationPresetRow.self, from: values).preset()
            if let key = LocalSyncChanges.meditationPresetKey(preset.id) { sets.append((key, preset.syncFields)) }
        case .focusTimers: addedTimers.insert(values["id"]?.textValue ?? "")
        case .checklistItems: addedItems.insert(values["id"]?.textValue ?? "")
        default: break
        }
        return false
    }

    /// Whether the changes to hand on are many enough for one batch.
    public var isBatchFull: Bool { sets.count >= StoreLimits.restoreBatch }

    /// The changes noted so far, handed over (and forgotten here).
    public mutating func take() -> [(SyncEntityKey, [String: SyncValue])] {
        defer { sets.removeAll(keepingCapacity: true) }
        return sets
    }

    /// Whether the timers must be read back for ``finish(storedSettings:timers:)``.
    public var needsTimers: Bool { !addedTimers.isEmpty || !addedItems.isEmpty }

    /// Adds the last changes: the settings that differ from `storedSettings` (those before the
    /// restore), and the added timers and items among `timers` (read back after every row).
    public mutating func finish(storedSettings: [String: String], timers: [FocusTimer]) {
        sets += LocalSyncChanges.settings(from: storedSettings, to: storedSettings.merging(addedSettings) { $1 })
        for timer in timers {
            let id = timer.id.uuidString.lowercased()
            if addedTimers.contains(id) { sets.append((SyncEntityKey(type: .focusTimer, id: id), timer.syncFields)) }
            for item in timer.items where addedItems.contains(item.id.uuidString.lowercased()) {
                sets.append(
                    (
                        SyncEntityKey(type: .checklistItem, id: item.id.uuidString.lowercased()),
                        item.syncFields(timerID: timer.id)
                    ))
            }
        }
    }
}

import Foundation

/// What every store does with a replica's state around a write, whatever tables keep it
/// (SQLite's `SyncReplicaStore`, PostgreSQL's `PostgresSyncReplica`).
extension ReplicaState {
    /// Turns the new values of entities written here into stamped changes and merges them: each
    /// field that differs from this state's becomes a change stamped by `clock` with `device`,
    /// each entity in `deletes` not yet deleted a deletion. Writes to an entity this state has
    /// deleted are dropped: `dropped` are the entities whose rows must go.
    public mutating func recordLocal(
        sets: [(SyncEntityKey, [String: SyncValue])], deletes: [SyncEntityKey], clock: inout HybridLogicalClock,
        device: String, at now: Date
    ) throws -> (changes: [Change], dropped: Set<SyncEntityKey>) {
        var changes: [Change] = []
        var dropped: Set<SyncEntityKey> = []
        for (key, fields) in sets {
            if isDeleted(key) {
                dropped.insert(key)
                continue
            }
            let existing = values(of: key)
            if existing == nil, Change.isWholeRow(fields, of: key.type) {
                // A new row is one change: one log entry, not one per field.
                let change = try Change(
                    entityType: key.type, entityID: key.id, operation: .put(fields: fields),
                    stamp: try clock.send(at: now), device: device)
                apply(change)
                changes.append(change)
                continue
            }
            let current = existing ?? [:]
            for field in fields.keys.sorted() where current[field] != fields[field] {
                let change = try Change(
                    entityType: key.type, entityID: key.id,
                    operation: .set(field: field, value: fields[field] ?? .null), stamp: try clock.send(at: now),
                    device: device)
                apply(change)
                changes.append(change)
            }
        }
        for key in deletes where deletions[key] == nil {
            let change = try Change(
                entityType: key.type, entityID: key.id, operation: .delete, stamp: try clock.send(at: now),
                device: device)
            apply(change)
            changes.append(change)
        }
        return (changes, dropped)
    }

    /// The entities whose app rows must be brought up to date after the state went from `before`
    /// to this one, by type: those whose merged fields changed or that were newly deleted, and
    /// every item that named a changed timer (an item's row needs its timer's).
    public func entitiesToMaterialize(since before: ReplicaState) -> [SyncEntityType: Set<String>] {
        var changed: [SyncEntityType: Set<String>] = [:]
        for type in SyncEntityType.allCases {
            let old = before.entities[type] ?? [:]
            let new = entities[type] ?? [:]
            for id in Set(old.keys).union(new.keys) where old[id] != new[id] { changed[type, default: []].insert(id) }
        }
        for key in deletions.keys where before.deletions[key] == nil {
            changed[key.type, default: []].insert(key.id)
        }
        let changedTimers = changed[.focusTimer] ?? []
        for (itemID, timers) in timersOfItems where !timers.isDisjoint(with: changedTimers) {
            changed[.checklistItem, default: []].insert(itemID)
        }
        return changed
    }

    /// When an entity was first written here: its oldest field stamp (what a missing `createdAt`
    /// falls back to).
    public func firstWritten(_ key: SyncEntityKey) -> Date {
        let stamps = entities[key.type]?[key.id]?.values.map(\.stamp.physical) ?? []
        return Date(syncMilliseconds: stamps.min() ?? 0)
    }
}

/// The local changes a store logs for a write, computed from what was stored before and what is
/// written (docs/sync.md): only the fields a write changed, so a field another device changed
/// meanwhile is not overwritten by a stale default.
public enum LocalSyncChanges {
    /// The fields of `new` that differ from `old` (all of them for a new entity).
    public static func changedFields(_ new: [String: SyncValue], from old: [String: SyncValue]?) -> [String: SyncValue]
    {
        guard let old else { return new }
        return new.filter { old[$0.key] != $0.value }
    }

    /// The synced settings (``SettingKey``s) whose text differs between two stored states.
    public static func settings(from stored: [String: String], to changed: [String: String])
        -> [(SyncEntityKey, [String: SyncValue])]
    {
        let old = MomentumSettings(storedValues: stored).syncTexts
        let new = MomentumSettings(storedValues: changed).syncTexts
        return SettingKey.allCases.compactMap { key in
            guard let text = new[key], old[key] != text else { return nil }
            return (SyncEntityKey(type: .setting, id: key.rawValue), [SyncEntityType.settingValueField: .string(text)])
        }
    }

    /// A record's synced fields.
    public static func record(_ record: PracticeRecord) -> (SyncEntityKey, [String: SyncValue]) {
        (SyncEntityKey(type: .practiceRecord, id: record.id.uuidString.lowercased()), record.syncFields)
    }

    /// The sync key of a saved sit; `nil` for an id that is not a lower-case UUID (one a backup
    /// brought from elsewhere), which stays on its device.
    public static func meditationPresetKey(_ id: String) -> SyncEntityKey? {
        SyncEntityType.meditationPreset.canonicalID(id) == id ? SyncEntityKey(type: .meditationPreset, id: id) : nil
    }

    /// A change of focus timers: for each saved timer its changed fields (all for a new one),
    /// each item's changed fields (all for a new item) and a deletion of each item it no longer
    /// has; a deletion of each deleted timer (its items go with it); every field of each record.
    public static func focusTimers(
        before timers: [FocusTimer], saved: [FocusTimer], deleted: [UUID], records: [PracticeRecord]
    ) -> (sets: [(SyncEntityKey, [String: SyncValue])], deletes: [SyncEntityKey]) {
        var sets: [(SyncEntityKey, [String: SyncValue])] = []
        var deletes = deleted.map { SyncEntityKey(type: .focusTimer, id: $0.uuidString.lowercased()) }
        let before = Dictionary(timers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for timer in saved {
            let old = before[timer.id]
            sets.append(
                (
                    SyncEntityKey(type: .focusTimer, id: timer.id.uuidString.lowercased()),
                    changedFields(timer.syncFields, from: old?.syncFields)
                ))
            let oldItems = Dictionary(
                (old?.items ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for item in timer.items {
                sets.append(
                    (
                        SyncEntityKey(type: .checklistItem, id: item.id.uuidString.lowercased()),
                        changedFields(
                            item.syncFields(timerID: timer.id), from: oldItems[item.id]?.syncFields(timerID: timer.id))
                    ))
            }
            let kept = Set(timer.items.map(\.id))
            for item in old?.items ?? [] where !kept.contains(item.id) {
                deletes.append(SyncEntityKey(type: .checklistItem, id: item.id.uuidString.lowercased()))
            }
        }
        for record in records { sets.append(Self.record(record)) }
        return (sets, deletes)
    }

    /// What a replica created on data already there logs: every timer with its items, every
    /// record, every saved sit with a lower-case UUID, and the settings not at their defaults (a
    /// new device must not overwrite another's choices with its defaults).
    public static func seed(
        timers: [FocusTimer], records: [PracticeRecord], meditationPresets: [MeditationPreset],
        storedSettings: [String: String]
    ) -> [(SyncEntityKey, [String: SyncValue])] {
        var sets: [(SyncEntityKey, [String: SyncValue])] = []
        for timer in timers {
            sets.append((SyncEntityKey(type: .focusTimer, id: timer.id.uuidString.lowercased()), timer.syncFields))
            for item in timer.items {
                sets.append(
                    (
                        SyncEntityKey(type: .checklistItem, id: item.id.uuidString.lowercased()),
                        item.syncFields(timerID: timer.id)
                    ))
            }
        }
        for record in records { sets.append(Self.record(record)) }
        for preset in meditationPresets {
            guard let key = meditationPresetKey(preset.id) else { continue }
            sets.append((key, preset.syncFields))
        }
        let settings = MomentumSettings(storedValues: storedSettings)
        let defaults = MomentumSettings().syncTexts
        for (key, text) in settings.syncTexts where defaults[key] != text {
            sets.append(
                (SyncEntityKey(type: .setting, id: key.rawValue), [SyncEntityType.settingValueField: .string(text)]))
        }
        return sets
    }

    /// A saved sit's name when another one here has it (ignoring case, as the stores' unique
    /// index does): the first free "Name (2)", "Name (3)" …; `nil` when the name is free. The name
    /// returned (or the given one) is added to `taken`.
    public static func freeName(_ name: String, taken: inout Set<String>) -> String? {
        guard taken.contains(name.lowercased()) else {
            taken.insert(name.lowercased())
            return nil
        }
        var number = 2
        while true {
            let suffix = " (\(number))"
            let candidate = String(name.prefix(TextInput.maximumNameLength - suffix.count)) + suffix
            if taken.insert(candidate.lowercased()).inserted { return candidate }
            number += 1
        }
    }
}

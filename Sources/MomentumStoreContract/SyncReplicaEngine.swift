import Foundation
import MomentumCore

/// What a store does for the sync engine (``SyncReplicaEngine``), on its own tables and inside the
/// transaction the engine runs in: load and keep the merged state of some entities, keep the log,
/// and write the person's rows. The engine decides; a store only executes (docs/sync.md).
public protocol SyncReplicaPrimitives {
    associatedtype Failure: Error

    /// An error of the engine's own (a clock that cannot take a stamp, a change sync refuses), as
    /// the store throws it.
    func failure(_ error: any Error) -> Failure

    /// The merged state of `keys`, of the timers each loaded item named and of every item that
    /// named a loaded timer: everything ``ReplicaState/apply(_:)`` reads for those entities.
    func load(_ keys: Set<SyncEntityKey>) throws(Failure) -> ReplicaState
    /// Keeps what differs between two states of the loaded entities (``SyncReplicaEngine/changes(from:to:)``).
    func persist(_ changes: SyncReplicaEngine.StateChanges) throws(Failure)

    /// Logs `change` (`origin` is `local` or `remote`) under the next sequence number.
    func appendToLog(_ change: Change, origin: String) throws(Failure) -> LoggedChange
    /// The sequence number `change` was logged under before (for a duplicate), if it still is.
    func seqOfLogged(_ change: Change) throws(Failure) -> Int64?
    /// Drops the logged writes of `change`'s fields with a lower stamp, as compaction would
    /// (``MomentumCore/Change/fieldsWhoseOlderWritesItBeats``).
    func dropWritesBeaten(by change: Change) throws(Failure)

    /// Deletes the person's row of `key` (a setting has none to delete).
    func removeRow(_ key: SyncEntityKey) throws(Failure)
    /// Writes a timer's row (its items are rows of their own).
    func saveTimer(_ timer: FocusTimer) throws(Failure)
    /// Whether timer `timerID` has a row, and how many items other than `itemID` it has.
    func itemRoom(timerID: String, except itemID: String) throws(Failure) -> (timerExists: Bool, items: Int)
    func saveItem(_ item: ChecklistItem, timerID: UUID) throws(Failure)
    /// The stored record `id` (`nil` when there is none, or when its row no longer reads).
    func storedRecord(id: String) throws(Failure) -> PracticeRecord?
    /// Writes `record`, keeping a stored row's time of creation (`now` for a new one).
    func saveRecord(_ record: PracticeRecord, at now: Date) throws(Failure)
    func storedSettingValues() throws(Failure) -> [String: String]
    func saveSettingValues(_ values: [String: String], at now: Date) throws(Failure)
    /// The names of the saved sits other than `id`.
    func meditationPresetNames(except id: String) throws(Failure) -> [String]
    func saveMeditationPreset(_ preset: MeditationPreset) throws(Failure)
}

/// The sync engine both stores run (docs/sync.md): merges local writes and changes from elsewhere
/// through ``ReplicaState``, logs them, drops the writes they beat and brings the person's rows up
/// to date — deciding everything, while a store's ``SyncReplicaPrimitives`` only read and write.
public enum SyncReplicaEngine {
    /// What merging changes from elsewhere did.
    public struct RemoteResult: Sendable {
        public var outcomes: [ChangeOutcome] = []
        /// Per change: its sequence number in this log (for a duplicate, the earlier entry's).
        public var seqs: [Int64?] = []
        public var logged: [LoggedChange] = []
        /// Stamps the clock found too far ahead (applied anyway; the clock kept).
        public var farAhead: [HybridTimestamp] = []
    }

    /// The data written before the person synced becomes local changes, so a first sync sends it.
    /// Settings still at their defaults are left out: a new device must not overwrite another's
    /// choices with its defaults.
    @discardableResult
    public static func seed<Store: SyncReplicaPrimitives>(
        timers: [FocusTimer], records: [PracticeRecord], meditationPresets: [MeditationPreset],
        storedSettings: [String: String], clock: inout HybridLogicalClock, device: String, at now: Date,
        in store: Store
    ) throws(Store.Failure) -> [LoggedChange] {
        try recordLocal(
            sets: LocalSyncChanges.seed(
                timers: timers, records: records, meditationPresets: meditationPresets, storedSettings: storedSettings),
            deletes: [], clock: &clock, device: device, at: now, in: store)
    }

    /// Turns the new values of entities written here into stamped changes, merged and logged as
    /// local (``ReplicaState/recordLocal(sets:deletes:clock:device:at:)``). Writes to an entity the
    /// replica has deleted are dropped, and so is its row. Returns what was logged.
    @discardableResult
    public static func recordLocal<Store: SyncReplicaPrimitives>(
        sets: [(SyncEntityKey, [String: SyncValue])], deletes: [SyncEntityKey], clock: inout HybridLogicalClock,
        device: String, at now: Date, in store: Store
    ) throws(Store.Failure) -> [LoggedChange] {
        let keys = Set(sets.map(\.0)).union(deletes)
        guard !keys.isEmpty else { return [] }
        let before = try store.load(keys)
        var state = before
        let (changes, dropped): ([Change], Set<SyncEntityKey>)
        do {
            (changes, dropped) = try state.recordLocal(
                sets: sets, deletes: deletes, clock: &clock, device: device, at: now)
        } catch {
            // What sync would refuse (a record ending more than a day after the write) is refused.
            throw store.failure(error)
        }
        try store.persist(Self.changes(from: before, to: state))
        for key in dropped { try store.removeRow(key) }
        var logged: [LoggedChange] = []
        for change in changes { logged.append(try store.appendToLog(change, origin: "local")) }
        return logged
    }

    /// Merges checked changes from elsewhere: applies them, moves the clock past their stamps (a
    /// stamp too far ahead is applied but does not move the clock), logs each that is not a
    /// duplicate, and brings the person's rows up to date.
    ///
    /// `compacting`: each write that wins also drops the writes of its fields it beats from the log,
    /// as compaction would later — the server's merge of a push.
    public static func applyRemote<Store: SyncReplicaPrimitives>(
        _ changes: [Change], clock: inout HybridLogicalClock, at now: Date, compacting: Bool, in store: Store
    ) throws(Store.Failure) -> RemoteResult {
        var keys = Set(changes.map(\.entity))
        for change in changes {
            // An item's timer is loaded with it: its deletion may reach the item.
            if case .set(SyncEntityType.timerReferenceField, .string(let id)) = change.operation {
                keys.insert(SyncEntityKey(type: .focusTimer, id: id))
            }
        }
        let before = try store.load(keys)
        var state = before
        var result = RemoteResult()
        for change in changes {
            let outcome = state.apply(change)
            result.outcomes.append(outcome)
            do {
                try clock.receive(change.stamp, at: now)
            } catch {
                guard case .tooFarAhead = error else { throw store.failure(error) }
                result.farAhead.append(change.stamp)
            }
            if outcome == .duplicate {
                result.seqs.append(try store.seqOfLogged(change))
            } else {
                let entry = try store.appendToLog(change, origin: "remote")
                result.seqs.append(entry.seq)
                result.logged.append(entry)
                if compacting, outcome == .applied { try store.dropWritesBeaten(by: change) }
            }
        }
        try store.persist(Self.changes(from: before, to: state))
        try materialize(from: before, to: state, at: now, in: store)
        return result
    }

    /// What a store writes to keep `after` where it kept `before` (both states of the same loaded
    /// entities): fields gone and fields written, deletions written, items linked to a timer.
    public struct StateChanges {
        public var removedFields: [(type: SyncEntityType, id: String, field: String)] = []
        public var writtenFields: [(type: SyncEntityType, id: String, field: String, version: FieldVersion)] = []
        public var deletions: [(key: SyncEntityKey, deletion: Deletion)] = []
        public var links: [(item: String, timer: String)] = []
    }

    /// What differs between two states of the loaded entities (``SyncReplicaPrimitives/persist(_:)``).
    public static func changes(from before: ReplicaState, to after: ReplicaState) -> StateChanges {
        var changes = StateChanges()
        for type in SyncEntityType.allCases {
            let old = before.entities[type] ?? [:]
            let new = after.entities[type] ?? [:]
            for id in Set(old.keys).union(new.keys) where old[id] != new[id] {
                let oldFields = old[id] ?? [:]
                let newFields = new[id] ?? [:]
                for field in oldFields.keys where newFields[field] == nil {
                    changes.removedFields.append((type, id, field))
                }
                for (field, version) in newFields where oldFields[field] != version {
                    changes.writtenFields.append((type, id, field, version))
                }
            }
        }
        for (key, deletion) in after.deletions where before.deletions[key] != deletion {
            changes.deletions.append((key, deletion))
        }
        for (itemID, timers) in after.timersOfItems {
            for timerID in timers.subtracting(before.timersOfItems[itemID] ?? []) {
                changes.links.append((itemID, timerID))
            }
        }
        return changes
    }

    // MARK: The person's rows

    /// Brings the rows of every entity whose merged state changed up to date: timers first (an
    /// item needs its timer's row), then items — also those of a changed timer — records,
    /// settings and saved sits. A state that makes no valid value leaves the row out.
    static func materialize<Store: SyncReplicaPrimitives>(
        from before: ReplicaState, to after: ReplicaState, at now: Date, in store: Store
    ) throws(Store.Failure) {
        let changed = after.entitiesToMaterialize(since: before)
        for id in (changed[.focusTimer] ?? []).sorted() { try materializeTimer(id, in: after, at: now, store) }
        for id in (changed[.checklistItem] ?? []).sorted() { try materializeItem(id, in: after, at: now, store) }
        for id in (changed[.practiceRecord] ?? []).sorted() { try materializeRecord(id, in: after, at: now, store) }
        if let settingIDs = changed[.setting] { try materializeSettings(settingIDs, in: after, at: now, store) }
        for id in (changed[.meditationPreset] ?? []).sorted() {
            try materializeMeditationPreset(id, in: after, at: now, store)
        }
    }

    private static func materializeTimer<Store: SyncReplicaPrimitives>(
        _ id: String, in state: ReplicaState, at now: Date, _ store: Store
    ) throws(Store.Failure) {
        let key = SyncEntityKey(type: .focusTimer, id: id)
        guard let uuid = UUID(uuidString: id), let fields = state.values(of: key),
            let timer = FocusTimer.synced(
                id: uuid, fields: fields, items: [], fallbackCreatedAt: state.firstWritten(key), updatedAt: now)
        else { return try store.removeRow(key) }
        try store.saveTimer(timer)
    }

    /// An item whose timer has no row, or whose timer is full, has no row either.
    private static func materializeItem<Store: SyncReplicaPrimitives>(
        _ id: String, in state: ReplicaState, at now: Date, _ store: Store
    ) throws(Store.Failure) {
        let key = SyncEntityKey(type: .checklistItem, id: id)
        guard let uuid = UUID(uuidString: id), let fields = state.values(of: key),
            let (item, timerID) = ChecklistItem.synced(
                id: uuid, fields: fields, fallbackCreatedAt: state.firstWritten(key), updatedAt: now)
        else { return try store.removeRow(key) }
        let room = try store.itemRoom(timerID: timerID.uuidString.lowercased(), except: id)
        guard room.timerExists, room.items < FocusTimer.maximumItems else { return try store.removeRow(key) }
        try store.saveItem(item, timerID: timerID)
    }

    private static func materializeRecord<Store: SyncReplicaPrimitives>(
        _ id: String, in state: ReplicaState, at now: Date, _ store: Store
    ) throws(Store.Failure) {
        let key = SyncEntityKey(type: .practiceRecord, id: id)
        guard let uuid = UUID(uuidString: id), let fields = state.values(of: key),
            let record = PracticeRecord.synced(id: uuid, fields: fields)
        else { return try store.removeRow(key) }
        if try store.storedRecord(id: id) == record { return }
        try store.saveRecord(record, at: now)
    }

    private static func materializeSettings<Store: SyncReplicaPrimitives>(
        _ ids: Set<String>, in state: ReplicaState, at now: Date, _ store: Store
    ) throws(Store.Failure) {
        var texts: [SettingKey: String] = [:]
        for id in ids {
            guard let key = SettingKey(rawValue: id),
                case .string(let text)? = state.values(of: SyncEntityKey(type: .setting, id: id))?[
                    SyncEntityType.settingValueField]
            else { continue }
            texts[key] = text
        }
        let stored = try store.storedSettingValues()
        let settings = MomentumSettings(storedValues: stored).applyingSyncTexts(texts)
        let changed = settings.storedValues.filter { stored[$0.key] != $0.value }
        if !changed.isEmpty { try store.saveSettingValues(changed, at: now) }
    }

    /// A saved sit whose name another one here has (each device named one alike) takes the first
    /// free "Name (2)" here, as a restore does, rather than the write failing.
    private static func materializeMeditationPreset<Store: SyncReplicaPrimitives>(
        _ id: String, in state: ReplicaState, at now: Date, _ store: Store
    ) throws(Store.Failure) {
        let key = SyncEntityKey(type: .meditationPreset, id: id)
        guard let fields = state.values(of: key),
            var preset = MeditationPreset.synced(
                id: id, fields: fields, fallbackCreatedAt: state.firstWritten(key), updatedAt: now)
        else { return try store.removeRow(key) }
        var taken = Set(try store.meditationPresetNames(except: id).map { $0.lowercased() })
        if let free = LocalSyncChanges.freeName(preset.name, taken: &taken) { preset.name = free }
        try store.saveMeditationPreset(preset)
    }
}

import Foundation
import MomentumCore

/// What a store does for the sync engine (``SyncReplicaEngine``), on its own tables and inside the
/// transaction the engine runs in: load the merged state of some entities and read the person's
/// rows the merge touches; then keep the merged state, keep the log and write the person's rows as
/// the engine decided. The engine decides between the reads and the writes, never in between the
/// writes: a store loads, the engine decides, the store executes (docs/sync.md).
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

    /// What the engine needs to know of the person's rows before it decides how to bring them
    /// up to date (read inside the same transaction, before any of the merge's writes).
    func storedRows(_ reads: SyncReplicaEngine.RowReads) throws(Failure) -> SyncReplicaEngine.StoredRows

    /// Deletes the person's row of `key` (a setting has none to delete).
    func removeRow(_ key: SyncEntityKey) throws(Failure)
    /// Writes a timer's row (its items are rows of their own).
    func saveTimer(_ timer: FocusTimer) throws(Failure)
    func saveItem(_ item: ChecklistItem, timerID: UUID) throws(Failure)
    /// Writes `record`, keeping a stored row's time of creation (`now` for a new one).
    func saveRecord(_ record: PracticeRecord, at now: Date) throws(Failure)
    func saveSettingValues(_ values: [String: String], at now: Date) throws(Failure)
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
        var writes: [Write] = [.persist(Self.changes(from: before, to: state))]
        writes += dropped.map { .removeRow($0) }
        writes += changes.map { .log($0, origin: "local") }
        return try execute(writes, at: now, in: store).logged
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
        var writes: [Write] = []
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
                writes.append(.findLogged(change))
            } else {
                writes.append(.log(change, origin: "remote"))
                if compacting, outcome == .applied { writes.append(.dropWritesBeaten(by: change)) }
            }
        }
        writes.append(.persist(Self.changes(from: before, to: state)))
        let rows = RowPlan(from: before, to: state, at: now)
        let reads = rows.reads
        writes += rows.writes(given: reads.isEmpty ? StoredRows() : try store.storedRows(reads))
        let executed = try execute(writes, at: now, in: store)
        result.seqs = executed.seqs
        result.logged = executed.logged
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
}

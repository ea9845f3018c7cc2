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
    /// What the engine needs to know of the person's rows before it decides how to bring them
    /// up to date (read inside the same transaction, before any of the merge's writes).
    func storedRows(_ reads: SyncReplicaEngine.RowReads) throws(Failure) -> SyncReplicaEngine.StoredRows
    /// Runs the writes the engine decided, in order (``SyncReplicaEngine/Write``).
    func execute(_ writes: [SyncReplicaEngine.Write], at now: Date) throws(Failure) -> SyncReplicaEngine.Executed
}

/// ``SyncReplicaPrimitives`` for a store whose statements are awaited (PostgreSQL).
public protocol AsyncSyncReplicaPrimitives {
    associatedtype Failure: Error

    func failure(_ error: any Error) -> Failure
    func load(_ keys: Set<SyncEntityKey>) async throws(Failure) -> ReplicaState
    func storedRows(_ reads: SyncReplicaEngine.RowReads) async throws(Failure) -> SyncReplicaEngine.StoredRows
    func execute(_ writes: [SyncReplicaEngine.Write], at now: Date) async throws(Failure) -> SyncReplicaEngine.Executed
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

    /// ``seed(timers:records:meditationPresets:storedSettings:clock:device:at:in:)`` on a store whose
    /// statements are awaited.
    @discardableResult
    public static func seed<Store: AsyncSyncReplicaPrimitives>(
        timers: [FocusTimer], records: [PracticeRecord], meditationPresets: [MeditationPreset],
        storedSettings: [String: String], clock: inout HybridLogicalClock, device: String, at now: Date,
        in store: Store
    ) async throws(Store.Failure) -> [LoggedChange] {
        try await recordLocal(
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
        let writes = try localWrites(
            sets: sets, deletes: deletes, loaded: try store.load(keys), clock: &clock, device: device, at: now,
            failure: store.failure)
        return try store.execute(writes, at: now).logged
    }

    /// ``recordLocal(sets:deletes:clock:device:at:in:)`` on a store whose statements are awaited.
    @discardableResult
    public static func recordLocal<Store: AsyncSyncReplicaPrimitives>(
        sets: [(SyncEntityKey, [String: SyncValue])], deletes: [SyncEntityKey], clock: inout HybridLogicalClock,
        device: String, at now: Date, in store: Store
    ) async throws(Store.Failure) -> [LoggedChange] {
        let keys = Set(sets.map(\.0)).union(deletes)
        guard !keys.isEmpty else { return [] }
        let writes = try localWrites(
            sets: sets, deletes: deletes, loaded: try await store.load(keys), clock: &clock, device: device, at: now,
            failure: store.failure)
        return try await store.execute(writes, at: now).logged
    }

    /// What a local write decides, once its entities are loaded. What sync would refuse (a
    /// record ending more than a day after the write) is refused.
    static func localWrites<Failure: Error>(
        sets: [(SyncEntityKey, [String: SyncValue])], deletes: [SyncEntityKey], loaded before: ReplicaState,
        clock: inout HybridLogicalClock, device: String, at now: Date, failure: (any Error) -> Failure
    ) throws(Failure) -> [Write] {
        var state = before
        let (changes, dropped): ([Change], Set<SyncEntityKey>)
        do {
            (changes, dropped) = try state.recordLocal(
                sets: sets, deletes: deletes, clock: &clock, device: device, at: now)
        } catch {
            throw failure(error)
        }
        var writes: [Write] = [.persist(Self.changes(from: before, to: state))]
        writes += dropped.map { .removeRow($0) }
        writes += changes.map { .log($0, origin: "local") }
        return writes
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
        var merge = RemoteMerge(changes, compacting: compacting)
        try merge.apply(to: try store.load(merge.keys), clock: &clock, at: now, failure: store.failure)
        let rows = merge.rows.reads.isEmpty ? StoredRows() : try store.storedRows(merge.rows.reads)
        return merge.result(of: try store.execute(merge.writes(given: rows), at: now))
    }

    /// ``applyRemote(_:clock:at:compacting:in:)`` on a store whose statements are awaited.
    public static func applyRemote<Store: AsyncSyncReplicaPrimitives>(
        _ changes: [Change], clock: inout HybridLogicalClock, at now: Date, compacting: Bool, in store: Store
    ) async throws(Store.Failure) -> RemoteResult {
        var merge = RemoteMerge(changes, compacting: compacting)
        try merge.apply(to: try await store.load(merge.keys), clock: &clock, at: now, failure: store.failure)
        let rows = merge.rows.reads.isEmpty ? StoredRows() : try await store.storedRows(merge.rows.reads)
        return merge.result(of: try await store.execute(merge.writes(given: rows), at: now))
    }

    /// What a merge of `changes` loads (``AsyncSyncReplicaPrimitives/load(_:)``): the changed
    /// entities, and each item's timer (its deletion may reach the item). A store may read it
    /// ahead, with the statement that locks the replica.
    public static func keysToLoad(for changes: [Change]) -> Set<SyncEntityKey> {
        var keys = Set(changes.map(\.entity))
        for change in changes {
            if case .set(SyncEntityType.timerReferenceField, .string(let id)) = change.operation {
                keys.insert(SyncEntityKey(type: .focusTimer, id: id))
            }
        }
        return keys
    }

    /// What merging changes from elsewhere decides: what to load, then (``apply(to:clock:at:)``)
    /// the merged state, the log's writes and the row plan.
    struct RemoteMerge {
        let changes: [Change]
        let compacting: Bool
        /// The changed entities, and each item's timer (its deletion may reach the item).
        let keys: Set<SyncEntityKey>
        private(set) var result = RemoteResult()
        private(set) var logWrites: [Write] = []
        private(set) var rows = RowPlan()

        init(_ changes: [Change], compacting: Bool) {
            self.changes = changes
            self.compacting = compacting
            self.keys = SyncReplicaEngine.keysToLoad(for: changes)
        }

        mutating func apply<Failure: Error>(
            to before: ReplicaState, clock: inout HybridLogicalClock, at now: Date, failure: (any Error) -> Failure
        ) throws(Failure) {
            var state = before
            for change in changes {
                let outcome = state.apply(change)
                result.outcomes.append(outcome)
                do {
                    try clock.receive(change.stamp, at: now)
                } catch {
                    guard case .tooFarAhead = error else { throw failure(error) }
                    result.farAhead.append(change.stamp)
                }
                if outcome == .duplicate {
                    logWrites.append(.findLogged(change))
                } else {
                    logWrites.append(.log(change, origin: "remote"))
                    if compacting, outcome == .applied { logWrites.append(.dropWritesBeaten(by: change)) }
                }
            }
            logWrites.append(.persist(SyncReplicaEngine.changes(from: before, to: state)))
            rows = RowPlan(from: before, to: state, at: now)
        }

        func writes(given stored: StoredRows) -> [Write] { logWrites + rows.writes(given: stored) }

        func result(of executed: Executed) -> RemoteResult {
            var result = result
            result.seqs = executed.seqs
            result.logged = executed.logged
            return result
        }
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

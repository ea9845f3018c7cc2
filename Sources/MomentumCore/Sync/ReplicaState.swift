import Foundation

/// A replica's synced data, and the merge function every replica — server and clients — uses.
///
/// Each field keeps its latest write (the highest stamp wins; see ``FieldVersion``). A deletion is
/// a tombstone that beats every write to the entity, earlier or later, and deletes the checklist
/// items of a deleted timer with it. Applying a change is idempotent, and any delivery order of the
/// same changes ends in the same state.
///
/// ```swift
/// var replica = ReplicaState()
/// replica.apply(rename)         // .applied
/// replica.apply(rename)         // .duplicate
/// replica.apply(deleteTimer)    // .applied: the timer and its items are gone for good
/// replica.apply(laterRename)    // .ignoredBecauseDeleted
/// ```
public struct ReplicaState: Sendable, Equatable {
    /// The entities that are not deleted, by type and id, with the latest write of each field.
    public private(set) var entities: [SyncEntityType: [String: [String: FieldVersion]]] = [:]
    /// The entities deleted by a change of their own (the latest such change of each).
    public private(set) var deletions: [SyncEntityKey: Deletion] = [:]
    /// Every timer each checklist item has named (item id → timer ids), kept even for deleted
    /// items, so a timer's deletion reaches its items in any delivery order.
    public private(set) var timersOfItems: [String: Set<String>] = [:]

    public init() {}

    /// A state as a store kept it: exactly the three parts above (all of them — without the
    /// deletions or the items' timers, later merges would bring deleted entities back).
    public init(
        entities: [SyncEntityType: [String: [String: FieldVersion]]], deletions: [SyncEntityKey: Deletion],
        timersOfItems: [String: Set<String>]
    ) {
        self.entities = entities.filter { !$0.value.isEmpty }
        self.deletions = deletions
        self.timersOfItems = timersOfItems
        for key in deletions.keys { remove(key) }
        for itemID in entities[.checklistItem]?.keys.map(\.self) ?? [] {
            let key = SyncEntityKey(type: .checklistItem, id: itemID)
            if isDeleted(key) { remove(key) }
        }
    }

    /// Merges one change and says what it did.
    @discardableResult
    public mutating func apply(_ change: Change) -> ChangeOutcome {
        let key = change.entity
        if key.type == .checklistItem,
            case .set(SyncEntityType.timerReferenceField, .string(let timerID)) =
                change.operation
        {
            timersOfItems[key.id, default: []].insert(timerID)
        }
        switch change.operation {
        case .delete:
            return delete(key, by: Deletion(stamp: change.stamp, device: change.device))
        case .set(let field, let value):
            guard !isDeleted(key) else {
                remove(key)
                return .ignoredBecauseDeleted
            }
            let version = FieldVersion(value: value, stamp: change.stamp, device: change.device)
            if let current = entities[key.type]?[key.id]?[field] {
                if current == version { return .duplicate }
                if !version.isNewer(than: current) { return .superseded }
            }
            entities[key.type, default: [:]][key.id, default: [:]][field] = version
            return .applied
        case .put(let fields):
            guard !isDeleted(key) else {
                remove(key)
                return .ignoredBecauseDeleted
            }
            // Each field as a `set` with this stamp: applied when any field took it.
            var applied = false
            var duplicate = true
            for (field, value) in fields {
                let version = FieldVersion(value: value, stamp: change.stamp, device: change.device)
                if let current = entities[key.type]?[key.id]?[field] {
                    if current == version { continue }
                    duplicate = false
                    if !version.isNewer(than: current) { continue }
                } else {
                    duplicate = false
                }
                entities[key.type, default: [:]][key.id, default: [:]][field] = version
                applied = true
            }
            return applied ? .applied : duplicate ? .duplicate : .superseded
        }
    }

    /// The state with `change` merged.
    public func applying(_ change: Change) -> ReplicaState {
        var state = self
        state.apply(change)
        return state
    }

    /// Merges changes in order.
    @discardableResult
    public mutating func apply(_ changes: some Sequence<Change>) -> [ChangeOutcome] {
        changes.map { apply($0) }
    }

    /// Checks a batch from the wire whole, then merges it: when any message is invalid, nothing
    /// is applied and the error names the first bad one.
    @discardableResult
    public mutating func apply(
        _ messages: [ChangeMessage], receivedAt wall: Date? = nil
    ) throws(ChangeBatchError) -> [ChangeOutcome] {
        let changes = try ChangeBatch.validate(messages, receivedAt: wall)
        return apply(changes)
    }

    private mutating func delete(_ key: SyncEntityKey, by deletion: Deletion) -> ChangeOutcome {
        let outcome: ChangeOutcome
        if let current = deletions[key] {
            if current == deletion {
                outcome = .duplicate
            } else if deletion.isNewer(than: current) {
                deletions[key] = deletion
                outcome = .applied
            } else {
                outcome = .superseded
            }
        } else {
            deletions[key] = deletion
            outcome = .applied
        }
        remove(key)
        if key.type == .focusTimer, let items = entities[.checklistItem] {
            for itemID in items.keys where timersOfItems[itemID]?.contains(key.id) == true {
                remove(SyncEntityKey(type: .checklistItem, id: itemID))
            }
        }
        return outcome
    }

    /// Forgets a deleted entity's fields, leaving no empty collections behind, so two replicas
    /// with the same entities are equal however they got there.
    private mutating func remove(_ key: SyncEntityKey) {
        guard entities[key.type]?.removeValue(forKey: key.id) != nil else { return }
        if entities[key.type]?.isEmpty == true { entities[key.type] = nil }
    }
}

extension ReplicaState {
    /// Whether the entity is deleted: by its own deletion, or — for a checklist item — by the
    /// deletion of a timer it named. Once deleted, always deleted.
    public func isDeleted(_ key: SyncEntityKey) -> Bool {
        if deletions[key] != nil { return true }
        guard key.type == .checklistItem, let timers = timersOfItems[key.id] else { return false }
        return timers.contains { deletions[SyncEntityKey(type: .focusTimer, id: $0)] != nil }
    }

    /// The deletion that deleted the entity (for an item deleted with its timer, the timer's), or
    /// `nil` while it is not deleted.
    public func deletion(of key: SyncEntityKey) -> Deletion? {
        var candidates = [deletions[key]].compactMap { $0 }
        if key.type == .checklistItem, let timers = timersOfItems[key.id] {
            candidates += timers.compactMap { deletions[SyncEntityKey(type: .focusTimer, id: $0)] }
        }
        return candidates.max { $1.isNewer(than: $0) }
    }

    /// The latest write of a field: its value, its stamp and the device that made it.
    public func lastChange(of field: String, in key: SyncEntityKey) -> FieldVersion? {
        entities[key.type]?[key.id]?[field]
    }

    /// The values of an entity's fields, or `nil` when it is deleted or was never written.
    public func values(of key: SyncEntityKey) -> [String: SyncValue]? {
        entities[key.type]?[key.id]?.mapValues(\.value)
    }

    /// The ids of the entities of one type that are not deleted.
    public func ids(of type: SyncEntityType) -> Set<String> {
        Set(entities[type].map { Array($0.keys) } ?? [])
    }
}

/// A field's latest write.
public struct FieldVersion: Sendable, Hashable {
    public let value: SyncValue
    public let stamp: HybridTimestamp
    public let device: String

    public init(value: SyncValue, stamp: HybridTimestamp, device: String) {
        self.value = value
        self.stamp = stamp
        self.device = device
    }

    /// Last writer wins: the higher stamp; for the same stamp (only replicas sharing a node id
    /// make those) the device, then the value decide, so every replica keeps the same write.
    public func isNewer(than other: FieldVersion) -> Bool {
        if stamp != other.stamp { return stamp > other.stamp }
        if device != other.device { return other.device.utf8.lexicographicallyPrecedes(device.utf8) }
        return SyncValue.precedes(other.value, value)
    }
}

/// A tombstone: when and by which device an entity was deleted.
public struct Deletion: Sendable, Hashable {
    public let stamp: HybridTimestamp
    public let device: String

    public init(stamp: HybridTimestamp, device: String) {
        self.stamp = stamp
        self.device = device
    }

    func isNewer(than other: Deletion) -> Bool {
        if stamp != other.stamp { return stamp > other.stamp }
        return other.device.utf8.lexicographicallyPrecedes(device.utf8)
    }
}

/// What merging a change did.
public enum ChangeOutcome: Sendable, Equatable {
    /// The change is now the field's latest write, or the entity's deletion.
    case applied
    /// The replica already had this very change.
    case duplicate
    /// A later write (or deletion) of the same field or entity was already there.
    case superseded
    /// The entity is deleted, so the write is ignored (and an item naming a deleted timer is
    /// deleted with it).
    case ignoredBecauseDeleted
}

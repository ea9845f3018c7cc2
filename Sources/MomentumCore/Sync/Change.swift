import Foundation

/// One synced change: a field of an entity set to a value, or the entity deleted, stamped by the
/// hybrid logical clock of the replica that made it.
///
/// A `Change` is always valid: it is made by a throwing initializer that checks the type, the
/// id's form, the field and its value, and keeps ids and numbers in one spelling. Changes from the wire arrive as ``ChangeMessage``s.
///
/// ```swift
/// let rename = try Change(
///     entityType: .focusTimer, entityID: timerID, operation: .set(field: "name", value: .string("Reading")),
///     stamp: try clock.send(at: now), device: "browser@phone")
/// ```
public struct Change: Sendable, Hashable {
    public let entity: SyncEntityKey
    public let operation: Operation
    public let stamp: HybridTimestamp
    /// The human name of the device that made the change, e.g. `terminal@laptop`.
    public let device: String

    /// What a change does to its entity.
    public enum Operation: Sendable, Hashable {
        /// Sets one field; the other fields are untouched.
        case set(field: String, value: SyncValue)
        /// Sets every field of the entity's type at once, with one stamp: a whole row written
        /// where it did not exist (a practice logged, a backup restored), one log entry instead of
        /// one per field. The merge treats it as a `set` of each field with this stamp. Not for
        /// checklist items (their `timerID` writes are kept apart; see docs/sync.md).
        case put(fields: [String: SyncValue])
        /// Deletes the entity for good (a tombstone).
        case delete
    }

    public static let maximumDeviceLength = 100

    public init(
        entityType: SyncEntityType, entityID: String, operation: Operation, stamp: HybridTimestamp, device: String
    ) throws(ChangeError) {
        guard let id = entityType.canonicalID(entityID) else {
            throw .malformedEntityID(type: entityType, id: entityID)
        }
        var operation = operation
        switch operation {
        case .set(let field, let value):
            guard let rule = entityType.fields[field] else { throw .unknownField(type: entityType, field: field) }
            let normalized = rule.normalized(value)
            guard rule.accepts(normalized, entityID: id, stamp: stamp) else {
                throw .wrongValue(type: entityType, field: field, expected: rule.expectation)
            }
            operation = .set(field: field, value: normalized)
        case .put(let fields):
            guard entityType != .checklistItem else { throw .malformedOperation("put") }
            let rules = entityType.fields
            if let unknown = fields.keys.sorted().first(where: { rules[$0] == nil }) {
                throw .unknownField(type: entityType, field: unknown)
            }
            guard fields.count == rules.count else { throw .malformedOperation("put") }
            var normalized: [String: SyncValue] = [:]
            for (field, value) in fields {
                guard let rule = rules[field] else { throw .unknownField(type: entityType, field: field) }
                let value = rule.normalized(value)
                guard rule.accepts(value, entityID: id, stamp: stamp) else {
                    throw .wrongValue(type: entityType, field: field, expected: rule.expectation)
                }
                normalized[field] = value
            }
            operation = .put(fields: normalized)
        case .delete:
            guard entityType.isDeletable else { throw .notDeletable(entityType) }
        }
        let trimmedDevice = device.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmedDevice.isEmpty, trimmedDevice.count <= Self.maximumDeviceLength else {
            throw .invalidDevice(device)
        }
        self.entity = SyncEntityKey(type: entityType, id: id)
        self.operation = operation
        self.stamp = stamp
        self.device = trimmedDevice
    }
}

/// An entity that syncs: its type and its id in canonical form.
public struct SyncEntityKey: Sendable, Hashable, CustomStringConvertible {
    public let type: SyncEntityType
    public let id: String

    public init(type: SyncEntityType, id: String) {
        self.type = type
        self.id = id
    }

    public var description: String { "\(type.rawValue)/\(id)" }
}

/// Why a change cannot be accepted. A batch with one such change is refused whole.
public enum ChangeError: Error, Equatable, Sendable {
    case unknownEntityType(String)
    /// The id is not of the type's form (a UUID, or a setting's key).
    case malformedEntityID(type: SyncEntityType, id: String)
    case unknownField(type: SyncEntityType, field: String)
    /// The value is not one the field takes; `expected` says which it does.
    case wrongValue(type: SyncEntityType, field: String, expected: String)
    /// A set without a field or value, a delete with one, a put without every field of its type
    /// (or of a checklist item), or an unknown operation.
    case malformedOperation(String)
    case notDeletable(SyncEntityType)
    case invalidDevice(String)
    /// The stamp is malformed or too far ahead of the receiver's clock.
    case stamp(HybridClockError)
}

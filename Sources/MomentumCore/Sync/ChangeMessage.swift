import Foundation

/// A change as it travels between replicas, not yet checked: plain strings and a JSON value.
///
/// ```json
/// {"type": "focusTimer", "id": "6f1c…", "op": "set", "field": "name", "value": "Reading",
///  "stamp": "1800000000123-00000-n-3f9a", "device": "browser@phone"}
/// {"type": "checklistItem", "id": "9b2e…", "op": "delete", "stamp": "…", "device": "terminal@laptop"}
/// {"type": "practiceRecord", "id": "4d0a…", "op": "put", "fields": {"kind": "meditation", …}, "stamp": "…",
///  "device": "terminal@laptop"}
/// ```
public struct ChangeMessage: Sendable, Hashable, Codable {
    public var type: String
    public var id: String
    /// `set`, `put` or `delete`.
    public var op: String
    /// For `set` only.
    public var field: String?
    /// For `set` only; JSON `null` is a value (``SyncValue/null``), a missing key is none.
    public var value: SyncValue?
    /// For `put` only: every field of the type, by name.
    public var fields: [String: SyncValue]?
    public var stamp: String
    public var device: String

    public init(
        type: String, id: String, op: String, field: String? = nil, value: SyncValue? = nil,
        fields: [String: SyncValue]? = nil, stamp: String, device: String
    ) {
        self.type = type
        self.id = id
        self.op = op
        self.field = field
        self.value = value
        self.fields = fields
        self.stamp = stamp
        self.device = device
    }

    /// The message of a change, as a replica sends it.
    public init(_ change: Change) {
        type = change.entity.type.rawValue
        id = change.entity.id
        switch change.operation {
        case .set(let field, let value):
            op = "set"
            self.field = field
            self.value = value
        case .put(let fields):
            op = "put"
            self.fields = fields
        case .delete:
            op = "delete"
        }
        stamp = change.stamp.description
        device = change.device
    }

    private enum CodingKeys: String, CodingKey {
        case type, id, op, field, value, fields, stamp, device
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        id = try container.decode(String.self, forKey: .id)
        op = try container.decode(String.self, forKey: .op)
        field = try container.decodeIfPresent(String.self, forKey: .field)
        value = container.contains(.value) ? try container.decode(SyncValue.self, forKey: .value) : nil
        fields = try container.decodeIfPresent([String: SyncValue].self, forKey: .fields)
        stamp = try container.decode(String.self, forKey: .stamp)
        device = try container.decode(String.self, forKey: .device)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(id, forKey: .id)
        try container.encode(op, forKey: .op)
        try container.encodeIfPresent(field, forKey: .field)
        if let value { try container.encode(value, forKey: .value) }
        try container.encodeIfPresent(fields, forKey: .fields)
        try container.encode(stamp, forKey: .stamp)
        try container.encode(device, forKey: .device)
    }
}

extension Change {
    /// Checks a message from the wire; with `wall`, also refuses a stamp more than
    /// ``HybridLogicalClock/maximumDrift`` ahead of it.
    public init(_ message: ChangeMessage, receivedAt wall: Date? = nil) throws(ChangeError) {
        guard let type = SyncEntityType(rawValue: message.type) else { throw .unknownEntityType(message.type) }
        let stamp: HybridTimestamp
        do {
            stamp = try HybridTimestamp(parsing: message.stamp)
            if let wall { try HybridLogicalClock.check(stamp, notAheadOf: wall) }
        } catch {
            throw .stamp(error)
        }
        let operation: Operation
        switch (message.op, message.field, message.value, message.fields) {
        case ("set", let field?, let value?, nil): operation = .set(field: field, value: value)
        case ("put", nil, nil, let fields?): operation = .put(fields: fields)
        case ("delete", nil, nil, nil): operation = .delete
        default: throw .malformedOperation(message.op)
        }
        try self.init(
            entityType: type, entityID: message.id, operation: operation, stamp: stamp, device: message.device)
    }
}

extension Change: Codable {
    public init(from decoder: any Decoder) throws {
        let message = try ChangeMessage(from: decoder)
        do {
            try self.init(message)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a valid change", underlyingError: error))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try ChangeMessage(self).encode(to: encoder)
    }
}

/// Checks a batch of messages whole: every change or none.
public enum ChangeBatch {
    /// The most changes one batch may hold.
    public static let maximumCount = 1000

    /// The changes of `messages`, in order, or the first problem (with its position). With `wall`,
    /// stamps more than ``HybridLogicalClock/maximumDrift`` ahead of it are refused.
    public static func validate(
        _ messages: [ChangeMessage], receivedAt wall: Date? = nil
    ) throws(ChangeBatchError) -> [Change] {
        guard messages.count <= maximumCount else {
            throw .tooManyChanges(count: messages.count, maximum: maximumCount)
        }
        var changes: [Change] = []
        changes.reserveCapacity(messages.count)
        for (index, message) in messages.enumerated() {
            do {
                changes.append(try Change(message, receivedAt: wall))
            } catch {
                throw .invalidChange(index: index, error)
            }
        }
        return changes
    }
}

/// Why a batch was refused; nothing of it was applied.
public enum ChangeBatchError: Error, Equatable, Sendable {
    case tooManyChanges(count: Int, maximum: Int)
    /// The change at `index` (from 0) is not valid.
    case invalidChange(index: Int, ChangeError)
}

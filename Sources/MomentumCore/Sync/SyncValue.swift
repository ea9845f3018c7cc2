/// A field's value in a synced change: the shapes JSON has, so a change reads the same on the
/// wire as in memory.
///
/// Numbers without a fraction are ``integer(_:)``; a ``number(_:)`` is always finite.
public enum SyncValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([SyncValue])
    case object([String: SyncValue])
}

extension SyncValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Each `try?` asks whether the value has that shape; the last shape (an object) throws.
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {  // try?: not this shape: try the next
            self = .bool(flag)
        } else if let integer = try? container.decode(Int64.self) {  // try?: not this shape: try the next
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {  // try?: not this shape: try the next
            self = .number(number)
        } else if let text = try? container.decode(String.self) {  // try?: not this shape: try the next
            self = .string(text)
        } else if let array = try? container.decode([SyncValue].self) {  // try?: not this shape: try the next
            self = .array(array)
        } else {
            self = .object(try container.decode([String: SyncValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .integer(let integer): try container.encode(integer)
        case .number(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }
}

extension SyncValue {
    /// A total order on values, used only to break a tie between two different writes with the
    /// same stamp and device (which well-behaved replicas never make), so that every replica still
    /// keeps the same one.
    static func precedes(_ lhs: SyncValue, _ rhs: SyncValue) -> Bool {
        if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
        switch (lhs, rhs) {
        case (.bool(let left), .bool(let right)): return !left && right
        case (.integer(let left), .integer(let right)): return left < right
        case (.number(let left), .number(let right)): return left < right
        case (.string(let left), .string(let right)): return left.utf8.lexicographicallyPrecedes(right.utf8)
        case (.array(let left), .array(let right)):
            return left.lexicographicallyPrecedes(right, by: precedes)
        case (.object(let left), .object(let right)):
            let leftEntries = left.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            let rightEntries = right.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            return leftEntries.lexicographicallyPrecedes(rightEntries) { first, second in
                if first.key != second.key { return first.key.utf8.lexicographicallyPrecedes(second.key.utf8) }
                return precedes(first.value, second.value)
            }
        default: return false
        }
    }

    private var rank: Int {
        switch self {
        case .null: 0
        case .bool: 1
        case .integer: 2
        case .number: 3
        case .string: 4
        case .array: 5
        case .object: 6
        }
    }

    /// Whole numbers as ``integer(_:)``, everywhere inside the value: JSON does not tell `2.0` from
    /// `2`, so a value must mean the same before and after it travels.
    var normalizedNumbers: SyncValue {
        switch self {
        case .number(let number):
            if number.rounded() == number, let integer = Int64(exactly: number) { return .integer(integer) }
            return self
        case .array(let array): return .array(array.map(\.normalizedNumbers))
        case .object(let object): return .object(object.mapValues(\.normalizedNumbers))
        default: return self
        }
    }

    var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var integer: Int64? {
        if case .integer(let integer) = self { return integer }
        return nil
    }
}

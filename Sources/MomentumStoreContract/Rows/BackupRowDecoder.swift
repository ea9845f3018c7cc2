import Foundation
import MomentumCore

/// Reads one of the stored rows (``PracticeRecordRow``, ``FocusTimerRow`` …) from a backup row,
/// as SQLite would hand it over: integers for whole numbers and for true (1) and false (0), reals
/// (or whole numbers) for fractions, texts, and null for what is absent. Anything else is refused,
/// naming the column; nothing is converted that a stored row could not hold.
public enum BackupRowDecoder {
    public static func decode<Row: Decodable>(_ type: Row.Type, from values: BackupRow) throws -> Row {
        try Row(from: RowDecoder(values: values))
    }
}

private struct RowDecoder: Decoder {
    let values: BackupRow
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Columns<Key>(values: values))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self, .init(codingPath: [], debugDescription: "a stored row is columns, not a list"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            Any.self, .init(codingPath: [], debugDescription: "a stored row is columns, not one value"))
    }
}

private struct Columns<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let values: BackupRow
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { values.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { values[key.stringValue] != nil }

    private func value(_ key: Key) throws -> BackupValue {
        guard let value = values[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: [key], debugDescription: "\(key.stringValue) is missing"))
        }
        return value
    }

    private func mismatch<T>(_ type: T.Type, _ key: Key, _ value: BackupValue) -> DecodingError {
        let what: String
        switch value {
        case .null: what = "null"
        case .integer(let integer): what = "\(integer)"
        case .real(let real): what = "\(real)"
        case .text: what = "a text"
        }
        return DecodingError.typeMismatch(
            type, .init(codingPath: [key], debugDescription: "\(key.stringValue) holds \(what), not a \(type)"))
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        switch try value(key) {
        case .integer(0): false
        case .integer(1): true
        case let other: throw mismatch(type, key, other)
        }
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        guard case .text(let text) = try value(key) else { throw mismatch(type, key, try value(key)) }
        return text
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        switch try value(key) {
        case .real(let real) where real.isFinite: real
        case .integer(let integer): Double(integer)
        case let other: throw mismatch(type, key, other)
        }
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        switch try value(key) {
        case .integer(let integer): integer
        // A whole number written as a real (JSON does not tell "3" from "3.0"), in range.
        case .real(let real) where real.rounded() == real && abs(real) < 9.0e15: Int64(real)
        case let other: throw mismatch(type, key, other)
        }
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        let integer = try decode(Int64.self, forKey: key)
        guard let value = Int(exactly: integer) else { throw mismatch(type, key, .integer(integer)) }
        return value
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        throw mismatch(type, key, try value(key))
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        Float(try decode(Double.self, forKey: key))
    }

    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try narrow(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try narrow(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try narrow(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try narrow(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try narrow(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try narrow(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try narrow(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try narrow(key) }

    private func narrow<T: FixedWidthInteger>(_ key: Key) throws -> T {
        let integer = try decode(Int64.self, forKey: key)
        guard let value = T(exactly: integer) else { throw mismatch(T.self, key, .integer(integer)) }
        return value
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw mismatch([String: Any].self, key, try value(key))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw mismatch([Any].self, key, try value(key))
    }

    func superDecoder() throws -> any Decoder { RowDecoder(values: values) }
    func superDecoder(forKey key: Key) throws -> any Decoder { RowDecoder(values: values) }
}

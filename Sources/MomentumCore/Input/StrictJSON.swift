import Foundation

/// Decodes JSON from outside and refuses a field the type does not read.
///
/// `JSONDecoder` skips fields it does not know, so a misspelled key (`"durationMinutes"` for
/// `"durationMs"`) silently takes the default. Here every key of every object the type opens is
/// either read (decoded, asked for with `contains`, or listed with `allKeys`) or refused.
///
/// ```swift
/// let plan = try StrictJSON.decode(MeditationPlan.self, from: data)  // {"durationMinutes": 5} throws
/// ```
public enum StrictJSON {
    /// `data` as `T`, with `decoder`'s strategies; a ``JSONInputError/unknownField(_:)`` names the
    /// first field (in path order) `T` did not read. Decoding errors are thrown unchanged.
    public static func decode<T: Decodable>(
        _ type: T.Type, from data: Data, using decoder: JSONDecoder = JSONDecoder()
    ) throws -> T {
        let recorded = try decoder.decode(Recorded<T>.self, from: data)
        if let field = try unreadField(in: data, log: recorded.log) { throw JSONInputError.unknownField(field) }
        return recorded.value
    }

    /// The first key, by path, of an object the decoder opened but did not read.
    static func unreadField(in data: Data, log: KeyLog) throws -> String? {
        let tree = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        var unread: [String] = []
        func walk(_ value: Any, _ path: [JSONPathComponent]) {
            if let object = value as? [String: Any] {
                let opened = log.openedObjects.contains(path)
                for (key, child) in object {
                    let childPath = path + [.key(key)]
                    if opened, !log.readAll.contains(path), !log.readKeys.contains(childPath) {
                        unread.append(JSONPathComponent.text(childPath))
                    }
                    walk(child, childPath)
                }
            } else if let array = value as? [Any] {
                for (index, child) in array.enumerated() { walk(child, path + [.index(index)]) }
            }
        }
        walk(tree, [])
        return unread.min()
    }
}

/// Why a JSON document from outside cannot be used.
public enum JSONInputError: Error, Equatable, Sendable {
    /// A field no one reads: most likely a misspelling. `path` is like `plan.intervalGongs.mode`.
    case unknownField(String)
}

/// One step into a JSON document: a key of an object or an index of an array.
enum JSONPathComponent: Hashable {
    case key(String)
    case index(Int)

    /// `plan.offsetsMs[2]`, as error messages name fields.
    static func text(_ path: [JSONPathComponent]) -> String {
        var text = ""
        for component in path {
            switch component {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}

/// What a decoding read: the objects it opened and the keys it read in them. Lives for one
/// decoding on one thread, inside ``Recorded``.
final class KeyLog {
    var openedObjects: Set<[JSONPathComponent]> = []
    var readKeys: Set<[JSONPathComponent]> = []
    /// Objects whose keys were listed (`allKeys`): their reader looks at every key itself.
    var readAll: Set<[JSONPathComponent]> = []
}

/// `T`, decoded through a ``RecordingDecoder`` so that what it read is known afterwards.
struct Recorded<T: Decodable>: Decodable {
    let value: T
    let log: KeyLog

    init(from decoder: any Decoder) throws {
        let log = KeyLog()
        value = try RecordingDecoder(base: decoder, path: [], log: log).decodeValue(T.self)
        self.log = log
    }
}

/// A decoder that passes everything to the JSON decoder under it and notes what was read.
struct RecordingDecoder: Decoder {
    let base: any Decoder
    let path: [JSONPathComponent]
    let log: KeyLog

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let container = try base.container(keyedBy: type)
        log.openedObjects.insert(path)
        return KeyedDecodingContainer(RecordingKeyedContainer(base: container, path: path, log: log))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        RecordingUnkeyedContainer(base: try base.unkeyedContainer(), path: path, log: log)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        RecordingSingleValueContainer(base: try base.singleValueContainer(), decoder: self)
    }

    /// `T` read from this decoder; the JSON decoder's own forms (dates, data, URLs) go to it.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if RecordingDecoder.isLeaf(type) { return try base.singleValueContainer().decode(type) }
        return try T(from: self)
    }

    /// Types the JSON decoder reads its own way (with its date strategy, say): never objects.
    static func isLeaf(_ type: Any.Type) -> Bool {
        type is Date.Type || type is Data.Type || type is URL.Type || type is Decimal.Type
    }
}

struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<Key>
    let path: [JSONPathComponent]
    let log: KeyLog

    var codingPath: [any CodingKey] { base.codingPath }
    var allKeys: [Key] {
        log.readAll.insert(path)
        return base.allKeys
    }

    private func note(_ key: Key) -> [JSONPathComponent] {
        let keyPath = path + [.key(key.stringValue)]
        log.readKeys.insert(keyPath)
        return keyPath
    }

    func contains(_ key: Key) -> Bool {
        _ = note(key)
        return base.contains(key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        _ = note(key)
        return try base.decodeNil(forKey: key)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        _ = note(key)
        return try base.decode(type, forKey: key)
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        _ = note(key)
        return try base.decode(type, forKey: key)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        _ = note(key)
        return try base.decode(type, forKey: key)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        _ = note(key)
        return try base.decode(type, forKey: key)
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        _ = note(key)
        return try base.decode(type, forKey: key)
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        _ = note(key)
        return try base.decode(type, forKey: key)
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        _ = note(key)
        return try base.decode(type, forKey: key)
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        _ = note(key)
        return try base.decode(type, forKey: key)
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        _ = note(key)
        return try base.decode(type, forKey: key)
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        _ = note(key)
        return try base.decode(type, forKey: key)
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        _ = note(key)
        return try base.decode(type, forKey: key)
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        _ = note(key)
        return try base.decode(type, forKey: key)
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        _ = note(key)
        return try base.decode(type, forKey: key)
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        _ = note(key)
        return try base.decode(type, forKey: key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let keyPath = note(key)
        // A missing key is the JSON decoder's to report (`keyNotFound`, with its path).
        guard !RecordingDecoder.isLeaf(type), base.contains(key) else { return try base.decode(type, forKey: key) }
        return try T(from: RecordingDecoder(base: try base.superDecoder(forKey: key), path: keyPath, log: log))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let keyPath = note(key)
        let container = try base.nestedContainer(keyedBy: type, forKey: key)
        log.openedObjects.insert(keyPath)
        return KeyedDecodingContainer(RecordingKeyedContainer<NestedKey>(base: container, path: keyPath, log: log))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let keyPath = note(key)
        return RecordingUnkeyedContainer(base: try base.nestedUnkeyedContainer(forKey: key), path: keyPath, log: log)
    }

    func superDecoder() throws -> any Decoder {
        RecordingDecoder(base: try base.superDecoder(), path: path + [.key("super")], log: log)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        let keyPath = note(key)
        return RecordingDecoder(base: try base.superDecoder(forKey: key), path: keyPath, log: log)
    }
}

struct RecordingUnkeyedContainer: UnkeyedDecodingContainer {
    var base: any UnkeyedDecodingContainer
    let path: [JSONPathComponent]
    let log: KeyLog

    var codingPath: [any CodingKey] { base.codingPath }
    var count: Int? { base.count }
    var isAtEnd: Bool { base.isAtEnd }
    var currentIndex: Int { base.currentIndex }

    mutating func decodeNil() throws -> Bool { try base.decodeNil() }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try base.decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try base.decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try base.decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try base.decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try base.decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try base.decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try base.decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try base.decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try base.decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try base.decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try base.decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try base.decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try base.decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try base.decode(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !RecordingDecoder.isLeaf(type), !base.isAtEnd else { return try base.decode(type) }
        let elementPath = path + [.index(base.currentIndex)]
        return try T(from: RecordingDecoder(base: try base.superDecoder(), path: elementPath, log: log))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let elementPath = path + [.index(base.currentIndex)]
        let container = try base.nestedContainer(keyedBy: type)
        log.openedObjects.insert(elementPath)
        return KeyedDecodingContainer(RecordingKeyedContainer<NestedKey>(base: container, path: elementPath, log: log))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let elementPath = path + [.index(base.currentIndex)]
        return RecordingUnkeyedContainer(base: try base.nestedUnkeyedContainer(), path: elementPath, log: log)
    }

    mutating func superDecoder() throws -> any Decoder {
        let elementPath = path + [.index(base.currentIndex)]
        return RecordingDecoder(base: try base.superDecoder(), path: elementPath, log: log)
    }
}

struct RecordingSingleValueContainer: SingleValueDecodingContainer {
    let base: any SingleValueDecodingContainer
    let decoder: RecordingDecoder

    var codingPath: [any CodingKey] { base.codingPath }

    func decodeNil() -> Bool { base.decodeNil() }
    func decode(_ type: Bool.Type) throws -> Bool { try base.decode(type) }
    func decode(_ type: String.Type) throws -> String { try base.decode(type) }
    func decode(_ type: Double.Type) throws -> Double { try base.decode(type) }
    func decode(_ type: Float.Type) throws -> Float { try base.decode(type) }
    func decode(_ type: Int.Type) throws -> Int { try base.decode(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try base.decode(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try base.decode(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try base.decode(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try base.decode(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try base.decode(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try base.decode(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try base.decode(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try base.decode(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try base.decode(type) }

    /// A value of the same JSON value (a wrapper decoding what it wraps): read through the
    /// same recording decoder, so the wrapped type's keys are noted at this path.
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}

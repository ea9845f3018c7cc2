import Foundation

/// The JSON texts the sync log keeps — each logged change's message, each field's value — and pulls
/// send on unread: keys sorted, `/` not escaped, byte for byte what ``logEncoder`` writes.
///
/// Written here directly: every change a push logs was encoded through `JSONEncoder`, a quarter of
/// the CPU a push's merge takes. A value holding a number with a fraction or an object goes through
/// the encoder (its number and key-order rules are its own); every other value — strings, whole
/// numbers, flags, `null` and lists of them, what timers, items and settings hold — is written
/// directly. `ChangeMessageLogTextTests` checks the two agree on random messages.
extension ChangeMessage {
    /// How the log's texts were always written; what ``logText()`` equals.
    public static var logEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// This message as the log's JSON text.
    public func logText() throws -> String {
        var text = JSONText()
        text.append("{\"device\":")
        text.append(string: device)
        if let field {
            text.append(",\"field\":")
            text.append(string: field)
        }
        if fields != nil {
            // An object's keys are ordered as the encoder orders them: it writes the whole text.
            return String(decoding: try Self.logEncoder.encode(self), as: UTF8.self)
        }
        text.append(",\"id\":")
        text.append(string: id)
        text.append(",\"op\":")
        text.append(string: op)
        text.append(",\"stamp\":")
        text.append(string: stamp)
        text.append(",\"type\":")
        text.append(string: type)
        if let value {
            text.append(",\"value\":")
            guard text.append(value: value) else {
                return String(decoding: try Self.logEncoder.encode(self), as: UTF8.self)
            }
        }
        text.append("}")
        return text.string
    }
}

extension SyncValue {
    /// This value as the JSON text the log keeps for a field (see ``ChangeMessage/logText()``).
    public func logText() throws -> String {
        var text = JSONText()
        guard text.append(value: self) else {
            return String(decoding: try ChangeMessage.logEncoder.encode(self), as: UTF8.self)
        }
        return text.string
    }
}

/// JSON written byte by byte, as `JSONEncoder` writes it: in a string `"` and `\` escaped, the
/// control characters as `\b \t \n \f \r` or `\u00XX`, everything else (`/`, DEL, all of Unicode)
/// as it is.
private struct JSONText {
    private var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(192) }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(string: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array(#"\u00"#.utf8))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `value`; false, with the text left unfinished, when it holds a number with a
    /// fraction or an object (the caller then asks `JSONEncoder`).
    mutating func append(value: SyncValue) -> Bool {
        switch value {
        case .null: append("null")
        case .bool(let flag): flag ? append("true") : append("false")
        case .integer(let integer): bytes.append(contentsOf: Array(String(integer).utf8))
        case .string(let text): append(string: text)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                guard append(value: element) else { return false }
            }
            bytes.append(UInt8(ascii: "]"))
        case .number, .object: return false
        }
        return true
    }
}

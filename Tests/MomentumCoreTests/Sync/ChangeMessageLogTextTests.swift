import Foundation
import MomentumCore
import Testing

/// The log's JSON texts written directly are byte for byte what `JSONEncoder` writes (the texts
/// pulls send on, and what every server before wrote).
@Suite("Sync: the log's JSON texts")
struct ChangeMessageLogTextTests {
    /// Every control character, the characters JSON escapes, `/`, DEL, and Unicode beyond ASCII.
    static let alphabet: [Unicode.Scalar] =
        (0..<0x20).compactMap(Unicode.Scalar.init) + [
            "\"", "\\", "/", "\u{7F}", "a", "Z", "0", " ", "é", "ß", "\u{2028}",
            "\u{2029}", "\u{FEFF}", "😀", "\u{301}", "中",
        ]

    private func text(using random: inout SeededRandomNumberGenerator) -> String {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            text.append(Self.alphabet.randomElement(using: &random) ?? "a")
        }
        return String(text)
    }

    private func value(depth: Int, using random: inout SeededRandomNumberGenerator) -> SyncValue {
        switch Int.random(in: 0..<(depth > 1 ? 5 : 7), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2:
            return .integer(
                [Int64.min, Int64.max, 0, -1, Int64.random(in: -1_000_000...1_000_000, using: &random)]
                    .randomElement(using: &random) ?? 0)
        case 3: return .string(text(using: &random))
        case 4: return .number([0.1, -2.5, 1e-7, 1e20, 123456.789].randomElement(using: &random) ?? 0.5)
        case 5:
            return .array(
                (0..<Int.random(in: 0...3, using: &random)).map { _ in value(depth: depth + 1, using: &random) })
        default:
            return .object(
                Dictionary(
                    (0..<Int.random(in: 0...3, using: &random)).map { _ in
                        (text(using: &random), value(depth: depth + 1, using: &random))
                    }, uniquingKeysWith: { first, _ in first }))
        }
    }

    @Test func aMessageIsWrittenAsTheEncoderWritesIt() throws {
        var random = SeededRandomNumberGenerator(seed: 27)
        let encoder = ChangeMessage.logEncoder
        var direct = 0
        for _ in 0..<3000 {
            let isSet = Int.random(in: 0..<5, using: &random) > 0
            let message = ChangeMessage(
                type: text(using: &random), id: text(using: &random), op: isSet ? "set" : "delete",
                field: isSet ? text(using: &random) : nil, value: isSet ? value(depth: 0, using: &random) : nil,
                stamp: text(using: &random), device: text(using: &random))
            let expected = String(decoding: try encoder.encode(message), as: UTF8.self)
            #expect(try message.logText() == expected)
            if let value = message.value {
                #expect(try value.logText() == String(decoding: try encoder.encode(value), as: UTF8.self))
            }
            #expect(try JSONDecoder().decode(ChangeMessage.self, from: Data(try message.logText().utf8)) == message)
            if case .array = message.value { direct += 1 }
        }
        #expect(direct > 100)
    }

    @Test func theControlCharactersAreEscapedAsJSONWants() throws {
        let message = ChangeMessage(
            type: "focusTimer", id: "t", op: "set", field: "notes", value: .string("a\u{1}\n\t\"\\/\u{7F}é"),
            stamp: "s", device: "Phone")
        #expect(
            try message.logText()
                == #"{"device":"Phone","field":"notes","id":"t","op":"set","stamp":"s","type":"focusTimer","value":"a\u0001\n\t\"\\/"#
                + "\u{7F}é\"}")
    }
}

/// An amateur radio call sign: the name a station signs with on the air.
///
/// Upper-case letters A–Z and digits, with at least one of each, 3–10 characters; a `/` may
/// join parts (`K1ABC/P`, `DL/K1ABC`) but neither starts nor ends the call. Lower case is
/// accepted and shown upper case, surrounding whitespace is ignored.
///
/// ```swift
/// try CallSign("k1abc").text  // "K1ABC"
/// try CallSign("K1")          // throws CallSignError.tooShort("K1")
/// ```
public struct CallSign: Sendable, Hashable, CustomStringConvertible {
    /// The call sign as it is sent: upper case, no spaces.
    public let text: String

    /// The fewest characters a call sign may have.
    public static let minimumLength = 3
    /// The most characters a call sign may have, portable prefixes and suffixes included.
    public static let maximumLength = 10

    /// Reads `text` as a call sign.
    ///
    /// - Throws: the first rule `text` breaks, checked in the order of ``CallSignError``'s cases.
    public init(_ text: String) throws(CallSignError) {
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard !trimmed.isEmpty else { throw .empty }
        var characters: [Character] = []
        for character in trimmed {
            guard let upper = Self.callSignCharacter(character) else {
                throw .invalidCharacter(character, callSign: trimmed)
            }
            characters.append(upper)
        }
        let call = String(characters)
        guard characters.count >= Self.minimumLength else { throw .tooShort(call) }
        guard characters.count <= Self.maximumLength else { throw .tooLong(call) }
        guard characters.first != "/", characters.last != "/", !call.contains("//") else {
            throw .misplacedSlash(call)
        }
        guard characters.contains(where: \.isNumber) else { throw .noDigit(call) }
        guard characters.contains(where: \.isLetter) else { throw .noLetter(call) }
        self.text = call
    }

    /// A call sign the generator built, already known to be valid.
    init(checked text: String) { self.text = text }

    public var description: String { text }

    /// `character` upper-cased when a call sign may hold it: A–Z (any case), 0–9 or `/`.
    private static func callSignCharacter(_ character: Character) -> Character? {
        guard character.isASCII else { return nil }
        if character.isNumber || character == "/" { return character }
        guard character.isLetter else { return nil }
        return Character(character.uppercased())
    }
}

/// Why a text is not a call sign: one case per rule, so a message can say what to fix.
public enum CallSignError: Error, Equatable, Sendable {
    /// Nothing but whitespace.
    case empty
    /// A character other than A–Z, 0–9 or `/`; carries the call as written.
    case invalidCharacter(Character, callSign: String)
    /// Fewer than ``CallSign/minimumLength`` characters.
    case tooShort(String)
    /// More than ``CallSign/maximumLength`` characters.
    case tooLong(String)
    /// A `/` at the start or the end, or two in a row.
    case misplacedSlash(String)
    /// No digit: every call sign has one (`K1ABC`, `DL1ABC`).
    case noDigit(String)
    /// No letter.
    case noLetter(String)
}

extension CallSign: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a call sign: \(error)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

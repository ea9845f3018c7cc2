// A symbol is stored as its display text (`"K"`, `"<SK>"`), also as a dictionary key, so
// per-character statistics read as a plain JSON object. Text that is no symbol fails to decode.
extension MorseSymbol: Codable, CodingKeyRepresentable {
    /// The symbol shown as `text`: one character of the table, or a prosign in angle brackets.
    public init?(displayText text: String) {
        if text.count > 2, text.hasPrefix("<"), text.hasSuffix(">"),
            let symbol = MorseCode.symbol(prosignNamed: String(text.dropFirst().dropLast()))
        {
            self = symbol
        } else if text.count == 1, let character = text.first, character.isUppercase || !character.isLetter,
            let symbol = MorseCode.symbol(for: character)
        {
            self = symbol
        } else {
            return nil
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let symbol = MorseSymbol(displayText: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text) is no Morse symbol")
        }
        self = symbol
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(displayText)
    }

    public var codingKey: any CodingKey { SymbolKey(stringValue: displayText) }

    public init?<T: CodingKey>(codingKey: T) {
        self.init(displayText: codingKey.stringValue)
    }

    private struct SymbolKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// Text to send, read into words of Morse symbols.
///
/// Letters (any case), digits, `. , ? / = + -` and prosigns in angle brackets (`<AR>`, `<sk>`)
/// are sent. Any run of whitespace separates words; whitespace before the first character is
/// ignored, and whitespace after the last one is kept as a trailing word gap.
///
/// ```swift
/// let text = try MorseText("cq de <kn> ")
/// text.words.map { $0.map(\.displayText).joined() }  // ["CQ", "DE", "<KN>"]
/// text.endsWithWordGap                               // true
/// ```
public struct MorseText: Sendable, Hashable {
    /// The words in order, none of them empty.
    public let words: [[MorseSymbol]]
    /// Whether whitespace follows the last symbol, so a word gap ends the keying.
    public let endsWithWordGap: Bool
    /// The characters without a code that were dropped, in order (only when skipping).
    public let skipped: [Character]

    /// Reads `text`; throws at the first character without a code unless `skippingUnencodable`.
    ///
    /// When skipping, a word made only of characters without a code vanishes like whitespace, so
    /// it never doubles a word gap. Prosign mistakes (`<XY>`, `<AR`) are always errors: they are
    /// markup the person meant to write, not text to drop.
    ///
    /// - Throws: ``MorseError/unencodableCharacter(_:position:)``,
    ///   ``MorseError/unknownProsign(_:)``, ``MorseError/unclosedProsign(position:)``, or
    ///   ``MorseError/nothingToSend`` when no symbol is left.
    public init(_ text: String, skippingUnencodable: Bool = false) throws(MorseError) {
        let characters = Array(text)
        var words: [[MorseSymbol]] = []
        var word: [MorseSymbol] = []
        var skipped: [Character] = []
        var position = 0
        while position < characters.count {
            let character = characters[position]
            if character.isWhitespace {
                if !word.isEmpty { words.append(word) }
                word = []
                position += 1
            } else if character == "<" {
                let (prosign, next) = try Self.prosign(openingAt: position, in: characters)
                word.append(MorseCode.symbol(for: prosign))
                position = next
            } else if let symbol = MorseCode.symbol(for: character) {
                word.append(symbol)
                position += 1
            } else if skippingUnencodable {
                skipped.append(character)
                position += 1
            } else {
                throw .unencodableCharacter(character, position: position)
            }
        }
        // Only whitespace empties the current word, so an empty one here means whitespace followed
        // the last symbol; characters skipped after it neither add nor remove that gap.
        self.endsWithWordGap = word.isEmpty
        if !word.isEmpty { words.append(word) }
        guard !words.isEmpty else { throw .nothingToSend }
        self.words = words
        self.skipped = skipped
    }

    /// The prosign written from the `<` at `start`, and the position after its `>`.
    private static func prosign(openingAt start: Int, in characters: [Character]) throws(MorseError) -> (
        MorseProsign, next: Int
    ) {
        var end = start + 1
        while end < characters.count, characters[end] != ">" {
            guard !characters[end].isWhitespace, characters[end] != "<" else {
                throw .unclosedProsign(position: start)
            }
            end += 1
        }
        guard end < characters.count else { throw .unclosedProsign(position: start) }
        let name = String(characters[(start + 1)..<end])
        guard let prosign = MorseProsign(name: name) else { throw .unknownProsign(name) }
        return (prosign, end + 1)
    }
}

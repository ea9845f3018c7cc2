/// The international Morse code table of the course: A–Z, 0–9, `. , ? / = + -` and the prosigns
/// AR, SK, BT and KN.
///
/// Lower-case letters are accepted and shown upper case.
///
/// ```swift
/// MorseCode.symbol(for: "k")?.patternText       // "-.-"
/// MorseCode.symbol(for: .sk).patternText        // "...-.-"
/// MorseCode.symbol(forPatternText: "-...-")     // "=", not <BT> (see below)
/// ```
///
/// Two prosigns share a pattern with a punctuation mark: BT is `=` (`-...-`) and AR is `+`
/// (`.-.-.`). Keyed, each pair sounds the same, so a pattern decodes to the punctuation mark; a
/// front end that wants the prosign reading can use ``symbol(for:)-(MorseProsign)``.
public enum MorseCode {
    /// Every symbol of the table: letters, digits, punctuation, then prosigns.
    public static let symbols: [MorseSymbol] =
        characterTable.compactMap { character, text in
            MorseMark.marks(from: text).map { MorseSymbol(.character(character), pattern: $0) }
        } + MorseProsign.allCases.map { MorseSymbol(.prosign($0), pattern: $0.pattern) }

    /// The symbol of `character`, lower case accepted, or `nil` when it has no code.
    public static func symbol(for character: Character) -> MorseSymbol? {
        byCharacter[character]
    }

    /// The symbol of `prosign`.
    public static func symbol(for prosign: MorseProsign) -> MorseSymbol {
        MorseSymbol(.prosign(prosign), pattern: prosign.pattern)
    }

    /// The prosign named `name` (`"SK"`, `"sk"`; without angle brackets), or `nil`.
    public static func symbol(prosignNamed name: String) -> MorseSymbol? {
        MorseProsign(name: name).map { symbol(for: $0) }
    }

    /// The symbol sent as `pattern`, or `nil` when no symbol has it.
    ///
    /// `-...-` is `=` and `.-.-.` is `+`, never BT or AR: the punctuation mark wins.
    public static func symbol(for pattern: [MorseMark]) -> MorseSymbol? {
        byPattern[pattern]
    }

    /// The symbol whose pattern is written `text` in `.` and `-`, or `nil`.
    public static func symbol(forPatternText text: String) -> MorseSymbol? {
        MorseMark.marks(from: text).flatMap { symbol(for: $0) }
    }

    private static let characterTable: [(Character, String)] = [
        ("A", ".-"), ("B", "-..."), ("C", "-.-."), ("D", "-.."), ("E", "."), ("F", "..-."),
        ("G", "--."), ("H", "...."), ("I", ".."), ("J", ".---"), ("K", "-.-"), ("L", ".-.."),
        ("M", "--"), ("N", "-."), ("O", "---"), ("P", ".--."), ("Q", "--.-"), ("R", ".-."),
        ("S", "..."), ("T", "-"), ("U", "..-"), ("V", "...-"), ("W", ".--"), ("X", "-..-"),
        ("Y", "-.--"), ("Z", "--.."),
        ("0", "-----"), ("1", ".----"), ("2", "..---"), ("3", "...--"), ("4", "....-"),
        ("5", "....."), ("6", "-...."), ("7", "--..."), ("8", "---.."), ("9", "----."),
        (".", ".-.-.-"), (",", "--..--"), ("?", "..--.."), ("/", "-..-."), ("=", "-...-"),
        ("+", ".-.-."), ("-", "-....-"),
    ]

    /// Each letter under its upper- and its lower-case form; the symbol itself is upper case.
    private static let byCharacter: [Character: MorseSymbol] = Dictionary(
        uniqueKeysWithValues: symbols.flatMap { symbol -> [(Character, MorseSymbol)] in
            guard let character = symbol.character else { return [] }
            guard character.isLetter, let lower = character.lowercased().first else { return [(character, symbol)] }
            return [(character, symbol), (lower, symbol)]
        })

    /// Characters come before prosigns in ``symbols``, so keeping the first symbol of a pattern
    /// is what makes the punctuation mark win over BT and AR.
    private static let byPattern: [[MorseMark]: MorseSymbol] = Dictionary(
        symbols.map { ($0.pattern, $0) }, uniquingKeysWith: { first, _ in first })
}

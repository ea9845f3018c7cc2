extension MorseCode {
    /// The symbol keyed as `pattern`, prosigns included; throws when the pattern is empty or no
    /// symbol has it.
    ///
    /// ```swift
    /// try MorseCode.decode([.dah, .dit, .dah])     // K
    /// try MorseCode.decode(MorseProsign.sk.pattern) // <SK>
    /// ```
    ///
    /// Like ``symbol(for:)-(MorseMark)``, `-...-` reads as `=` and `.-.-.` as `+`, never BT or AR:
    /// keyed, each pair sounds the same.
    ///
    /// - Throws: ``MorseDecodingError/emptyPattern`` or ``MorseDecodingError/unknownPattern(_:)``.
    public static func decode(_ pattern: [MorseMark]) throws(MorseDecodingError) -> MorseSymbol {
        guard !pattern.isEmpty else { throw .emptyPattern }
        guard let symbol = symbol(for: pattern) else { throw .unknownPattern(String(pattern.map(\.text))) }
        return symbol
    }
}

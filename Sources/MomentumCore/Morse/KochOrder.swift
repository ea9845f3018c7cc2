/// The order in which the Koch method introduces characters: level n practises the first n + 1
/// (SPEC §7), so the course starts with two characters, K and M, as LCWO and G4FON do.
///
/// ```swift
/// KochOrder.standard.characters(atLevel: 1).map(\.displayText)  // ["K", "M"]
/// KochOrder.standard.levels                                     // 1...25
/// KochOrder.extended.symbols.count                              // 40
/// ```
public enum KochOrder: String, Sendable, Hashable, Codable, CaseIterable {
    /// The 26 letters: K M R S U A P T L O W I N J E F Y V G Q Z H B C D X.
    case standard
    /// 40 characters, letters mixed with digits and punctuation, as in common Koch trainers.
    case extended

    /// The characters in the order they are learned.
    public var symbols: [MorseSymbol] {
        switch self {
        case .standard: Self.standardSymbols
        case .extended: Self.extendedSymbols
        }
    }

    // Every character here is in the code table; the tests check the full orders, so a typo
    // dropped by `compactMap` could not pass unnoticed.
    private static let standardSymbols = "KMRSUAPTLOWINJEFYVGQZHBCDX".compactMap { MorseCode.symbol(for: $0) }
    private static let extendedSymbols = "KMRSUAPTLOWI.NJEF0Y,VG5/Q9ZH38B?427C1D6X".compactMap {
        MorseCode.symbol(for: $0)
    }
}

extension KochOrder {
    /// How many characters level 1 practises: two, as LCWO and G4FON start (SPEC §7).
    public static let firstLevelCharacterCount = 2

    /// The course's levels in this order: 1 … one less than its length, the last practising all.
    public var levels: ClosedRange<Int> { 1...(symbols.count - Self.firstLevelCharacterCount + 1) }

    /// The characters `level` practises, oldest first: the first `level + 1` of the order; the
    /// last is the level's new one. Levels outside ``levels`` are clamped into it.
    public func characters(atLevel level: Int) -> [MorseSymbol] {
        let level = min(max(level, levels.lowerBound), levels.upperBound)
        return Array(symbols.prefix(level + Self.firstLevelCharacterCount - 1))
    }
}

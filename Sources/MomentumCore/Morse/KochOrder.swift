/// The order in which the Koch method introduces characters: level n practises the first n.
///
/// ```swift
/// KochOrder.standard.symbols.prefix(2).map(\.displayText)  // ["K", "M"]
/// KochOrder.extended.symbols.count                         // 40
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

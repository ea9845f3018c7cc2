extension MorseKeyer {
    /// The elements of symbols sent as one word — a drill item or a group — with letter gaps
    /// between them and no gap before or after.
    ///
    /// ```swift
    /// keyer.elements(forWord: MorseDrillItem(symbols: [k, m]).symbols).map(\.kind)
    /// // [.dah, .elementGap, .dit, .elementGap, .dah, .letterGap, .dah, .elementGap, .dah]
    /// ```
    public func elements(forWord symbols: [MorseSymbol]) -> [MorseElement] {
        var elements: [MorseElement] = []
        for (index, symbol) in symbols.enumerated() {
            if index > 0 { elements.append(MorseElement(kind: .letterGap, duration: timing.letterGap)) }
            elements += self.elements(for: symbol)
        }
        return elements
    }
}

/// Turns text into the dits, dahs and gaps to key, with the durations of a ``MorseTiming``.
///
/// An element gap separates the elements of a character, a letter gap the characters of a word,
/// and one word gap each two words, however much whitespace is between them (see ``MorseText``).
///
/// ```swift
/// let keyer = MorseKeyer(timing: try MorseTiming(characterWPM: 20, effectiveWPM: 20))
/// try keyer.elements(for: "E").map(\.kind)  // [.dit]
/// try keyer.keying("PARIS ").duration       // 3 s: 50 units of 60 ms
/// ```
public struct MorseKeyer: Sendable, Hashable {
    public var timing: MorseTiming

    public init(timing: MorseTiming) {
        self.timing = timing
    }

    /// The elements of `text`; throws at the first character without a code.
    public func elements(for text: String) throws(MorseError) -> [MorseElement] {
        try keying(text).elements
    }

    /// The elements of `text`, dropping characters without a code when `skippingUnencodable`.
    ///
    /// - Throws: the errors of ``MorseText/init(_:skippingUnencodable:)``.
    public func keying(_ text: String, skippingUnencodable: Bool = false) throws(MorseError) -> MorseKeying {
        keying(try MorseText(text, skippingUnencodable: skippingUnencodable))
    }

    /// The elements of text already read.
    public func keying(_ text: MorseText) -> MorseKeying {
        var elements: [MorseElement] = []
        for (wordIndex, word) in text.words.enumerated() {
            if wordIndex > 0 { elements.append(MorseElement(kind: .wordGap, duration: timing.wordGap)) }
            elements += self.elements(forWord: word)
        }
        if text.endsWithWordGap { elements.append(MorseElement(kind: .wordGap, duration: timing.wordGap)) }
        return MorseKeying(elements: elements, skipped: text.skipped)
    }

    /// The elements of one character or prosign, with no gap before or after it.
    public func elements(for symbol: MorseSymbol) -> [MorseElement] {
        var elements: [MorseElement] = []
        for (index, mark) in symbol.pattern.enumerated() {
            if index > 0 { elements.append(MorseElement(kind: .elementGap, duration: timing.elementGap)) }
            switch mark {
            case .dit: elements.append(MorseElement(kind: .dit, duration: timing.dit))
            case .dah: elements.append(MorseElement(kind: .dah, duration: timing.dah))
            }
        }
        return elements
    }
}

extension MorseKeyer {
    /// The keying of a drill item: its characters as one word, with letter gaps between them.
    ///
    /// ```swift
    /// keyer.keying(MorseDrillItem(symbols: [k, m])).elements.map(\.kind)
    /// // [.dah, .elementGap, .dit, .elementGap, .dah, .letterGap, .dah, .elementGap, .dah]
    /// ```
    public func keying(_ item: MorseDrillItem) -> MorseKeying {
        var elements: [MorseElement] = []
        for (index, symbol) in item.symbols.enumerated() {
            if index > 0 { elements.append(MorseElement(kind: .letterGap, duration: timing.letterGap)) }
            elements += self.elements(for: symbol)
        }
        return MorseKeying(elements: elements)
    }

    /// The keying of one dit or dah, as it sounds when keyed in send training.
    public func keying(_ mark: MorseMark) -> MorseKeying {
        MorseKeying(elements: [
            mark == .dit
                ? MorseElement(kind: .dit, duration: timing.dit) : MorseElement(kind: .dah, duration: timing.dah)
        ])
    }
}

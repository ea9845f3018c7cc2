/// How someone keyed, against the ARRL model: the speed, the weight (dah over dit), the spacing of
/// elements, characters and words in units of their own dit, and — when it is known what they meant
/// to send — the characters that came out wrong and why.
///
/// The ARRL model: a dah is 3 dits, the gap inside a character 1 dit, between characters 3, between
/// words 7. A report measures the sender's own dit (the mean of the presses read as dits; a third
/// of the dahs when there is no dit) and gives every other length in it.
///
/// ```swift
/// var decoder = try MorseTimingDecoder(expectedWPM: 20)
/// let reading = try decoder.read(signals)
/// let report = MorseKeyingReport(reading: reading, expected: try MorseText("CQ"))
/// report.ditDahRatio   // 3.2: dahs a little heavy
/// report.characters    // [] when every character read right
/// ```
public struct MorseKeyingReport: Sendable, Hashable, Codable {
    /// What the keying read as.
    public let text: String
    /// 1.2 s over the sender's dit.
    public let wpm: Double
    /// The mean dah over the mean dit (the model's 3); `nil` without both.
    public let ditDahRatio: Double?
    /// The mean gap inside characters, in dits (the model's 1); `nil` when there is none.
    public let elementGap: Double?
    /// The mean gap between characters, in dits (the model's 3).
    public let characterGap: Double?
    /// The mean gap between words, in dits (the model's 7).
    public let wordGap: Double?
    /// The characters meant that came out wrong, in order (empty when all read right, or when
    /// nothing was expected).
    public let characters: [MorseCharacterDiagnosis]

    public static let modelRatio = 3.0
    public static let modelElementGap = 1.0
    public static let modelCharacterGap = 3.0
    public static let modelWordGap = 7.0

    /// The report of `reading`, with the characters of `expected` that came out wrong.
    public init(reading: MorseReading, expected: MorseText? = nil) {
        self.init(reading: reading, expectedWords: expected?.words)
    }

    /// The report of `reading`, with the characters of `expectedWords` (words of symbols, as
    /// ``MorseText/words``) that came out wrong.
    public init(reading: MorseReading, expectedWords: [[MorseSymbol]]?) {
        func mean(_ kind: MorseReading.Stretch.Kind) -> Double? {
            let values = reading.stretches.filter { $0.kind == kind }.map(\.seconds)
            return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
        }
        let dit = mean(.dit)
        let dah = mean(.dah)
        // There is always a press: the decoder refuses keying without one.
        let unit = dit ?? (dah ?? 0) / 3
        text = reading.text.text
        wpm = unit > 0 ? 1.2 / unit : 0
        ditDahRatio = dit.flatMap { dit in dah.map { $0 / dit } }
        elementGap = unit > 0 ? mean(.elementGap).map { $0 / unit } : nil
        characterGap = unit > 0 ? mean(.characterGap).map { $0 / unit } : nil
        wordGap = unit > 0 ? mean(.wordGap).map { $0 / unit } : nil
        characters = expectedWords.map { MorseCharacterDiagnosis.diagnose(reading, words: $0) } ?? []
    }
}

/// A character meant that came out wrong: what it read as, and why.
public struct MorseCharacterDiagnosis: Sendable, Hashable, Codable {
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// A dit held long enough to read as a dah.
        case ditTooLong
        /// A dah let go soon enough to read as a dit.
        case dahTooShort
        /// A gap inside the character long enough to split it.
        case gapInsideTooLong
        /// The gap after it short enough to join it to the next character.
        case runsIntoNext
        /// The gap before the next word short enough to join the words.
        case wordGapTooShort
        /// The gap after it, inside a word, long enough to read as a word space.
        case characterGapTooLong
        /// More or fewer dits and dahs than the text has, so the character is read as something else.
        case elementsDiffer
    }

    /// The character meant, as shown (`C`, `<SK>`).
    public let expected: String
    /// What its keying read as: symbols separated by spaces, `*` for a pattern that is no symbol,
    /// `–` for nothing.
    public let readAs: String
    public let reasons: [Reason]

    static func diagnose(_ reading: MorseReading, words: [[MorseSymbol]]) -> [MorseCharacterDiagnosis] {
        let presses = reading.stretches.filter(\.kind.isPress)
        // The gap after each press (none after the last).
        var gapAfter: [MorseReading.Stretch.Kind] = []
        for (index, stretch) in reading.stretches.enumerated() where stretch.kind.isPress {
            let next = index + 1 < reading.stretches.count ? reading.stretches[index + 1].kind : nil
            if let next { gapAfter.append(next) }
        }
        let symbols = words.enumerated().flatMap { word, symbols in
            symbols.enumerated().map { (symbol: $1, endsWord: $0 == symbols.count - 1, word: word) }
        }
        let expectedMarks = symbols.reduce(0) { $0 + $1.symbol.pattern.count }
        guard expectedMarks == presses.count else {
            return differingElements(reading, symbols: symbols.map(\.symbol))
        }
        var diagnoses: [MorseCharacterDiagnosis] = []
        var first = 0
        for (position, entry) in symbols.enumerated() {
            let pattern = entry.symbol.pattern
            let range = first..<(first + pattern.count)
            var reasons: [Reason] = []
            let keyed = range.map { presses[$0].kind == .dit ? MorseMark.dit : .dah }
            if zip(pattern, keyed).contains(where: { $0 == .dit && $1 == .dah }) { reasons.append(.ditTooLong) }
            if zip(pattern, keyed).contains(where: { $0 == .dah && $1 == .dit }) { reasons.append(.dahTooShort) }
            // Groups of this character's presses as the gaps inside split them.
            var groups: [[MorseMark]] = [[]]
            for index in range {
                groups[groups.count - 1].append(keyed[index - first])
                if index < range.upperBound - 1, gapAfter[index] != .elementGap { groups.append([]) }
            }
            if groups.count > 1 { reasons.append(.gapInsideTooLong) }
            let isLast = position == symbols.count - 1
            let after = isLast ? nil : gapAfter[range.upperBound - 1]
            if after == .elementGap {
                reasons.append(.runsIntoNext)
                let next = symbols[position + 1].symbol.pattern.count
                let nextMarks = (range.upperBound..<(range.upperBound + next)).map {
                    presses[$0].kind == .dit ? MorseMark.dit : .dah
                }
                groups[groups.count - 1] += nextMarks
            } else if entry.endsWord, after == .characterGap {
                reasons.append(.wordGapTooShort)
            } else if !entry.endsWord, after == .wordGap {
                reasons.append(.characterGapTooLong)
            }
            if !reasons.isEmpty {
                let read = groups.map { MorseCode.symbol(for: $0)?.displayText ?? "*" }.joined(separator: " ")
                diagnoses.append(.init(expected: entry.symbol.displayText, readAs: read, reasons: reasons))
            }
            first = range.upperBound
        }
        return diagnoses
    }

    /// With more or fewer presses than the text has marks, the characters are compared in order.
    private static func differingElements(_ reading: MorseReading, symbols: [MorseSymbol]) -> [MorseCharacterDiagnosis]
    {
        let read: [String] = reading.text.parts.compactMap { part in
            switch part {
            case .symbol(let symbol): symbol.displayText
            case .unknown: "*"
            case .wordGap: nil
            }
        }
        return symbols.enumerated().compactMap { index, symbol in
            let readAs = index < read.count ? read[index] : "–"
            return readAs == symbol.displayText
                ? nil : .init(expected: symbol.displayText, readAs: readAs, reasons: [.elementsDiffer])
        }
    }
}

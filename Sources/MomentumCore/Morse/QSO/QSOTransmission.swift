/// One transmission of the person, read leniently the way an operator copies it.
///
/// The text is split into words at whitespace and at `. , ? = +` and prosign brackets, so `<SK>`
/// reads as `SK` and `HW?` as `HW`. Case does not matter and words the station does not need
/// (`DE`, `K`, `KN`, `BK`, `TNX`, `GM` …) are simply passed over. A character with no Morse
/// code is dropped like a space and listed in ``ignoredCharacters``.
///
/// ```swift
/// let sent = QSOTransmission("w1aw de k1abc ur rst 5nn 5nn name john john k")
/// sent.report?.text               // "599"
/// sent.name                       // "JOHN"
/// sent.contains(try CallSign("K1ABC"))  // true
/// ```
///
/// The lenient rules, decided here once:
/// - A report is three characters, a readability digit 1–5 then strength and tone 1–9, where `N`
///   may stand for 9 (`5NN`). Other cut numbers are not read in reports: `AND` would be 198.
/// - A serial number is the word after `NR`, or else the first other number of 1–4 characters
///   that is not the report or `73`; `T` and `O` may stand for 0 (`TT1` is 1).
/// - Name, town, rig and weather are the words after `NAME`/`NM`/`OP`, `QTH`, `RIG`/`TRX`/`XCVR`
///   and `WX`/`WEATHER`, skipping fillers (`HR`, `IS`, and `NR` for "near" after `QTH`), up to
///   the next procedural word. A value sent twice (`BOB BOB`) is read once.
/// - A call sign counts when a word is exactly that call, or has it as a `/` part (`K1ABC/P`).
/// - The sign-off is `73` or `SK` anywhere in the transmission; contests also take `TU`.
public struct QSOTransmission: Sendable, Hashable {
    /// The words, upper case, in order.
    public let words: [String]
    /// Characters with no Morse code, in order, each as sent; they were read as spaces.
    public let ignoredCharacters: [String]

    public init(_ text: String) {
        var words: [String] = []
        var ignored: [String] = []
        var word = ""
        for character in text {
            if let kept = Self.wordCharacter(character) {
                word.append(kept)
                continue
            }
            if !word.isEmpty { words.append(word) }
            word = ""
            let isSeparator = character.isWhitespace || character == "<" || character == ">"
            if !isSeparator && MorseCode.symbol(for: character) == nil { ignored.append(String(character)) }
        }
        if !word.isEmpty { words.append(word) }
        self.words = words
        self.ignoredCharacters = ignored
    }

    /// Whether `callSign` was sent, alone or with a `/` part.
    public func contains(_ callSign: CallSign) -> Bool {
        words.contains { $0 == callSign.text || $0.split(separator: "/").contains { $0 == callSign.text } }
    }

    /// Whether `CQ` was sent.
    public var containsCQ: Bool { words.contains("CQ") }

    /// Whether the transmission ends the contact: `73` or `SK`, and in a contest also `TU`.
    public func containsSignOff(in style: QSOStyle) -> Bool {
        words.contains { $0 == "73" || $0 == "SK" || (style == .contest && $0 == "TU") }
    }

    /// The first report sent; words right after `NR` are serial numbers, not reports.
    public var report: SignalReport? {
        words.indices.lazy.filter { $0 == 0 || words[$0 - 1] != "NR" }
            .compactMap { SignalReport(text: words[$0]) }.first
    }

    /// The serial number after `NR`, or else the first number that is not the report or `73`.
    public var serialNumber: Int? {
        if let index = words.firstIndex(of: "NR"), index + 1 < words.count,
            let number = Self.serialNumber(words[index + 1])
        {
            return number
        }
        let report = self.report
        return words.lazy.filter { $0 != "73" && (report == nil || SignalReport(text: $0) != report) }
            .compactMap(Self.serialNumber).first
    }

    /// The first word after `NAME`, `NM` or `OP`, when it is made of letters only.
    public var name: String? {
        value(after: ["NAME", "NM", "OP"], skipping: ["HR", "IS", "HERE"], maximumWords: 1)
            .flatMap { $0.allSatisfy(\.isLetter) ? $0 : nil }
    }

    /// The words after `QTH`: `BOSTON MA`.
    public var location: String? {
        value(after: ["QTH"], skipping: ["HR", "IS", "HERE", "NR", "NEAR", "IN"], maximumWords: 4)
    }

    /// The words after `RIG`, `TRX` or `XCVR`: `IC7300 100W`.
    public var rig: String? {
        value(after: ["RIG", "TRX", "XCVR"], skipping: ["HR", "IS", "HERE"], maximumWords: 4)
    }

    /// The words after `WX` or `WEATHER`: `SUNNY TEMP 20C`.
    public var weather: String? {
        value(after: ["WX", "WEATHER"], skipping: ["HR", "IS", "HERE"], maximumWords: 4)
    }

    /// The words following the first of `keys` that has any, past `fillers`, up to the next
    /// procedural word, a report or `maximumWords`; a value sent twice over is read once.
    private func value(after keys: Set<String>, skipping fillers: Set<String>, maximumWords: Int) -> String? {
        for index in words.indices where keys.contains(words[index]) {
            let rest = words[(index + 1)...].drop { fillers.contains($0) }
            let value = Array(rest.prefix { Self.canBeValue($0) }.prefix(maximumWords * 2))
            guard !value.isEmpty else { continue }
            return Self.removingRepeat(value).prefix(maximumWords).joined(separator: " ")
        }
        return nil
    }

    /// `BOSTON MA BOSTON MA` → `BOSTON MA`; `BOB BOB` → `BOB`.
    private static func removingRepeat(_ value: [String]) -> [String] {
        let half = value.count / 2
        guard value.count.isMultiple(of: 2), half > 0, value[..<half] == value[half...] else { return value }
        return Array(value[..<half])
    }

    /// Whether `word` may be part of a name, town, rig or weather: not procedural, not a report.
    private static func canBeValue(_ word: String) -> Bool {
        !proceduralWords.contains(word) && SignalReport(text: word) == nil
    }

    /// Words that end a value: Q-codes and abbreviations of the exchange itself.
    private static let proceduralWords: Set<String> = [
        "DE", "K", "KN", "BK", "AR", "SK", "BT", "R", "HW", "TU", "TNX", "FER", "UR", "RST", "NAME", "NM", "OP",
        "QTH", "RIG", "TRX", "XCVR", "ANT", "WX", "WEATHER", "73", "88", "ES", "FB", "GM", "GA", "GE", "CUL", "HPE",
        "AGN", "PSE", "NR", "CQ", "QSL", "SO", "OM", "DR",
    ]

    /// `word` as a serial number: 1–4 digits, `T` or `O` for 0, at least one digit, above 0.
    private static func serialNumber(_ word: String) -> Int? {
        guard (1...4).contains(word.count), word.contains(where: \.isNumber) else { return nil }
        var value = 0
        for character in word {
            if character == "T" || character == "O" {
                value *= 10
            } else if let digit = character.wholeNumberValue, character.isASCII {
                value = value * 10 + digit
            } else {
                return nil
            }
        }
        return value > 0 ? value : nil
    }

    /// `character` upper-cased when it belongs to a word: letters, digits, `/` and `-`.
    private static func wordCharacter(_ character: Character) -> Character? {
        guard let symbol = MorseCode.symbol(for: character), case .character(let upper) = symbol.kind else {
            return nil
        }
        return upper.isLetter || upper.isNumber || upper == "/" || upper == "-" ? upper : nil
    }
}

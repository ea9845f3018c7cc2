/// An RST signal report: readability 1–5, strength 1–9 and tone 1–9, sent as three digits.
///
/// On the air a 9 is often sent as the cut number `N` (`5NN` is 599). A report is read with
/// ``init(text:)``, which takes `N` for 9 in the strength and tone places only: the readability
/// must be a digit, so ordinary words (`AND`, `ANN`) are never taken for reports.
///
/// ```swift
/// SignalReport(text: "5nn")?.text  // "599"
/// SignalReport(text: "579")        // readability 5, strength 7, tone 9
/// SignalReport(text: "699")        // nil: readability goes up to 5
/// ```
public struct SignalReport: Sendable, Hashable, CustomStringConvertible {
    /// 1 (unreadable) … 5 (perfectly readable).
    public let readability: Int
    /// 1 (faint) … 9 (extremely strong).
    public let strength: Int
    /// 1 (rough) … 9 (pure tone).
    public let tone: Int

    /// The report with these values, or `nil` when one is out of its range.
    public init?(readability: Int, strength: Int, tone: Int) {
        guard (1...5).contains(readability), (1...9).contains(strength), (1...9).contains(tone) else { return nil }
        self.readability = readability
        self.strength = strength
        self.tone = tone
    }

    /// The report written as three digits, `N` allowed for 9 in the second and third place, any
    /// case; `nil` for anything else.
    public init?(text: String) {
        let characters = Array(text)
        guard characters.count == 3, let readability = characters[0].wholeNumberValue else { return nil }
        func digit(_ character: Character) -> Int? {
            character == "N" || character == "n" ? 9 : character.wholeNumberValue
        }
        guard characters.allSatisfy(\.isASCII), let strength = digit(characters[1]), let tone = digit(characters[2])
        else { return nil }
        self.init(readability: readability, strength: strength, tone: tone)
    }

    /// The report as three digits, `"599"`.
    public var text: String { "\(readability)\(strength)\(tone)" }

    /// The report as sent in a contest, 9s cut to `N`: `"5NN"`.
    public var cutText: String {
        text.map { $0 == "9" ? "N" : String($0) }.joined()
    }

    public var description: String { text }
}

extension SignalReport: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let report = SignalReport(text: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not an RST report: \(text)"))
        }
        self = report
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

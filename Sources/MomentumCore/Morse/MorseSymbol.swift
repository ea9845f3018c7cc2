/// One element of a Morse pattern: a short or a long key-down.
public enum MorseMark: Sendable, Hashable, CaseIterable {
    case dit
    case dah

    /// How the mark is written in a pattern: `.` or `-`.
    public var text: Character {
        switch self {
        case .dit: "."
        case .dah: "-"
        }
    }

    /// The marks written as `.` and `-`, or `nil` when the text holds anything else.
    ///
    /// ```swift
    /// MorseMark.marks(from: ".-")  // [.dit, .dah]
    /// ```
    public static func marks(from text: String) -> [MorseMark]? {
        var marks: [MorseMark] = []
        for character in text {
            switch character {
            case ".": marks.append(.dit)
            case "-": marks.append(.dah)
            default: return nil
            }
        }
        return marks
    }
}

/// A procedural signal: two letters sent as one character, without the letter gap between them.
public enum MorseProsign: String, Sendable, Hashable, CaseIterable, Codable {
    /// End of message.
    case ar = "AR"
    /// End of contact.
    case sk = "SK"
    /// Break: a new paragraph or thought.
    case bt = "BT"
    /// Over, to the named station only.
    case kn = "KN"

    /// The prosign named `name` (`"AR"`, `"ar"`), or `nil` when there is none.
    public init?(name: String) {
        self.init(rawValue: name.uppercased())
    }

    /// How the prosign is written in text to send: `<AR>`.
    public var displayText: String { "<\(rawValue)>" }

    /// The two letters' patterns run together: AR is A `.-` and R `.-.` as `.-.-.`.
    public var pattern: [MorseMark] {
        switch self {
        case .ar: [.dit, .dah, .dit, .dah, .dit]
        case .sk: [.dit, .dit, .dit, .dah, .dit, .dah]
        case .bt: [.dah, .dit, .dit, .dit, .dah]
        case .kn: [.dah, .dit, .dah, .dah, .dit]
        }
    }
}

/// A character or a prosign of the code table with its pattern.
///
/// Symbols come only from ``MorseCode``, so every symbol has a pattern.
///
/// ```swift
/// let a = MorseCode.symbol(for: "a")
/// a?.displayText  // "A"
/// a?.patternText  // ".-"
/// ```
public struct MorseSymbol: Sendable, Hashable, CustomStringConvertible {
    /// What the symbol stands for.
    public enum Kind: Sendable, Hashable {
        /// An upper-case letter, a digit or a punctuation mark.
        case character(Character)
        case prosign(MorseProsign)
    }

    public let kind: Kind
    /// The dits and dahs, sent with an element gap between each two.
    public let pattern: [MorseMark]

    init(_ kind: Kind, pattern: [MorseMark]) {
        self.kind = kind
        self.pattern = pattern
    }

    /// How the symbol is shown and written in text: `"A"`, `"?"`, `"<AR>"`.
    public var displayText: String {
        switch kind {
        case .character(let character): String(character)
        case .prosign(let prosign): prosign.displayText
        }
    }

    /// The pattern written as `.` and `-`: `".-"` for A.
    public var patternText: String { String(pattern.map(\.text)) }

    /// The character, or `nil` for a prosign.
    public var character: Character? {
        if case .character(let character) = kind { character } else { nil }
    }

    public var description: String { "\(displayText) \(patternText)" }
}

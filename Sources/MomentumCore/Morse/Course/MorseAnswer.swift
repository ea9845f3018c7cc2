/// One thing a person typed as an answer: a symbol of the code table, or a key that is none.
public enum MorseAnswerToken: Sendable, Hashable {
    case symbol(MorseSymbol)
    /// A typed character with no Morse code (`ä`, `!`, an unclosed `<`); it is kept so it counts
    /// as wrong rather than vanishing.
    case unknown(Character)
}

/// How typed answers are read before they are compared with what was sent.
///
/// Stray keys are handled like this, so a person is never marked wrong for how they typed, only
/// for what:
/// - whitespace anywhere (a space, a tab, the Return key) is ignored;
/// - lower case reads as upper case;
/// - a prosign is typed in angle brackets (`<sk>`), or, when the answer is a single prosign,
///   also by its name alone (`SK`);
/// - any other character without a code stays in the answer as an ``MorseAnswerToken/unknown(_:)``
///   token and counts as a wrong character.
///
/// ```swift
/// MorseAnswer.tokens(in: " k <sk>ä")  // [.symbol(K), .symbol(<SK>), .unknown("ä")]
/// ```
public enum MorseAnswer {
    /// The tokens of `answer`, whitespace dropped.
    public static func tokens(in answer: String) -> [MorseAnswerToken] {
        let characters = Array(answer)
        var tokens: [MorseAnswerToken] = []
        var position = 0
        while position < characters.count {
            let character = characters[position]
            if character.isWhitespace {
                position += 1
            } else if character == "<", let (prosign, next) = prosign(openingAt: position, in: characters) {
                tokens.append(.symbol(MorseCode.symbol(for: prosign)))
                position = next
            } else {
                tokens.append(MorseCode.symbol(for: character).map { .symbol($0) } ?? .unknown(character))
                position += 1
            }
        }
        return tokens
    }

    /// The tokens of `answer` for a question whose answer is `target`: when `target` is a single
    /// prosign, its bare name (`sk`) reads as the prosign.
    public static func tokens(in answer: String, for target: [MorseSymbol]) -> [MorseAnswerToken] {
        if target.count == 1, case .prosign(let prosign) = target[0].kind,
            MorseProsign(name: answer.filter { !$0.isWhitespace }) == prosign
        {
            return [.symbol(target[0])]
        }
        return tokens(in: answer)
    }

    private static func prosign(openingAt start: Int, in characters: [Character]) -> (MorseProsign, next: Int)? {
        guard let end = characters[start...].firstIndex(of: ">"),
            let prosign = MorseProsign(name: String(characters[(start + 1)..<end]))
        else { return nil }
        return (prosign, end + 1)
    }
}

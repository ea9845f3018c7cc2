/// How well an answer matches the character or group that was sent.
///
/// A single character is right only when the answer is that character alone (stray keys as in
/// ``MorseAnswer``). A group is compared by edit distance (Levenshtein over characters):
/// accuracy = 1 − distance / the longer of sent and typed length, so typing extra characters
/// lowers it as much as missing some. Each sent character of a group is right when the cheapest
/// alignment matches it.
///
/// ```swift
/// let score = MorseAnswerScore(sent: symbols("KMRS"), answer: "kmxs")
/// score.editDistance  // 1
/// score.accuracy      // 0.75
/// score.characterResults.map(\.isCorrect)  // [true, true, false, true]
/// ```
public struct MorseAnswerScore: Sendable, Hashable {
    /// One sent character and whether the answer got it.
    public struct CharacterResult: Sendable, Hashable {
        public let symbol: MorseSymbol
        public let isCorrect: Bool
    }

    /// What was typed, read as tokens (whitespace dropped).
    public let answerTokens: [MorseAnswerToken]
    /// The fewest insertions, deletions and substitutions that turn the answer into what was sent.
    public let editDistance: Int
    /// 0 … 1; for a single character 1 or 0.
    public let accuracy: Double
    /// Each sent character, in order, right or wrong.
    public let characterResults: [CharacterResult]

    /// Scores `answer` against `sent`; a missed answer (`nil`, e.g. after the timeout) gets every
    /// character wrong.
    public init(sent: [MorseSymbol], answer: String?) {
        let tokens = answer.map { MorseAnswer.tokens(in: $0, for: sent) } ?? []
        let target = sent.map { MorseAnswerToken.symbol($0) }
        let alignment = Self.alignment(of: target, with: tokens)
        answerTokens = tokens
        editDistance = alignment.distance
        if sent.count == 1 {
            let isCorrect = tokens == target
            accuracy = isCorrect ? 1 : 0
            characterResults = [CharacterResult(symbol: sent[0], isCorrect: isCorrect)]
        } else {
            let longer = max(sent.count, tokens.count)
            accuracy = longer == 0 ? 1 : max(0, 1 - Double(alignment.distance) / Double(longer))
            characterResults = zip(sent, alignment.matched).map { CharacterResult(symbol: $0, isCorrect: $1) }
        }
    }

    /// Whether every sent character was typed and nothing else.
    public var isCorrect: Bool { editDistance == 0 && !characterResults.isEmpty }

    /// Levenshtein distance, and for each target token whether the cheapest alignment matches it.
    /// Backtracking prefers a match or substitution, so a typed extra character is an insertion
    /// rather than shifting every following character out of place.
    static func alignment(of target: [MorseAnswerToken], with answer: [MorseAnswerToken]) -> (
        distance: Int, matched: [Bool]
    ) {
        let rows = target.count + 1
        let columns = answer.count + 1
        var cost = [Int](repeating: 0, count: rows * columns)
        for row in 0..<rows { cost[row * columns] = row }
        for column in 0..<columns { cost[column] = column }
        for row in 1..<rows {
            for column in 1..<columns {
                let substitution = target[row - 1] == answer[column - 1] ? 0 : 1
                cost[row * columns + column] = min(
                    cost[(row - 1) * columns + column - 1] + substitution,
                    cost[(row - 1) * columns + column] + 1,
                    cost[row * columns + column - 1] + 1)
            }
        }
        var matched = [Bool](repeating: false, count: target.count)
        var row = target.count
        var column = answer.count
        while row > 0, column > 0 {
            let here = cost[row * columns + column]
            let isMatch = target[row - 1] == answer[column - 1]
            if here == cost[(row - 1) * columns + column - 1] + (isMatch ? 0 : 1) {
                matched[row - 1] = isMatch
                row -= 1
                column -= 1
            } else if here == cost[(row - 1) * columns + column] + 1 {
                row -= 1
            } else {
                column -= 1
            }
        }
        return (cost[rows * columns - 1], matched)
    }
}

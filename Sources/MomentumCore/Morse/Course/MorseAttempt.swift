/// One answer in a session: the item, what the person typed or keyed, how fast, and its score.
///
/// ```swift
/// let attempt = MorseAttempt(item: item, answer: "k", responseTime: .milliseconds(900))
/// attempt.score.isCorrect  // true when the item was K
/// ```
public struct MorseAttempt: Sendable, Hashable {
    public let item: MorseDrillItem
    /// The answer as given, or `nil` when it was missed (no answer before the timeout).
    public let answer: String?
    /// From the item's end (receive) or the prompt (send) to the answer; `nil` when missed.
    public let responseTime: Duration?
    public let score: MorseAnswerScore

    public init(item: MorseDrillItem, answer: String?, responseTime: Duration?) {
        self.item = item
        self.answer = answer
        self.responseTime = answer == nil ? nil : responseTime
        self.score = MorseAnswerScore(sent: item.symbols, answer: answer)
    }
}

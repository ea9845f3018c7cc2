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

    /// The longest typed answer (and the most dit/dah patterns or key signals) one answer may carry.
    public static let maximumAnswerLength = 200
    /// The longest one straight-key signal (a key-down or the silence after it) may last, in ms.
    public static let maximumSignalMilliseconds = 60_000.0

    public init(item: MorseDrillItem, answer: String?, responseTime: Duration?) {
        self.item = item
        self.answer = answer
        self.responseTime = answer == nil ? nil : responseTime
        self.score = MorseAnswerScore(sent: item.symbols, answer: answer)
    }
}

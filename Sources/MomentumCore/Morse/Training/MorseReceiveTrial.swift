/// One item of receive training: it plays, then the person has the answer time to type what
/// they heard.
///
/// The answer time (3 s, SPEC §7) counts from the end of the item's sound; keys typed while it
/// still plays count too, with a response time of zero. Enter submits what was typed. When the
/// time runs out, what was typed (even without Enter) is the answer; with nothing typed the item
/// is a miss with no answer.
///
/// ```swift
/// var trial = MorseReceiveTrial(item: item, startedAt: now, soundDuration: keying.duration)
/// trial.deadline                         // end of the sound + 3 s
/// trial.type("k")
/// trial.submitted(at: now + .seconds(2)) // the attempt, answered "k"
/// ```
public struct MorseReceiveTrial<Instant: InstantProtocol>: Sendable, Hashable where Instant.Duration == Duration {
    /// How long the person has to answer once the sound has ended.
    public static var answerTime: Duration { .seconds(3) }
    /// The calm between the feedback (or the replay of a miss) and the next item.
    public static var pauseAfterFeedback: Duration { .seconds(1) }

    public let item: MorseDrillItem
    /// When the item's sound ends and the answer time begins.
    public let soundEnd: Instant
    /// What the person has typed so far.
    public private(set) var typed = ""

    /// An item whose sound of `soundDuration` starts at `startedAt`.
    public init(item: MorseDrillItem, startedAt: Instant, soundDuration: Duration) {
        self.item = item
        soundEnd = startedAt.advanced(by: max(.zero, soundDuration))
    }

    /// When the answer time is over.
    public var deadline: Instant { soundEnd.advanced(by: Self.answerTime) }

    /// Whether the item is still sounding at `instant`.
    public func isSounding(at instant: Instant) -> Bool { instant < soundEnd }

    /// The answer time left at `instant`: the whole of it while the item sounds, zero at the deadline.
    public func remainingAnswerTime(at instant: Instant) -> Duration {
        min(Self.answerTime, max(.zero, instant.duration(to: deadline)))
    }

    /// Whether the answer time is over at `instant`.
    public func isTimedOut(at instant: Instant) -> Bool { instant >= deadline }

    /// Adds a typed character; control characters (arrows, tabs, stray escapes) are not text.
    public mutating func type(_ character: Character) {
        guard !character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) else { return }
        typed.append(character)
    }

    /// Removes the last typed character (Backspace).
    public mutating func deleteLast() {
        if !typed.isEmpty { typed.removeLast() }
    }

    /// The attempt when the person presses Enter at `instant`, or `nil` when nothing but spaces
    /// was typed (a stray Enter, which is ignored).
    public func submitted(at instant: Instant) -> MorseAttempt? {
        guard typed.contains(where: { !$0.isWhitespace }) else { return nil }
        return MorseAttempt(item: item, answer: typed, responseTime: max(.zero, soundEnd.duration(to: instant)))
    }

    /// The attempt when the answer time ran out: what was typed, or a miss with no answer.
    public func timedOut() -> MorseAttempt {
        let answer = typed.contains(where: { !$0.isWhitespace }) ? typed : nil
        return MorseAttempt(item: item, answer: answer, responseTime: Self.answerTime)
    }
}

/// One character being keyed in send training: the dits and dahs so far, complete once the
/// person has paused for 2 s (SPEC §7).
///
/// The pause counts from the last key press. Backspace (``clear()``) starts the character over.
///
/// ```swift
/// var keyed = MorseKeyedCharacter<ContinuousClock.Instant>(promptedAt: now)
/// keyed.key(.dah, at: now + .seconds(1))
/// keyed.key(.dit, at: now + .seconds(1.2))
/// keyed.key(.dah, at: now + .seconds(1.4))
/// keyed.completesAt                            // now + 3.4 s
/// keyed.attempt(for: item)?.score.isCorrect    // true when the item was K
/// ```
public struct MorseKeyedCharacter<Instant: InstantProtocol>: Sendable, Hashable where Instant.Duration == Duration {
    /// The pause after the last element that ends a character.
    public static var completionPause: Duration { .seconds(2) }

    /// When the character to send was shown: response times count from here.
    public let promptedAt: Instant
    public private(set) var marks: [MorseMark] = []
    public private(set) var lastKeyedAt: Instant?

    public init(promptedAt: Instant) { self.promptedAt = promptedAt }

    /// Adds a dit or dah keyed at `instant`.
    public mutating func key(_ mark: MorseMark, at instant: Instant) {
        marks.append(mark)
        lastKeyedAt = instant
    }

    /// Forgets what was keyed: the person starts the character again.
    public mutating func clear() {
        marks = []
        lastKeyedAt = nil
    }

    /// When the character is complete: the completion pause after the last element; `nil`
    /// before the first.
    public var completesAt: Instant? { lastKeyedAt?.advanced(by: Self.completionPause) }

    /// Whether the character is complete at `instant`.
    public func isComplete(at instant: Instant) -> Bool { completesAt.map { instant >= $0 } ?? false }

    /// The pattern keyed, written in `.` and `-`.
    public var patternText: String { String(marks.map(\.text)) }

    /// The symbol keyed, or the reason there is none (nothing keyed, or a pattern of no symbol).
    public func decoded() throws(MorseDecodingError) -> MorseSymbol { try MorseCode.decode(marks) }

    /// The attempt at `item` once complete: the decoded symbol as the answer (a pattern of no
    /// symbol answers `*`, which is always wrong), timed from the prompt to the last element;
    /// `nil` when nothing was keyed.
    public func attempt(for item: MorseDrillItem) -> MorseAttempt? {
        guard let lastKeyedAt else { return nil }
        // try?: a pattern of no symbol answers `*`, as documented above: it is scored wrong.
        let answer = (try? decoded())?.displayText ?? "*"
        return MorseAttempt(item: item, answer: answer, responseTime: max(.zero, promptedAt.duration(to: lastKeyedAt)))
    }
}

extension MorseMark {
    /// The mark a key stands for in send training: `.` or `F` is a dit, `-` or `J` a dah (either
    /// case, so F and J sit under the index fingers); `nil` for any other key.
    public init?(key: Character) {
        switch key {
        case ".", "f", "F": self = .dit
        case "-", "j", "J": self = .dah
        default: return nil
        }
    }
}

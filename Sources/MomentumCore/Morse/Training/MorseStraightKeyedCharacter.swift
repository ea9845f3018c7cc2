/// One character keyed on a straight key in send training: the key's presses and releases as
/// they came, complete once the key has stayed up for the completion pause (SPEC §7, as with the
/// dit and dah keys).
///
/// The lengths, not the keys, say what was sent: the session's ``MorseTimingDecoder`` reads them
/// (adapting to the sender's speed) into text, and a ``MorseKeyingReport`` says how it was keyed.
///
/// ```swift
/// var keyed = MorseStraightKeyedCharacter<ContinuousClock.Instant>(promptedAt: now)
/// keyed.press(at: now + .seconds(1))      // dah …
/// keyed.release(at: now + .seconds(1.18))
/// keyed.press(at: now + .seconds(1.24))   // dit …
/// keyed.release(at: now + .seconds(1.30))
/// keyed.signals                           // [.pressed(180 ms), .released(60 ms), .pressed(60 ms)]
/// ```
public struct MorseStraightKeyedCharacter<Instant: InstantProtocol>: Sendable, Hashable
where Instant.Duration == Duration {
    /// When the character to send was shown: response times count from here.
    public let promptedAt: Instant
    /// The presses and the gaps between them, in order (no gap before the first press).
    public private(set) var signals: [MorseKeySignal] = []
    /// When the key went down, while it is down.
    public private(set) var downSince: Instant?
    /// When the key last came up.
    public private(set) var lastReleasedAt: Instant?

    public init(promptedAt: Instant) { self.promptedAt = promptedAt }

    /// The key goes down at `instant` (a second press while down, a key's auto-repeat, is no
    /// new press).
    public mutating func press(at instant: Instant) {
        guard downSince == nil else { return }
        if let lastReleasedAt { signals.append(.released(max(.zero, lastReleasedAt.duration(to: instant)))) }
        downSince = instant
    }

    /// The key comes up at `instant`; a release without a press (the key was down before the
    /// character was shown) is nothing.
    public mutating func release(at instant: Instant) {
        guard let downSince else { return }
        signals.append(.pressed(max(.zero, downSince.duration(to: instant))))
        self.downSince = nil
        lastReleasedAt = instant
    }

    /// Forgets what was keyed: the person starts the character again (a key still down counts
    /// from now).
    public mutating func clear(at instant: Instant) {
        signals = []
        lastReleasedAt = nil
        if downSince != nil { downSince = instant }
    }

    /// When the character is complete: the completion pause after the key last came up; `nil`
    /// while it is down or before the first press.
    public var completesAt: Instant? {
        guard downSince == nil else { return nil }
        return lastReleasedAt?.advanced(by: MorseKeyedCharacter<Instant>.completionPause)
    }

    /// Whether the character is complete at `instant`.
    public func isComplete(at instant: Instant) -> Bool { completesAt.map { instant >= $0 } ?? false }

    /// The attempt at `item` once complete, read by `decoder` (which learns the sender's speed
    /// from it), timed from the prompt to the last release, with how it was keyed; `nil` when
    /// nothing was keyed. Keying that reads as nothing answers `*`, which is always wrong.
    public func attempt(for item: MorseDrillItem, decoder: inout MorseTimingDecoder) -> (
        attempt: MorseAttempt, report: MorseKeyingReport?
    )? {
        guard let lastReleasedAt else { return nil }
        let response = max(.zero, promptedAt.duration(to: lastReleasedAt))
        do {
            let reading = try decoder.read(signals)
            let report = MorseKeyingReport(reading: reading, expectedWords: [item.symbols])
            let text = reading.text.text
            return (MorseAttempt(item: item, answer: text.isEmpty ? "*" : text, responseTime: response), report)
        } catch {
            return (MorseAttempt(item: item, answer: "*", responseTime: response), nil)
        }
    }
}

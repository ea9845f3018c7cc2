import Foundation
import MomentumCore

/// Send training in the terminal: the character to send is shown (no pattern), the person keys
/// it with `.`/`F` (dit) and `-`/`J` (dah), each element sounding as it is keyed; 2 s after the
/// last element the character is complete, decoded and scored, and a miss plays the right one.
/// Backspace starts the character over, space pauses, `q` ends; the session ends when its time
/// is up.
///
/// With a straight key (a terminal speaking the kitty keyboard protocol reports releases) the
/// person holds space, `[`, `]` or Ctrl for each element instead; 2 s after the key last came up
/// the session's adaptive decoder reads the lengths, and the feedback says how it was keyed
/// (speed, weight, spacing, what read wrong). Space is then the key, so `p` pauses. There is no
/// sidetone while keying: the system's player cannot hold a tone for as long as a key is down.
struct MorseSendPlayer: MorseTrainingPlayer {
    typealias Instant = ContinuousClock.Instant

    var session: MorseSession
    var random: SeededRandomNumberGenerator
    let keyer: MorseKeyer
    let sound: any MorseSoundPlayer
    let events: any PlayerEventSource
    let wallClock: @Sendable () -> Date
    var display: LiveDisplay
    let catalog: StringCatalog

    private enum Step {
        case introduction
        case keying(MorseDrillItem, MorseKeyedCharacter<Instant>)
        case keyingStraight(MorseDrillItem, MorseStraightKeyedCharacter<Instant>)
        case between(next: Instant)
        case paused(item: MorseDrillItem?)
    }

    private var step = Step.introduction
    private var typing = TypedCharacters()
    let keys: MorseTrainingKeys
    /// Whether the person keys on a straight key (``PlayerEvent/straightKey(down:)``).
    let isStraightKey: Bool
    /// Follows the sender's speed across the session's straight-key characters.
    private var decoder: MorseTimingDecoder

    init(
        session: MorseSession, random: SeededRandomNumberGenerator, keyer: MorseKeyer, sound: any MorseSoundPlayer,
        events: any PlayerEventSource, wallClock: @escaping @Sendable () -> Date, display: LiveDisplay,
        catalog: StringCatalog, straightKey: Bool = false
    ) throws(MorseDecodingError) {
        isStraightKey = straightKey
        keys = MorseTrainingKeys(answers: [], straightKey: straightKey)
        decoder = try MorseTimingDecoder(expectedWPM: keyer.timing.characterWPM)
        self.session = session
        self.random = random
        self.keyer = keyer
        self.sound = sound
        self.events = events
        self.wallClock = wallClock
        self.display = display
        self.catalog = catalog
    }

    /// Acts on a deadline reached at `now`: a keyed character complete, the next item due.
    mutating func advance(at now: Instant) throws -> Bool {
        switch step {
        case .keying(let item, let keyed) where keyed.isComplete(at: now): try score(item, keyed: keyed, at: now)
        case .keyingStraight(let item, let keyed) where keyed.isComplete(at: now):
            try score(item, straight: keyed, at: now)
        case .between(let next) where now >= next: try startItem(nil, at: now)
        default: true
        }
    }

    mutating func handle(_ key: UInt8) throws -> Bool {
        let now = events.now
        switch step {
        case .introduction where MorseTrainingKeys.enter.contains(key):
            try session.startTraining(at: wallClock())
            return try startItem(nil, at: now)
        case .keying(let item, var keyed):
            if MorseTrainingKeys.backspace.contains(key) {
                keyed.clear()
            } else if let character = typing.read(key) {
                if let mark = MorseMark(key: character) {
                    keyed.key(mark, at: now)
                    sound.play(keyer.keying(mark), text: String(mark.text))
                } else if !MorseTrainingKeys.enter.contains(key), !character.isWhitespace,
                    !character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control })
                {
                    display.clear()
                    display.say(catalog.format(.morseLearnStrayKey, ["key": String(character)]))
                }
            }
            step = .keying(item, keyed)
            return true
        case .keyingStraight(let item, var keyed) where MorseTrainingKeys.backspace.contains(key):
            keyed.clear(at: now)
            step = .keyingStraight(item, keyed)
            return true
        default:
            return true
        }
    }

    mutating func straightKey(down: Bool) throws -> Bool {
        guard case .keyingStraight(let item, var keyed) = step else { return true }
        if down { keyed.press(at: events.now) } else { keyed.release(at: events.now) }
        step = .keyingStraight(item, keyed)
        return true
    }

    /// Shows `item` (or the next drawn one) to send.
    private mutating func startItem(_ item: MorseDrillItem?, at now: Instant) throws -> Bool {
        guard let next = try self.item(item) else { return false }
        display.clear()
        display.say(catalog.format(.morseLearnSendPrompt, ["character": next.text]))
        step =
            isStraightKey
            ? .keyingStraight(next, MorseStraightKeyedCharacter(promptedAt: now))
            : .keying(next, MorseKeyedCharacter(promptedAt: now))
        return true
    }

    private mutating func score(_ item: MorseDrillItem, keyed: MorseKeyedCharacter<Instant>, at now: Instant)
        throws -> Bool
    {
        guard let attempt = keyed.attempt(for: item) else { return true }
        let feedback = MorseTrainingText.sendFeedback(attempt, keyed: keyed, catalog: catalog)
        guard let next = try record(attempt, feedback: feedback, at: now) else { return false }
        step = .between(next: next)
        return true
    }

    /// Scores a straight-keyed character: the decoder's reading, with how it was keyed.
    private mutating func score(
        _ item: MorseDrillItem, straight keyed: MorseStraightKeyedCharacter<Instant>, at now: Instant
    ) throws -> Bool {
        guard let (attempt, report) = keyed.attempt(for: item, decoder: &decoder) else { return true }
        var lines = [MorseTrainingText.receiveFeedback(attempt, catalog: catalog)]
        if let report { lines += MorseTrainingText.keying(report, catalog: catalog) }
        guard let next = try record(attempt, feedback: lines.joined(separator: "\n"), at: now) else { return false }
        step = .between(next: next)
        return true
    }

    mutating func togglePause() throws -> Bool {
        let wall = wallClock()
        switch step {
        case .introduction:
            return true
        case .paused(let item):
            try session.resume(at: wall)
            return try startItem(item, at: events.now)
        case .keying(let item, _), .keyingStraight(let item, _):
            do { try session.pause(at: wall) } catch MorseSessionError.timeIsUp { return false }
            step = .paused(item: item)
        case .between:
            do { try session.pause(at: wall) } catch MorseSessionError.timeIsUp { return false }
            step = .paused(item: nil)
        }
        display.clear()
        display.say(catalog[.morseLearnPaused])
        return true
    }

    /// The completion of the keyed character, the next item, or the end of the session's time.
    func wakeUp(at now: Instant) -> Instant? {
        let sessionEnd = self.sessionEnd(at: now)
        switch step {
        case .introduction, .paused: return nil
        case .between(let next): return sessionEnd.map { min(next, $0) } ?? next
        case .keying(_, let keyed):
            guard let completes = keyed.completesAt else { return sessionEnd }
            return sessionEnd.map { min(completes, $0) } ?? completes
        case .keyingStraight(_, let keyed):
            guard let completes = keyed.completesAt else { return sessionEnd }
            return sessionEnd.map { min(completes, $0) } ?? completes
        }
    }

    /// A character being keyed is an answer on its way: it is scored once complete, even when the
    /// training time ran out meanwhile. A prompt nothing was keyed for yet waits for nobody.
    func isAwaitingAnswer(at now: Instant) -> Bool {
        switch step {
        case .keying(_, let keyed): keyed.completesAt != nil
        case .keyingStraight(_, let keyed): keyed.downSince != nil || keyed.lastReleasedAt != nil
        default: false
        }
    }

    mutating func drawLive(at now: Instant) {
        guard display.isLive else { return }
        switch step {
        case .keying(_, let keyed):
            let line = catalog.format(.morseLearnKeyed, ["pattern": keyed.patternText])
            display.draw([line, catalog[.morseLearnSendControls]], key: "keying") { line }
        case .keyingStraight(_, let keyed):
            // The key as it is now: down (■) or up (□).
            let line = keyed.downSince == nil ? "□" : "■"
            display.draw([line, catalog[.morseLearnStraightControls]], key: "straight") { line }
        default:
            break
        }
    }
}

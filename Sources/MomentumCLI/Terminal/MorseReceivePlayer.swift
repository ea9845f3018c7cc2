import Foundation
import MomentumCore

/// Receive training in the terminal: the introduction, then items played one by one, each
/// answered by typing within the answer time (a countdown on the live line), with feedback and
/// a replay of every miss. Space pauses, `q` (or Esc) ends; the session ends when its time is up.
///
/// Keys typed between items (while a miss is replayed and in the calm after it) are held and
/// typed into the next item when it starts to play, in order, Enter included — as if typed while
/// it plays, which the core counts with a response time of zero. The replay and the calm keep
/// their length (docs/morse.md).
///
/// On a band (`--conditions`), each item is keyed by the band's hand and played with its noise,
/// fading and other station; its answer time starts when that sound ends. A miss is replayed
/// clean.
///
/// The rules (answer time, scoring, drill, session time) are the core's; the player only plays
/// what they say, on the instants of its event source.
struct MorseReceivePlayer: MorseTrainingPlayer {
    typealias Instant = ContinuousClock.Instant

    var session: MorseSession
    var random: SeededRandomNumberGenerator
    let keyer: MorseKeyer
    let sound: any MorseSoundPlayer
    let events: any PlayerEventSource
    /// The wall clock the session's instants come from.
    let wallClock: @Sendable () -> Date
    var display: LiveDisplay
    let catalog: StringCatalog

    private enum Step {
        case introduction
        case answering(MorseReceiveTrial<Instant>)
        /// Feedback shown (and a miss replayed); the next item plays at `next`.
        case between(next: Instant)
        /// Paused; on resume `item` (interrupted, not scored) plays again, else a new one.
        case paused(item: MorseDrillItem?)
    }

    private var step = Step.introduction
    private var typing = TypedCharacters()
    /// Keys typed between items, for the next item.
    private var heldKeys: [UInt8] = []
    let keys: MorseTrainingKeys
    /// The band the items are heard on, and the seed its sounds start from; `nil` for clean.
    let band: (conditions: MorseBandConditions, seed: UInt64)?

    init(
        session: MorseSession, random: SeededRandomNumberGenerator, keyer: MorseKeyer, sound: any MorseSoundPlayer,
        events: any PlayerEventSource, wallClock: @escaping @Sendable () -> Date, display: LiveDisplay,
        catalog: StringCatalog, band: (conditions: MorseBandConditions, seed: UInt64)? = nil
    ) {
        self.band = band
        self.session = session
        self.random = random
        self.keyer = keyer
        self.sound = sound
        self.events = events
        self.wallClock = wallClock
        self.display = display
        self.catalog = catalog
        keys = MorseTrainingKeys(answers: session.introduction)
    }

    /// Acts on a deadline reached at `now`: an answer time run out, the next item due.
    mutating func advance(at now: Instant) throws -> Bool {
        switch step {
        case .answering(let trial) where trial.isTimedOut(at: now): try score(trial.timedOut(), at: now)
        case .between(let next) where now >= next: try startItem(nil, at: now)
        default: true
        }
    }

    /// Takes a typed key; `false` when the session's time ran out meanwhile.
    mutating func handle(_ key: UInt8) throws -> Bool {
        let now = events.now
        switch step {
        case .introduction where MorseTrainingKeys.enter.contains(key):
            try session.startTraining(at: wallClock())
            return try startItem(nil, at: now)
        case .answering(var trial):
            if MorseTrainingKeys.enter.contains(key) {
                guard let attempt = trial.submitted(at: now) else { return true }
                return try score(attempt, at: now)
            }
            if MorseTrainingKeys.backspace.contains(key) {
                trial.deleteLast()
            } else if let character = typing.read(key) {
                trial.type(character)
            }
            step = .answering(trial)
            return true
        case .between:
            heldKeys.append(key)
            return true
        default:
            // Keys before the training or while paused are not answers to anything.
            return true
        }
    }

    /// Plays `item` (or the next drawn one) and opens its answer time.
    private mutating func startItem(_ item: MorseDrillItem?, at now: Instant) throws -> Bool {
        guard let next = try self.item(item) else { return false }
        // On a band, each item its own hand and noise: the seed and how many answers came before it.
        let keying = sound.play(
            keyer.keying(next), text: next.text, on: band?.conditions, timing: keyer.timing,
            seed: (band?.seed ?? 0) ^ UInt64(session.attempts.count))
        step = .answering(MorseReceiveTrial(item: next, startedAt: now, soundDuration: keying.duration))
        let held = heldKeys
        heldKeys = []
        for key in held {
            // An Enter among them scores the item; the keys after it are held for the next.
            guard try handle(key) else { return false }
        }
        return true
    }

    /// Keeps `attempt`, shows the feedback and replays a miss.
    private mutating func score(_ attempt: MorseAttempt, at now: Instant) throws -> Bool {
        let feedback = MorseTrainingText.receiveFeedback(attempt, catalog: catalog)
        guard let next = try record(attempt, feedback: feedback, at: now) else { return false }
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
        case .answering(let trial):
            do { try session.pause(at: wall) } catch MorseSessionError.timeIsUp { return false }
            step = .paused(item: trial.item)
        case .between:
            do { try session.pause(at: wall) } catch MorseSessionError.timeIsUp { return false }
            step = .paused(item: nil)
            heldKeys = []  // a pause is a break: what was typed before it answers nothing
        }
        display.clear()
        display.say(catalog[.morseLearnPaused])
        return true
    }

    /// The next instant something changes: the answer deadline, the countdown's next second on a
    /// terminal, the next item, or the end of the session's time. Waiting to begin or paused,
    /// only a key.
    func wakeUp(at now: Instant) -> Instant? {
        let sessionEnd = self.sessionEnd(at: now)
        switch step {
        case .introduction, .paused:
            return nil
        case .between(let next):
            return sessionEnd.map { min(next, $0) } ?? next
        case .answering(let trial):
            var wake = sessionEnd.map { min(trial.deadline, $0) } ?? trial.deadline
            if display.isLive {
                if trial.isSounding(at: now) {
                    wake = min(wake, trial.soundEnd)
                } else {
                    let remaining = trial.remainingAnswerTime(at: now)
                    let shown = Self.wholeSecondsUp(remaining)
                    wake = min(wake, trial.deadline.advanced(by: .seconds(-(shown - 1))))
                }
            }
            return wake
        }
    }

    /// An item played is waiting for its answer until it is scored (Enter, or its answer time out).
    func isAwaitingAnswer(at now: Instant) -> Bool {
        if case .answering = step { true } else { false }
    }

    mutating func drawLive(at now: Instant) {
        guard display.isLive, case .answering(let trial) = step else { return }
        let line =
            trial.isSounding(at: now)
            ? catalog[.morseLearnListening]
            : catalog.format(
                .morseLearnAnswer,
                ["typed": trial.typed, "seconds": "\(Self.wholeSecondsUp(trial.remainingAnswerTime(at: now)))"])
        let controls = catalog.format(.morseLearnReceiveControls, ["stop": keys.stopName])
        display.draw([line, controls], key: "answer") { line }
    }

    /// Seconds shown by a countdown: rounded up, so it shows 1 until the very end.
    static func wholeSecondsUp(_ duration: Duration) -> Int64 {
        (duration.wholeMilliseconds + 999) / 1000
    }
}

import Foundation
import MomentumCore
import MomentumServices
import MomentumTestSupport

@testable import MomentumCLI

/// Text written by a command, kept for the test to read.
final class CapturedOutput: TextOutput, @unchecked Sendable {
    // `text` is only touched while `lock` is held.
    private let lock = NSLock()
    private var buffer = ""
    private var raw = Data()
    func write(_ text: String) { lock.withLock { buffer += text } }
    /// Bytes written as they are (`-o -`), kept apart from the text.
    func write(bytes: Data) throws { lock.withLock { raw += bytes } }
    var text: String { lock.withLock { buffer } }
    var bytes: Data { lock.withLock { raw } }
    var lines: [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast(
            text.hasSuffix("\n") ? 1 : 0)
    }
}

/// A monotonic clock and keyboard driven by a script: time jumps to each scripted key press or to
/// the player's deadline, so a ten-minute sit plays in microseconds and nothing sleeps.
final class ScriptedEvents: PlayerEventSource, @unchecked Sendable {
    // All state is touched only while `lock` is held.
    private let lock = NSLock()
    let origin: ContinuousClock.Instant
    private var offset: Duration = .zero
    private var script: [(at: Duration, key: UInt8)]
    /// Signals "sent" at offsets: handed to the command's own signal watch (`SignalWatch.deliver`),
    /// not to the process, where other tests' practices run too.
    private var signals: [(at: Duration, Int32)] = []
    private(set) var delivered: [Int32] = []
    /// What happens elsewhere at offsets (another shell pausing a timer, say): run when the
    /// scripted clock reaches them, then the player gets a tick.
    private var actions: [(at: Duration, @Sendable () async -> Void)] = []

    /// Keys pressed at offsets from the moment the source was made.
    init(keys: [(at: Duration, key: Character)] = []) {
        origin = ContinuousClock().now
        script = keys.map { ($0.at, $0.key.asciiValue ?? 0) }.sorted { $0.0 < $1.0 }
    }

    /// Bytes sent at offsets from the moment the source was made: keys beyond ASCII, such as the
    /// two bytes of `ä`.
    init(bytes: [(at: Duration, byte: UInt8)]) {
        origin = ContinuousClock().now
        script = bytes.map { ($0.at, $0.byte) }.sorted { $0.0 < $1.0 }
    }

    /// Keys, and signals at offsets.
    convenience init(keys: [(at: Duration, key: Character)] = [], signals: [(at: Duration, signal: Int32)]) {
        self.init(keys: keys)
        self.signals = signals.sorted { $0.at < $1.at }.map { ($0.at, $0.signal) }
    }

    /// Keys, and things that happen elsewhere at offsets.
    convenience init(
        keys: [(at: Duration, key: Character)] = [], actions: [(at: Duration, action: @Sendable () async -> Void)]
    ) {
        self.init(keys: keys)
        self.actions = actions.sorted { $0.at < $1.at }.map { ($0.at, $0.action) }
    }

    var elapsed: Duration { lock.withLock { offset } }
    var now: ContinuousClock.Instant { lock.withLock { origin.advanced(by: offset) } }

    /// The first of `list` due no later than the next key and `deadline`, taken, with the clock
    /// moved to it; `nil` when none is. Called while `lock` is held.
    private func takeDue<T>(_ list: inout [(at: Duration, T)], before deadline: ContinuousClock.Instant?) -> T? {
        let limit = deadline.map { origin.duration(to: $0) }
        guard let first = list.first, first.at <= (script.first?.at ?? first.at), limit.map({ first.at <= $0 }) ?? true
        else { return nil }
        list.removeFirst()
        offset = max(offset, first.at)
        return first.1
    }

    func next(until deadline: ContinuousClock.Instant?) async -> PlayerEvent? {
        if let due = lock.withLock({ takeDue(&signals, before: deadline) }) {
            if SignalWatch.deliver(due, to: self) { lock.withLock { delivered.append(due) } }
            return .tick
        }
        let action = lock.withLock { takeDue(&actions, before: deadline) }
        if let action {
            await action()
            // A key pressed at that very moment still comes, on a screen drawn before it.
            let keyNow = lock.withLock { script.first.map { $0.at <= offset } ?? false }
            if !keyNow { return .tick }
        }
        return lock.withLock {
            let limit = deadline.map { origin.duration(to: $0) }
            if let first = script.first, limit.map({ first.at <= $0 }) ?? true {
                script.removeFirst()
                offset = max(offset, first.at)
                return .key(first.key)
            }
            guard let limit else { return nil }
            offset = max(offset, limit)
            return .tick
        }
    }
}

/// Records each cue, and what the ambient bed was told, with the instant it happened at.
final class RecordingCuePlayer: CuePlayer, AmbientPlayer, @unchecked Sendable {
    // `log` and `ambientLog` are only touched while `lock` is held.
    private let lock = NSLock()
    private var log: [(CueSound, Duration)] = []
    private var ambientLog: [(String, Duration)] = []
    let events: ScriptedEvents
    init(events: ScriptedEvents) { self.events = events }
    func prepare() {}
    func play(_ sound: CueSound) { lock.withLock { log.append((sound, events.elapsed)) } }
    var played: [(sound: CueSound, at: Duration)] { lock.withLock { log.map { ($0.0, $0.1) } } }

    func start() { record("start") }
    func pause() { record("pause") }
    func resume() { record("resume") }
    func stop() async { record("stop") }
    private func record(_ event: String) { lock.withLock { ambientLog.append((event, events.elapsed)) } }
    /// The bed's events, with the generator and volume it was made for.
    var ambient: [(event: String, at: Duration)] { lock.withLock { ambientLog.map { ($0.0, $0.1) } } }
    var ambientMadeFor: (AmbientGenerator, Double)? {
        get { lock.withLock { madeFor } }
        set { lock.withLock { madeFor = newValue } }
    }
    private var madeFor: (AmbientGenerator, Double)?
}

/// Records what Morse was played, with the instant it started at.
final class RecordingMorsePlayer: MorseSoundPlayer, @unchecked Sendable {
    // `log` is only touched while `lock` is held.
    private let lock = NSLock()
    private var log: [(String, Duration, Duration)] = []
    let events: ScriptedEvents
    init(events: ScriptedEvents) { self.events = events }
    func play(_ keying: MorseKeying, text: String) {
        lock.withLock { log.append((text, events.elapsed, keying.duration)) }
    }
    /// The sounds played on a band (their text), as they are also in ``played``.
    private var bandLog: [(String, MorseBandConditions)] = []
    func play(_ keying: MorseKeying, text: String, on band: MorseBandConditions, timing: MorseTiming, seed: UInt64) {
        play(keying, text: text)
        lock.withLock { bandLog.append((text, band)) }
    }
    var onBand: [(text: String, band: MorseBandConditions)] { lock.withLock { bandLog.map { ($0.0, $0.1) } } }
    /// Each sound: what it said, when it started, how long it lasts.
    var played: [(text: String, at: Duration, duration: Duration)] { lock.withLock { log.map { ($0.0, $0.1, $0.2) } } }
}

/// A command line run against a temporary data directory with scripted time and keys.
struct TestTerminal {
    let directory: TemporaryDirectory
    let output = CapturedOutput()
    let errors = CapturedOutput()
    /// 15 January 2027, 09:00 in Berlin.
    let wallOrigin = Date(timeIntervalSince1970: 1_800_000_000)
    /// The system's time zone as the command sees it.
    var systemTimeZone = TimeZone(identifier: "Europe/Berlin") ?? .gmt

    init() throws { directory = try TemporaryDirectory() }

    /// A new terminal (fresh output) on the same data directory.
    init(sharing other: TestTerminal) throws { directory = other.directory }

    /// Runs `momentum ARGUMENTS --data DIR` and returns the exit status; `answer` is the line typed
    /// when the command asks a question.
    func run(
        _ arguments: [String], keys: [(at: Duration, key: Character)] = [], sound: RecordingCuePlayer? = nil,
        events: ScriptedEvents? = nil, morse: RecordingMorsePlayer? = nil,
        environment: [String: String] = ["LANG": "en_GB.UTF-8"], interactive: Bool = false,
        addingData: Bool = true, answer: String? = nil, systemSound: Bool = false, rows: Int? = nil,
        health: @escaping @Sendable (URL) async -> Result<HealthAnswer, HealthUnreachable> = { _ in .failure(.refused) }
    ) async -> Int32 {
        let events = events ?? ScriptedEvents(keys: keys)
        let recorder = sound ?? RecordingCuePlayer(events: events)
        let morse = morse ?? RecordingMorsePlayer(events: events)
        let wallOrigin = self.wallOrigin
        var context = CommandContext(
            environment: environment,
            homeDirectory: directory.url.path,
            output: output,
            errors: errors,
            isInteractive: interactive,
            // The wall clock moves with the scripted monotonic clock.
            now: { wallOrigin.addingTimeInterval(events.elapsed.inSeconds) },
            makeID: { UUID() },
            timeZone: systemTimeZone,
            device: "test-terminal",
            makeEvents: { events },
            makeCuePlayer: { _ in recorder },
            makeAmbientPlayer: { generator, volume in
                recorder.ambientMadeFor = (generator, volume)
                return recorder
            }
        )
        context.makeMorsePlayer = { _, _ in morse }
        context.terminalRows = rows
        // The system's own audio player, found on the environment's PATH (a test's fake one).
        if systemSound { context.makeCuePlayer = nil }
        // What is typed when a command asks (`user remove`): nothing, unless the test says.
        context.readAnswer = { answer }
        // What a server's /health answers `momentum doctor`: by default, nothing listens.
        context.askHealth = health
        let data = arguments.contains("--data") || !addingData ? [] : ["--data", directory.url.path]
        return await MomentumCLI.main(arguments: arguments + data, context: context)
    }
}

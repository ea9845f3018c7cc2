import Foundation

/// What a terminal player reacts to: a key, or time passing to the moment it asked to wake at.
public enum PlayerEvent: Sendable, Equatable {
    /// The deadline the player gave has come (or something woke it early; it recomputes anyway).
    case tick
    /// A key the person pressed, as the byte the terminal sent.
    case key(UInt8)
    /// The straight key went down or came up (a terminal speaking the kitty keyboard protocol,
    /// read by ``KittyKeyEvents``).
    case straightKey(down: Bool)
}

/// The player's source of time and keys.
///
/// The live source reads the keyboard and sleeps on the system clock; tests script events and
/// move a manual clock, so nothing sleeps.
public protocol PlayerEventSource: Sendable {
    /// The monotonic now.
    var now: ContinuousClock.Instant { get }
    /// The next key pressed before `deadline`, else `.tick` at the deadline. With no deadline,
    /// waits for a key; returns `nil` when no key can ever come and there is no deadline.
    func next(until deadline: ContinuousClock.Instant?) async -> PlayerEvent?
    /// Puts the terminal back as it was, once the player is done with it.
    func restore()
    /// Ends a wait in ``next(until:)`` early (a signal came): it returns at once.
    func wake()
    /// Sets a mode of the terminal with the escape sequence `enter`, put back with `leave`
    /// whenever the terminal is given back; `false` where there is no terminal to set.
    func setMode(enter: String, leave: String) -> Bool
}

extension PlayerEventSource {
    /// Puts the terminal back as it was; sources that never touched it have nothing to do.
    public func restore() {}
    public func wake() {}
    public func setMode(enter: String, leave: String) -> Bool { false }
}

/// Whether the person pressed Ctrl-C during the command — or the process was sent SIGINT,
/// SIGTERM or SIGHUP (a closed terminal, a dropped SSH connection, `kill`) while a practice was
/// live: it then ends the practice as Ctrl-C does and exits with 128 + the signal (130, 143, 129).
final class Interruption: @unchecked Sendable {
    // Only read and written while `lock` is held.
    private let lock = NSLock()
    private var pressed = false
    private var signal: Int32?
    private var watch: SignalWatch?

    /// The exit status of a command interrupted by Ctrl-C (128 + SIGINT).
    static let exitStatus: Int32 = 130
    /// The byte Ctrl-C sends when the terminal is raw (signals off, so players read it as a key).
    static let controlC: UInt8 = 3
    /// The signals that end a live practice as Ctrl-C does.
    static let endingSignals: [Int32] = [SIGHUP, SIGINT, SIGTERM]

    var happened: Bool { lock.withLock { pressed } }
    func note() { lock.withLock { pressed = true } }

    /// 128 + the signal that ended the command (SIGINT for Ctrl-C).
    var exitStatus: Int32 { 128 + (lock.withLock { signal } ?? SIGINT) }

    /// A signal arrived that the player has not been told of yet.
    var isSignalled: Bool { lock.withLock { signal != nil && !pressed } }

    /// While `source` is live, the ending signals end it: each is noted and wakes the source.
    func watchSignals(for source: any PlayerEventSource) {
        let watch = SignalWatch(owner: source as AnyObject) { [weak self] number in
            self?.lock.withLock { if self?.signal == nil { self?.signal = number } }
            source.wake()
        }
        lock.withLock {
            self.watch?.stop()
            self.watch = watch
        }
        // The process's signals are watched only for the real keyboard: a test's scripted source
        // runs beside other tests (servers among them, whose own shutdown signals these are).
        watch.start(source is KeyboardEventSource ? Self.endingSignals : [])
    }

    /// The signals go back to what they did before a practice.
    func stopWatching() {
        let watch = lock.withLock { () -> SignalWatch? in
            defer { self.watch = nil }
            return self.watch
        }
        watch?.stop()
    }
}

/// Signals turned into calls on a queue (never a handler that runs inside the interrupted code).
final class SignalWatch: @unchecked Sendable {
    // `sources` is set in `start` and cleared in `stop`, both under `lock`.
    private let lock = NSLock()
    private var sources: [(Int32, any DispatchSourceSignal)] = []
    private let handler: @Sendable (Int32) -> Void
    /// The event source this watch serves, for ``deliver(_:to:)``.
    private let owner: ObjectIdentifier?

    /// The watches listening now, by their event source (guarded by `watchesLock`).
    nonisolated(unsafe) private static var watches: [ObjectIdentifier: SignalWatch] = [:]
    private static let watchesLock = NSLock()

    init(owner: AnyObject? = nil, _ handler: @escaping @Sendable (Int32) -> Void) {
        self.owner = owner.map(ObjectIdentifier.init)
        self.handler = handler
    }

    /// What the watch of `owner` does when `number` arrives, without sending a signal to the
    /// whole process (tests: other tests' practices run in the same process). False when no watch
    /// serves `owner`.
    static func deliver(_ number: Int32, to owner: AnyObject) -> Bool {
        guard let watch = watchesLock.withLock({ watches[ObjectIdentifier(owner)] }) else { return false }
        watch.handler(number)
        return true
    }

    /// Listens for `signals` (none: only ``deliver(_:to:)`` reaches it).
    func start(_ signals: [Int32]) {
        if let owner { Self.watchesLock.withLock { Self.watches[owner] = self } }
        lock.withLock {
            for number in signals {
                // The default action (ending the process) is off while the source listens.
                Foundation.signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                let handler = handler
                source.setEventHandler { handler(number) }
                source.resume()
                sources.append((number, source))
            }
        }
    }

    func stop() {
        if let owner {
            Self.watchesLock.withLock { if Self.watches[owner] === self { Self.watches[owner] = nil } }
        }
        let stopped = lock.withLock { () -> [(Int32, any DispatchSourceSignal)] in
            defer { sources = [] }
            return sources
        }
        for (number, source) in stopped {
            source.cancel()
            Foundation.signal(number, SIG_DFL)
        }
    }
}

/// A player's event source that turns Ctrl-C into what SIGINT would do, after saving: the key
/// reaches the player (which ends the practice, as every player ends on it), and from then on no
/// key can come — so nothing more is asked (an early stop that counts is kept) — and the command
/// exits with 130. SIGINT, SIGTERM and SIGHUP reach the player as that same key.
struct InterruptibleEvents: PlayerEventSource {
    let source: any PlayerEventSource
    let interruption: Interruption

    var now: ContinuousClock.Instant { source.now }

    func next(until deadline: ContinuousClock.Instant?) async -> PlayerEvent? {
        if interruption.happened { return nil }
        if interruption.isSignalled {
            interruption.note()
            return .key(Interruption.controlC)
        }
        let event = await source.next(until: deadline)
        if interruption.isSignalled || event == .key(Interruption.controlC) {
            interruption.note()
            return .key(Interruption.controlC)
        }
        return event
    }

    func restore() {
        interruption.stopWatching()
        source.restore()
    }

    func wake() { source.wake() }
    func setMode(enter: String, leave: String) -> Bool { source.setMode(enter: enter, leave: leave) }
}

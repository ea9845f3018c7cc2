import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keys from standard input and ticks from the system's continuous clock.
///
/// On a terminal, input switches to single-key mode without echo for the time of a sit and is
/// restored afterwards (also on `q` and Ctrl-C, which arrive as keys).
public final class KeyboardEventSource: PlayerEventSource {
    private let keys = KeyBuffer()
    private let clock = ContinuousClock()
    private let terminal: TerminalMode?
    /// Escape sequences that set a mode of the terminal (the kitty keyboard protocol's flags)
    /// and put it back: left, like single-key mode, while the process is stopped and at the end.
    private let modes = TerminalModes()
    /// SIGTSTP (`kill -TSTP`; Ctrl-Z is a key here) and SIGCONT: the terminal is given back
    /// before the process stops and taken again when it continues; the screen redraws at once.
    private let jobControl: SignalWatch?

    public init() {
        terminal = TerminalMode(descriptor: STDIN_FILENO)
        terminal?.enterSingleKeyMode()
        if let terminal {
            let keys = self.keys
            let modes = self.modes
            jobControl = SignalWatch { number in
                if number == SIGTSTP {
                    modes.leave()
                    terminal.restore()
                    kill(getpid(), SIGSTOP)
                } else {
                    terminal.enterSingleKeyMode()
                    modes.enter()
                    keys.cancelWait()
                }
            }
            jobControl?.start([SIGTSTP, SIGCONT])
        } else {
            jobControl = nil
        }
        let keys = self.keys
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(STDIN_FILENO, &byte, 1) == 1 { keys.push(byte) }
            keys.close()
        }
    }

    /// Puts the terminal back as it was.
    public func restore() {
        jobControl?.stop()
        modes.leave()
        modes.forget()
        terminal?.restore()
    }

    /// Sets a mode of the terminal with `enter` now, and puts it back with `leave` whenever the
    /// terminal is given back (a stop, the end); only on a terminal.
    public func setMode(enter: String, leave: String) -> Bool {
        guard terminal != nil else { return false }
        modes.add(enter: enter, leave: leave)
        return true
    }

    /// A signal came: the player hears it as Ctrl-C, at once.
    public func wake() { keys.push(Interruption.controlC) }

    deinit { restore() }

    public var now: ContinuousClock.Instant { clock.now }

    public func next(until deadline: ContinuousClock.Instant?) async -> PlayerEvent? {
        if let byte = keys.takeNow() { return .key(byte) }
        guard let deadline else {
            if case .key(let byte) = await keys.wait() { return .key(byte) }
            return nil
        }
        if keys.isClosed {
            // try?: sleeping throws only when the task is cancelled (the player is stopping):
            // the tick then comes early, and the caller looks at the time itself.
            try? await clock.sleep(until: deadline)
            return .tick
        }
        let keys = self.keys
        let clock = self.clock
        return await withTaskGroup(of: PlayerEvent?.self) { group in
            group.addTask {
                if case .key(let byte) = await keys.wait() { return .key(byte) }
                return nil
            }
            group.addTask {
                // try?: cancelled only when a key came first (or the player is stopping); the key
                // wins below, and a tick says no more than "look at the time".
                try? await clock.sleep(until: deadline)
                return .tick
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            keys.cancelWait()
            var result = first ?? .tick
            for await other in group {
                // A key that arrived as the deadline passed is not lost.
                if case .key(let byte) = other {
                    if case .key = result { keys.unread(byte) } else { result = .key(byte) }
                }
            }
            return result
        }
    }
}

/// Bytes read from the keyboard thread, waited for by the player.
///
/// `@unchecked Sendable` is safe: every stored property is read and written only while `lock`
/// is held, and continuations are resumed outside it.
final class KeyBuffer: @unchecked Sendable {
    enum Wait {
        case key(UInt8)
        case closed, cancelled
    }

    private let lock = NSLock()
    private var pending: [UInt8] = []
    private var closed = false
    private var waiter: CheckedContinuation<Wait, Never>?

    var isClosed: Bool { lock.withLock { closed } }

    func push(_ byte: UInt8) {
        let waiting: CheckedContinuation<Wait, Never>? = lock.withLock {
            if let waiter {
                self.waiter = nil
                return waiter
            }
            pending.append(byte)
            return nil
        }
        waiting?.resume(returning: .key(byte))
    }

    func unread(_ byte: UInt8) { lock.withLock { pending.insert(byte, at: 0) } }

    func close() {
        let waiting: CheckedContinuation<Wait, Never>? = lock.withLock {
            closed = true
            defer { waiter = nil }
            return waiter
        }
        waiting?.resume(returning: .closed)
    }

    func takeNow() -> UInt8? {
        lock.withLock { pending.isEmpty ? nil : pending.removeFirst() }
    }

    func wait() async -> Wait {
        await withCheckedContinuation { continuation in
            let immediate: Wait? = lock.withLock {
                if !pending.isEmpty { return .key(pending.removeFirst()) }
                if closed { return .closed }
                waiter = continuation
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    func cancelWait() {
        let waiting: CheckedContinuation<Wait, Never>? = lock.withLock {
            defer { waiter = nil }
            return waiter
        }
        waiting?.resume(returning: .cancelled)
    }
}

/// Terminal modes set by escape sequences, written straight to standard output.
///
/// `@unchecked Sendable` is safe: `list` is read and written only while `lock` is held.
final class TerminalModes: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [(enter: String, leave: String)] = []

    func add(enter: String, leave: String) {
        lock.withLock { list.append((enter, leave)) }
        Self.send(enter)
    }

    func enter() { for mode in lock.withLock({ list }) { Self.send(mode.enter) } }
    func leave() { for mode in lock.withLock({ list }).reversed() { Self.send(mode.leave) } }
    func forget() { lock.withLock { list = [] } }

    private static func send(_ text: String) {
        let bytes = Array(text.utf8)
        // A terminal that cannot be written to has no mode to set; nothing else depends on it.
        _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }
}

/// Single-key input without echo, and back.
final class TerminalMode: @unchecked Sendable {
    // `@unchecked Sendable`: `original` is set once in init and only read afterwards; `lock`
    // guards `isRaw`.
    private let descriptor: Int32
    private let original: termios
    private let lock = NSLock()
    private var isRaw = false

    init?(descriptor: Int32) {
        guard isatty(descriptor) == 1 else { return nil }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { return nil }
        self.descriptor = descriptor
        self.original = settings
    }

    func enterSingleKeyMode() {
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        lock.withLock {
            if tcsetattr(descriptor, TCSANOW, &raw) == 0 { isRaw = true }
        }
    }

    func restore() {
        lock.withLock {
            guard isRaw else { return }
            var settings = original
            _ = tcsetattr(descriptor, TCSANOW, &settings)
            isRaw = false
        }
    }
}

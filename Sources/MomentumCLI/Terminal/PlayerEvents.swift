import Foundation

/// What a terminal player reacts to: a key, or time passing to the moment it asked to wake at.
public enum PlayerEvent: Sendable, Equatable {
    /// The deadline the player gave has come (or something woke it early; it recomputes anyway).
    case tick
    /// A key the person pressed, as the byte the terminal sent.
    case key(UInt8)
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
}

extension PlayerEventSource {
    /// Puts the terminal back as it was; sources that never touched it have nothing to do.
    public func restore() {}
}

/// Whether the person pressed Ctrl-C during the command: it then exits with 130, as after SIGINT.
final class Interruption: @unchecked Sendable {
    // Only read and written while `lock` is held.
    private let lock = NSLock()
    private var pressed = false

    /// The exit status of a command interrupted by Ctrl-C (128 + SIGINT).
    static let exitStatus: Int32 = 130
    /// The byte Ctrl-C sends when the terminal is raw (signals off, so players read it as a key).
    static let controlC: UInt8 = 3

    var happened: Bool { lock.withLock { pressed } }
    func note() { lock.withLock { pressed = true } }
}

/// A player's event source that turns Ctrl-C into what SIGINT would do, after saving: the key
/// reaches the player (which ends the practice, as every player ends on it), and from then on no
/// key can come — so nothing more is asked (an early stop that counts is kept) — and the command
/// exits with 130.
struct InterruptibleEvents: PlayerEventSource {
    let source: any PlayerEventSource
    let interruption: Interruption

    var now: ContinuousClock.Instant { source.now }

    func next(until deadline: ContinuousClock.Instant?) async -> PlayerEvent? {
        if interruption.happened { return nil }
        let event = await source.next(until: deadline)
        if event == .key(Interruption.controlC) { interruption.note() }
        return event
    }

    func restore() { source.restore() }
}

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
}

import Foundation

/// How many wrong guesses a way in forgives, and how long one waits after that.
///
/// The first `forgivenFailures` wrong PINs, pairing codes or tokens in a row cost nothing (a
/// person mistypes); each one after doubles the wait, from `firstWait` up to `longestWait`. A key
/// with no wrong guess for `memory` starts afresh, and a right guess clears it.
///
/// ```swift
/// let backoff = AttemptBackoff()
/// backoff.wait(afterFailures: 5)    // .zero
/// backoff.wait(afterFailures: 6)    // 1 s
/// backoff.wait(afterFailures: 9)    // 8 s
/// backoff.wait(afterFailures: 40)   // 15 min
/// ```
public struct AttemptBackoff: Sendable, Equatable {
    public var forgivenFailures = 5
    public var firstWait: Duration = .seconds(1)
    public var longestWait: Duration = .seconds(15 * 60)
    public var memory: Duration = .seconds(60 * 60)

    public init() {}

    /// The wait before the next attempt, after `failures` wrong guesses in a row.
    public func wait(afterFailures failures: Int) -> Duration {
        let beyond = failures - forgivenFailures
        guard beyond > 0 else { return .zero }
        // 2^(beyond-1) seconds, without overflowing for a determined attacker's count.
        let doublings = min(beyond - 1, 30)
        return min(longestWait, firstWait * (1 << doublings))
    }
}

/// The wrong guesses made under one key (a person's PIN, a client's address) and when.
public struct AttemptRecord: Sendable, Equatable {
    public private(set) var failures = 0
    public private(set) var lastFailure: Date?

    public init() {}

    /// When the next attempt may be made; nil when it may be made now.
    public func nextAttempt(after now: Date, backoff: AttemptBackoff) -> Date? {
        guard let lastFailure, !isForgotten(at: now, backoff: backoff) else { return nil }
        let allowed = lastFailure.addingTimeInterval(backoff.wait(afterFailures: failures).inSeconds)
        return allowed > now ? allowed : nil
    }

    /// Whether so long has passed since the last wrong guess that the record no longer counts.
    public func isForgotten(at now: Date, backoff: AttemptBackoff) -> Bool {
        guard let lastFailure else { return true }
        return now.timeIntervalSince(lastFailure) >= backoff.memory.inSeconds
    }

    public mutating func recordFailure(at now: Date, backoff: AttemptBackoff) {
        if isForgotten(at: now, backoff: backoff) { failures = 0 }
        failures += 1
        lastFailure = now
    }
}

import Foundation
import Hummingbird
import MomentumCore
import NIOCore
import Synchronization

/// Wrong guesses at the ways in — profile PINs, pairing codes, tokens at `/login` — counted per
/// person and per client address, with the waits of ``AttemptBackoff``: past them a guess is
/// answered 429 `too_many_attempts` with `Retry-After`, before it is checked.
///
/// Counts live in this process only: the terminal (`momentum token create`, `momentum pair`,
/// `momentum user pin`) is never limited, so no one on the network can lock the owner out of it,
/// and restarting the server forgets them. At most `capacity` keys are kept; when full, the
/// forgotten and then the oldest go first.
final class AttemptLimits: Sendable {
    enum Key: Hashable, Sendable {
        case person(String)
        case client(String)
    }

    let backoff: AttemptBackoff
    private let capacity: Int
    private let now: @Sendable () -> Date
    private let records = Mutex([Key: AttemptRecord]())

    init(backoff: AttemptBackoff = AttemptBackoff(), capacity: Int = 10_000, now: @escaping @Sendable () -> Date) {
        self.backoff = backoff
        self.capacity = capacity
        self.now = now
    }

    /// The keys of a guess made now: the client's address, and `person` when the guess is at one
    /// person's way in.
    static func keys(person: String? = nil) -> [Key] {
        [ClientConnection.current?.address.map(Key.client), person.map(Key.person)].compactMap { $0 }
    }

    /// Runs `guess` unless one of `keys` must wait; counts a failure when it throws an error
    /// `isWrongGuess` accepts, and clears the keys when it succeeds.
    func attempt<T>(
        _ keys: [Key], isWrongGuess: (any Error) -> Bool, _ guess: () async throws -> T
    ) async throws -> T {
        try admit(keys)
        do {
            let result = try await guess()
            records.withLock { records in for key in keys { records[key] = nil } }
            return result
        } catch {
            if isWrongGuess(error) { recordFailure(keys) }
            throw error
        }
    }

    /// How many keys are counted now.
    var keptKeys: Int { records.withLock { $0.count } }

    private func admit(_ keys: [Key]) throws(APIError) {
        let at = now()
        let until = records.withLock { records in
            keys.compactMap { records[$0]?.nextAttempt(after: at, backoff: backoff) }.max()
        }
        guard let until else { return }
        let seconds = max(1, Int(until.timeIntervalSince(at).rounded(.up)))
        var error = APIError(
            .tooManyRequests, code: "too_many_attempts", key: .apiTooManyAttempts, arguments: ["seconds": "\(seconds)"])
        error.headers[.retryAfter] = "\(seconds)"
        throw error
    }

    private func recordFailure(_ keys: [Key]) {
        let at = now()
        records.withLock { records in
            if records.count + keys.count > capacity { prune(&records, at: at) }
            for key in keys { records[key, default: AttemptRecord()].recordFailure(at: at, backoff: backoff) }
        }
    }

    private func prune(_ records: inout [Key: AttemptRecord], at now: Date) {
        records = records.filter { !$0.value.isForgotten(at: now, backoff: backoff) }
        let excess = records.count - capacity / 2
        guard excess > 0 else { return }
        let oldest = records.sorted { ($0.value.lastFailure ?? .distantPast) < ($1.value.lastFailure ?? .distantPast) }
        for (key, _) in oldest.prefix(excess) { records[key] = nil }
    }
}

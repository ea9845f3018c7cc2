import NIOCore
import Synchronization

/// Turns for rendering: at most `limits.concurrentRenders` at once; up to `limits.waitingRenders`
/// more wait in order for a turn (each at most `limits.longestWait`); the rest are turned away.
///
/// ```swift
/// let slot = try await slots.take()  // throws RenderSlots.Busy when there is no room
/// // … render; the turn passes on when `slot` is released
/// ```
///
/// A turn is a ``RenderSlot`` object that gives itself back when it is released, so a response
/// that is dropped before its body was written cannot keep a turn for ever. A render whose client
/// has read nothing for ``RenderLimits/stallGrace`` keeps its turn only while no one else needs
/// it: a request that finds every turn taken closes the connections of such renders, so their
/// turns pass to the waiting requests (no one can hold the renders by not reading them).
final class RenderSlots: Sendable {
    /// No turn now and no room to wait for one, or the wait was too long.
    struct Busy: Error, Equatable {}

    let limits: RenderLimits
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state = Mutex(State())
    /// The running renders' connections and when each last sent a chunk.
    private let holders = Mutex([UInt64: (connection: (any Channel)?, progressed: ContinuousClock.Instant)]())

    /// A waiter to resume, and how.
    private typealias Wakeup = (CheckedContinuation<Void, any Error>, Result<Void, any Error>)

    private struct State {
        var running = 0
        var nextWaiter: UInt64 = 0
        /// Waiters in order of arrival.
        var queue: [UInt64] = []
        var continuations: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        /// Outcomes decided before the waiter's continuation was stored.
        var outcomes: [UInt64: Result<Void, any Error>] = [:]

        /// Ends `waiter`'s wait; returns its continuation to resume (outside the lock) if stored yet.
        mutating func settle(_ waiter: UInt64, with outcome: Result<Void, any Error>) -> Wakeup? {
            queue.removeAll { $0 == waiter }
            guard let continuation = continuations.removeValue(forKey: waiter) else {
                outcomes[waiter] = outcome
                return nil
            }
            return (continuation, outcome)
        }
    }

    private enum Decision {
        case granted
        case wait(UInt64)
        case busy
    }

    init(limits: RenderLimits, now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.limits = limits
        self.now = now
    }

    /// Renders running now.
    var running: Int { state.withLock { $0.running } }

    /// Requests waiting for a turn now.
    var waiting: Int { state.withLock { $0.queue.count } }

    /// A turn to render for a response sent over `connection`, at once or after waiting; throws
    /// ``Busy`` or `CancellationError`.
    func take(connection: (any Channel)? = nil) async throws -> RenderSlot {
        if running >= limits.concurrentRenders { closeStalledRenders() }
        let decision: Decision = state.withLock { state in
            if state.running < limits.concurrentRenders {
                state.running += 1
                return .granted
            }
            guard state.queue.count < limits.waitingRenders else { return .busy }
            let waiter = state.nextWaiter
            state.nextWaiter += 1
            state.queue.append(waiter)
            return .wait(waiter)
        }
        switch decision {
        case .granted: return RenderSlot(slots: self, connection: connection)
        case .busy: throw Busy()
        case .wait(let waiter):
            let longestWait = limits.longestWait
            let timeout = Task { [weak self] in
                try await Task.sleep(for: longestWait)
                self?.giveUp(waiter, because: Busy())
            }
            defer { timeout.cancel() }
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let decided = state.withLock { state in
                        let outcome = state.outcomes.removeValue(forKey: waiter)
                        if outcome == nil { state.continuations[waiter] = continuation }
                        return outcome
                    }
                    if let decided { continuation.resume(with: decided) }
                }
            } onCancel: {
                giveUp(waiter, because: CancellationError())
            }
            // The turn was handed over by `release()`, already counted as running.
            return RenderSlot(slots: self, connection: connection)
        }
    }

    /// Closes the connections of running renders whose clients have read nothing for the grace.
    private func closeStalledRenders() {
        let at = now()
        let stalled = holders.withLock { holders in
            holders.values.filter { at - $0.progressed >= limits.stallGrace }.compactMap(\.connection)
        }
        for connection in stalled { connection.close(promise: nil) }
    }

    fileprivate func hold(_ id: UInt64, connection: (any Channel)?) {
        let at = now()
        holders.withLock { $0[id] = (connection, at) }
    }

    fileprivate func progressed(_ id: UInt64) {
        let at = now()
        holders.withLock { $0[id]?.progressed = at }
    }

    fileprivate func nextHolderID() -> UInt64 {
        state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
    }

    /// Hands the turn to the first waiter, or frees it.
    fileprivate func release(_ id: UInt64) {
        holders.withLock { _ = $0.removeValue(forKey: id) }
        let handover = state.withLock { state -> Wakeup? in
            guard let first = state.queue.first else {
                state.running -= 1
                return nil
            }
            return state.settle(first, with: .success(()))
        }
        if let (continuation, outcome) = handover { continuation.resume(with: outcome) }
    }

    /// Ends a wait that has not been granted yet; a granted one keeps its turn.
    private func giveUp(_ waiter: UInt64, because error: any Error) {
        let ended = state.withLock { state -> Wakeup? in
            state.queue.contains(waiter) ? state.settle(waiter, with: .failure(error)) : nil
        }
        if let (continuation, outcome) = ended { continuation.resume(with: outcome) }
    }
}

/// One turn to render; given back to its ``RenderSlots`` when the last reference goes.
final class RenderSlot: Sendable {
    private let slots: RenderSlots
    private let id: UInt64

    fileprivate init(slots: RenderSlots, connection: (any Channel)?) {
        self.slots = slots
        id = slots.nextHolderID()
        slots.hold(id, connection: connection)
    }

    /// The client read another chunk: the render is not stalled.
    func progressed() {
        slots.progressed(id)
    }

    deinit {
        slots.release(id)
    }
}

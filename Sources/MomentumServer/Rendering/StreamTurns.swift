import MomentumCore
import NIOCore
import Synchronization

/// Turns for audio streams, shared fairly by the household: at most `limit` at once, and at most
/// `perPerson` of them for one person (half, at least one), so no one can hold them all.
///
/// A stream whose client has read nothing for `stallGrace` (a paused player, or someone who opens
/// streams and never reads them) keeps its turn only while no one else needs it: a request that
/// finds no turn takes the turn of the stream stalled longest — its own person's first when it
/// is that person's share that is full — and that stream's connection is closed (a player that
/// resumes asks again with a `Range`).
final class StreamTurns: Sendable {
    let limit: Int
    let perPerson: Int
    let stallGrace: Duration
    private let now: @Sendable () -> ContinuousClock.Instant

    private struct Holder {
        var person: Person.ID
        var connection: (any Channel)?
        /// When the stream last sent a chunk (or began).
        var progressed: ContinuousClock.Instant
    }

    private struct State {
        var holders: [UInt64: Holder] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    init(
        limit: Int, stallGrace: Duration = .seconds(60),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.limit = limit
        self.perPerson = max(1, limit / 2)
        self.stallGrace = stallGrace
        self.now = now
    }

    /// A turn for `person`'s stream sent over `connection`, or `nil` when there is none to give.
    func take(for person: Person.ID, connection: (any Channel)?) -> StreamTurn? {
        let at = now()
        let (id, victim) = state.withLock { state -> (UInt64?, (any Channel)?) in
            var victim: (any Channel)?
            let mine = state.holders.filter { $0.value.person == person }
            if mine.count >= perPerson {
                guard let stalled = stalledLongest(in: mine, at: at) else { return (nil, nil) }
                victim = state.holders.removeValue(forKey: stalled)?.connection
            } else if state.holders.count >= limit {
                guard let stalled = stalledLongest(in: state.holders, at: at) else { return (nil, nil) }
                victim = state.holders.removeValue(forKey: stalled)?.connection
            }
            let id = state.nextID
            state.nextID += 1
            state.holders[id] = Holder(person: person, connection: connection, progressed: at)
            return (id, victim)
        }
        victim?.close(promise: nil)
        return id.map { StreamTurn(turns: self, id: $0) }
    }

    /// Streams being sent now.
    var count: Int { state.withLock { $0.holders.count } }

    fileprivate func progressed(_ id: UInt64) {
        let at = now()
        state.withLock { state in state.holders[id]?.progressed = at }
    }

    fileprivate func release(_ id: UInt64) {
        state.withLock { state in _ = state.holders.removeValue(forKey: id) }
    }

    private func stalledLongest(in holders: [UInt64: Holder], at now: ContinuousClock.Instant) -> UInt64? {
        holders.filter { now - $0.value.progressed >= stallGrace }.min { $0.value.progressed < $1.value.progressed }?
            .key
    }
}

/// One stream's turn; given back when the last reference goes.
final class StreamTurn: Sendable {
    private let turns: StreamTurns
    private let id: UInt64

    fileprivate init(turns: StreamTurns, id: UInt64) {
        self.turns = turns
        self.id = id
    }

    /// The client read another chunk: the stream is not stalled.
    func progressed() {
        turns.progressed(id)
    }

    deinit {
        turns.release(id)
    }
}

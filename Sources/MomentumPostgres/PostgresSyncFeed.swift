import Foundation
import MomentumCore
import PostgresNIO
import Synchronization

/// The observers of each person's sync log on one ``PostgresStore``: they hear every change
/// logged for their person by any server on the database, in log order, each once.
///
/// Every transaction that logs sends `NOTIFY` with `person:head` (``PostgresSyncReplica``); the
/// first observer starts one ``PostgresNotifier`` for the store. A notification for a watched
/// person past what was delivered — or the notifier's ``PostgresNotifier/Event/mayHaveMissed``,
/// for everyone — makes the feed read that person's log after the last delivered sequence number
/// and hand the rows on. Starting the notifier, reading and calling observers happen one at a time
/// in the feed's own task (never on the listening connection's event loop), so each change is
/// delivered once and in order.
final class PostgresSyncFeed: Sendable {
    typealias Observer = @Sendable ([LoggedChange]) -> Void

    private struct Watch {
        var observers: [Observer]
        /// The last sequence number handed out; `nil` while the log's head could not be read.
        var delivered: Int64?
    }

    private struct State {
        var notifier: PostgresNotifier?
        var watches: [Person.ID: Watch] = [:]
        var isClosed = false
    }

    private let state = Mutex(State())
    /// The feed's work, done one job at a time, in order, by one task.
    private let jobs: AsyncStream<@Sendable () async -> Void>.Continuation
    /// Rows read at a time while catching up.
    static let pageSize = 500
    /// How long a notifier that could not start waits before it tries again.
    static let retryDelay: Duration = .seconds(1)

    /// The task doing the jobs; it ends when the feed is closed or dropped.
    let worker: Task<Void, Never>

    init() {
        let (stream, jobs) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self)
        self.jobs = jobs
        worker = Task {
            for await job in stream { await job() }
        }
    }

    /// A stream whose continuation is dropped unfinished never ends, nor would its task.
    deinit { jobs.finish() }

    /// Runs `job` after the feed's earlier jobs; `false` (and it never runs) once the feed is closed.
    @discardableResult
    private func enqueue(_ job: @escaping @Sendable () async -> Void) -> Bool {
        if case .terminated = jobs.yield(job) { return false }
        return true
    }

    /// Adds `observer` for `personID`'s log: it hears what is logged from now on.
    func observe(_ personID: Person.ID, in store: PostgresStore, _ observer: @escaping Observer) async {
        await startListening(store)
        // Read after listening: what commits later is notified, what committed before is not new.
        // try?: a head that cannot be read (the database unreachable) is read again at the next
        // announcement (``catchUp(_:in:)``); guessing 0 would hand the whole log out as new.
        let head = try? await store.scoped(to: personID).syncHead()
        state.withLock { state in
            if state.watches[personID] == nil {
                state.watches[personID] = Watch(observers: [observer], delivered: head)
            } else {
                state.watches[personID]?.observers.append(observer)
            }
        }
    }

    /// The listening connection's server process, while listening (for tests).
    var listenerBackendPID: Int32? { state.withLock { $0.notifier }?.listenerBackendPID }

    func close() {
        let notifier = state.withLock { state in
            state.isClosed = true
            state.watches = [:]
            defer { state.notifier = nil }
            return state.notifier
        }
        notifier?.close()
        jobs.finish()
    }

    /// Starts the store's notifier unless it runs. A failure (the database unreachable) is tried
    /// again a second later, and once it listens every watched person is caught up (what was
    /// logged meanwhile was not notified to this server).
    private func startListening(_ store: PostgresStore) async {
        // One start at a time, in the feed's task: two first observers start one notifier.
        await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
            let queued = enqueue {
                await self.startNotifier(store)
                started.resume()
            }
            // A closed feed starts nothing.
            if !queued { started.resume() }
        }
    }

    private func startNotifier(_ store: PostgresStore) async {
        guard state.withLock({ $0.notifier == nil && !$0.isClosed }) else { return }
        // try?: a notifier that cannot start is tried again a second later, just below
        guard let notifier = try? await PostgresNotifier.start(store) else {
            Task { [weak self] in
                // try?: a cancelled wait only tries sooner
                try? await Task.sleep(for: Self.retryDelay)
                self?.enqueue { [weak self] in
                    await self?.startNotifier(store)
                    await self?.catchUpEveryone(in: store)
                }
            }
            return
        }
        notifier.subscribe { [weak self] event in
            guard let self else { return }
            switch event {
            case .notified(let payload):
                guard let (personID, head) = Self.parse(payload) else { return }
                let behind = self.state.withLock { state in
                    state.watches[personID].map { watch in watch.delivered.map { $0 < head } ?? true } ?? false
                }
                if behind { self.enqueue { await self.catchUp(personID, in: store) } }
            case .mayHaveMissed:
                self.enqueue { await self.catchUpEveryone(in: store) }
            }
        }
        let kept = state.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            state.notifier = notifier
            return true
        }
        if !kept { notifier.close() }
    }

    /// `person:head`, as ``PostgresSyncReplica/finish()`` sends it; `nil` for anything else on
    /// the channel.
    static func parse(_ payload: String) -> (Person.ID, Int64)? {
        let parts = payload.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let person = Person.ID(parts[0]), let head = Int64(parts[1]) else { return nil }
        return (person, head)
    }

    private func catchUpEveryone(in store: PostgresStore) async {
        for personID in state.withLock({ Array($0.watches.keys) }) { await catchUp(personID, in: store) }
    }

    /// Reads the person's log after what was delivered and hands it to their observers (on the
    /// feed's queue). A failed read stops here: the next notification catches up. A watch whose
    /// head was never read starts at the head read now: what came before reached no observer, and
    /// the live feed is only a hint — a client pulls from the head it is told when it connects.
    private func catchUp(_ personID: Person.ID, in store: PostgresStore) async {
        while let watched = state.withLock({ $0.watches[personID].map(\.delivered) }) {
            guard let delivered = watched else {
                // try?: an unreadable head stays unknown until the next announcement.
                guard let head = try? await store.scoped(to: personID).syncHead() else { return }
                state.withLock { $0.watches[personID]?.delivered = head }
                return
            }
            let person = store.scoped(to: personID)
            // try?: a failed read stops here; the next announcement catches up from `delivered`.
            let read = try? await person.loggedChanges(after: delivered, limit: Self.pageSize)
            guard let page = read, let last = page.last else { return }
            let observers = state.withLock { state -> [Observer] in
                state.watches[personID]?.delivered = last.seq
                return state.watches[personID]?.observers ?? []
            }
            for observer in observers { observer(page) }
            if page.count < Self.pageSize { return }
        }
    }
}

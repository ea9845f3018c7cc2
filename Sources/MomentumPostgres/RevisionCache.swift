import MomentumCore
import MomentumStoreContract
import Synchronization

/// Each person's store revision as last read (``PostgresPersonStore/logRevision()``): what every
/// progress answer is cached by, so that a server answering from its cache asks PostgreSQL nothing.
///
/// A value is kept only while this process listens for the announcements of every server
/// (`revision:PERSON`, sent by the revision trigger on commit — schema v11) and is forgotten
/// when one comes for its person, when this process writes anything, when the listening
/// connection was lost (``PostgresNotifier/Event/mayHaveMissed``), and in any case after
/// `maximumAge`: the bound of what a lost announcement — or a change made by a connection that
/// announces nothing, like psql — can hide. Until the listener runs, every call reads.
///
/// A read that raced with a change never keeps what it read: every forgetting moves the
/// generation, and a value read in an older generation is dropped (as ``PeopleCache`` does).
final class RevisionCache: Sendable {
    private struct State {
        var values: [Person.ID: (revision: Int64, readAt: ContinuousClock.Instant)] = [:]
        var generation = 0
        var notifier: PostgresNotifier?
        var isStarting = false
        var isClosed = false
    }

    private let state = Mutex(State())
    let maximumAge: Duration
    /// How long a listener that could not start waits before it tries again.
    static let retryDelay: Duration = .seconds(1)

    init(maximumAge: Duration) { self.maximumAge = maximumAge }

    /// The person's revision: kept, else read by `read` (and kept when nothing changed meanwhile).
    func revision(
        of personID: Person.ID, in store: PostgresStore, read: () async throws(StoreError) -> Int64
    ) async throws(StoreError) -> Int64 {
        let (kept, generation, isListening) = state.withLock { state in
            let value = state.values[personID].flatMap { value in
                ContinuousClock.now - value.readAt < maximumAge ? value.revision : nil
            }
            return (value, state.generation, state.notifier != nil)
        }
        if let kept { return kept }
        guard isListening else {
            await startListening(store)
            return try await read()
        }
        let revision = try await read()
        state.withLock { state in
            guard state.generation == generation, state.notifier != nil else { return }
            state.values[personID] = (revision, .now)
        }
        return revision
    }

    /// Whether announcements are heard (until then nothing is kept).
    var isListening: Bool { state.withLock { $0.notifier != nil } }

    /// Forgets every kept revision (this process wrote something).
    func forget() {
        state.withLock { state in
            state.values = [:]
            state.generation += 1
        }
    }

    /// Forgets the person's revision (a server announced a change of it).
    private func forget(_ personID: Person.ID) {
        state.withLock { state in
            state.values[personID] = nil
            state.generation += 1
        }
    }

    /// Stops listening and keeps nothing from now on.
    func close() {
        let notifier = state.withLock { state in
            state.isClosed = true
            state.values = [:]
            state.generation += 1
            defer { state.notifier = nil }
            return state.notifier
        }
        notifier?.close()
    }

    /// `revision:PERSON`, as the trigger announces it; `nil` for anything else on the channel.
    static func person(announcedIn payload: String) -> Person.ID? {
        guard payload.hasPrefix("revision:") else { return nil }
        return Person.ID(payload.dropFirst("revision:".count))
    }

    /// Starts the listener in the background, once (the caller reads meanwhile); one that could
    /// not connect tries again a second later, at the next call after that.
    private func startListening(_ store: PostgresStore) async {
        let starts = state.withLock { state in
            guard state.notifier == nil, !state.isStarting, !state.isClosed else { return false }
            state.isStarting = true
            return true
        }
        guard starts else { return }
        Task { [weak self] in
            // try?: a notifier that cannot connect is started again a second later, at the next call after that
            let notifier = try? await PostgresNotifier.start(store)
            notifier?.subscribe { [weak self] event in
                switch event {
                case .notified(let payload):
                    if let personID = Self.person(announcedIn: payload) { self?.forget(personID) }
                case .mayHaveMissed: self?.forget()
                }
            }
            guard let self else {
                notifier?.close()
                return
            }
            if notifier == nil {
                // try?: a cancelled wait only lets the next call try sooner
                try? await Task.sleep(for: Self.retryDelay)
                self.state.withLock { $0.isStarting = false }
                return
            }
            let kept = self.state.withLock { state -> Bool in
                state.isStarting = false
                guard !state.isClosed else { return false }
                state.notifier = notifier
                return true
            }
            if !kept { notifier?.close() }
        }
    }
}

import MomentumCore
import Synchronization

/// The household's people as last read, for at most a given age; forgotten at once when this
/// process changes them (``PostgresStore/people()``).
///
/// A read that raced with a change never keeps what it read: every change moves the generation,
/// and a list read in an older generation is dropped.
final class PeopleCache: Sendable {
    private struct State {
        var people: [Person]?
        var readAt = ContinuousClock.Instant.now
        var generation = 0
    }

    private let state = Mutex(State())

    /// The list if it is younger than `maximumAge`, and the generation a fresh read belongs to.
    func current(maximumAge: Duration) -> (people: [Person]?, generation: Int) {
        state.withLock { state in
            guard let people = state.people, ContinuousClock.now - state.readAt < maximumAge else {
                return (nil, state.generation)
            }
            return (people, state.generation)
        }
    }

    /// Keeps `people`, read in `generation`, unless a change came since.
    func keep(_ people: [Person], readIn generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            state.people = people
            state.readAt = .now
        }
    }

    /// Forgets the list (after this process changed it).
    func forget() {
        state.withLock { state in
            state.people = nil
            state.generation += 1
        }
    }
}

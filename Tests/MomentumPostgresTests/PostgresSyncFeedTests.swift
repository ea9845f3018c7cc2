import Synchronization
import Testing

@testable import MomentumPostgres

/// The feed's own task (which runs its jobs one at a time) ends with the feed: closed, or dropped
/// without being closed — a store that failed to open is never closed by its caller.
@Suite("PostgreSQL: the sync feed's task")
struct PostgresSyncFeedTests {
    @Test func aClosedFeedEndsItsTask() async {
        let feed = PostgresSyncFeed()
        feed.close()
        #expect(await Self.ends(feed.worker))
    }

    @Test func aDroppedFeedEndsItsTask() async {
        var feed: PostgresSyncFeed? = PostgresSyncFeed()
        guard let worker = feed?.worker else { return }
        feed = nil
        #expect(await Self.ends(worker))
    }

    /// Whether `task` ends within 30 s (a deadline, not a wait for the result: a task that ends
    /// answers at once; one that never ends cannot be cancelled, so it is not awaited).
    private static func ends(_ task: Task<Void, Never>) async -> Bool {
        await withCheckedContinuation { continuation in
            let pending = Mutex<CheckedContinuation<Bool, Never>?>(continuation)
            let answer: @Sendable (Bool) -> Void = { ended in pending.withLock { $0.take() }?.resume(returning: ended) }
            Task {
                await task.value
                answer(true)
            }
            Task {
                // try?: a cancelled deadline answers sooner, still `false`
                try? await Task.sleep(for: .seconds(30))
                answer(false)
            }
        }
    }
}

import Dispatch
import Foundation
import Testing

@testable import MomentumServer

/// The threads requests wait for PostgreSQL on: their own, so that a request blocked in the
/// store never stops the others.
@Suite("Store threads: requests that block wait on threads of the server's own")
struct StoreThreadsTests {
    /// The threads every test of this target shares (a server keeps its threads for good).
    static let threads = StoreThreads(count: 4)

    /// Whether an async function (a handler) runs on store threads.
    static func onStoreThread() async -> Bool { StoreThreads.isCurrent }

    /// Blocks the thread an async function runs on, as a store call waiting for the database
    /// does, once it said it started.
    static func block(on semaphore: DispatchSemaphore, started: DispatchSemaphore) async {
        started.signal()
        waitBlocking(semaphore)
    }

    static func wait(for semaphore: DispatchSemaphore, times: Int = 1) async {
        for _ in 0..<times { waitBlocking(semaphore) }
    }

    private static func waitBlocking(_ semaphore: DispatchSemaphore) { semaphore.wait() }

    @Test func workPreferringTheThreadsRunsOnThem() async {
        let onThem = await withTaskExecutorPreference(Self.threads) { await Self.onStoreThread() }
        #expect(onThem)
        #expect(await Self.onStoreThread() == false)
    }

    @Test func requestsBlockedInTheStoreLeaveTheOtherThreadsWorking() async throws {
        let threads = StoreThreads(count: 3)
        let (release, started) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        // Two requests block their threads, as a store call waiting for the database does.
        async let first: Void = withTaskExecutorPreference(threads) {
            await Self.block(on: release, started: started)
        }
        async let second: Void = withTaskExecutorPreference(threads) {
            await Self.block(on: release, started: started)
        }
        await withTaskExecutorPreference(threads) { await Self.wait(for: started, times: 2) }
        // A third still runs, on the thread that is left.
        let answered = await withTaskExecutorPreference(threads) { await Self.onStoreThread() }
        #expect(answered)
        release.signal()
        release.signal()
        _ = await (first, second)
    }
}

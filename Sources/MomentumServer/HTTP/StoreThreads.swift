import Foundation
import Hummingbird

/// Threads of the server's own that requests run on when every store call blocks its thread
/// until another process answers (PostgreSQL, see `docs/postgres.md`).
///
/// The store's calls are synchronous, like SQLite's, so a request waiting for PostgreSQL holds
/// its thread meanwhile. On Swift's own threads — as many as the machine has cores — two
/// requests waiting would stop the whole server; on these (``defaultCount`` of them) other
/// requests go on while some wait. SQLite answers from the same process within microseconds and
/// keeps Swift's threads.
public final class StoreThreads: TaskExecutor, @unchecked Sendable {
    /// As many as the store's pool has connections: more would only wait for one, and every
    /// thread that runs takes its share of a core PostgreSQL may need too.
    public static let defaultCount = 8

    // `jobs` is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var next = 0

    public init(count: Int = defaultCount) {
        for index in 0..<max(1, count) {
            let thread = Thread { [unowned self] in
                Thread.current.threadDictionary[Self.marker] = index
                self.work()
            }
            thread.name = "momentum-store-\(index)"
            thread.start()
        }
    }

    private static let marker = "momentum.store-thread"

    /// Whether the calling code runs on one of the threads of a ``StoreThreads``.
    static var isCurrent: Bool { Thread.current.threadDictionary[marker] != nil }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs as they come, for the life of the process (the server keeps its threads).
    private func work() {
        while true {
            condition.lock()
            while next == jobs.count { condition.wait() }
            let job = jobs[next]
            next += 1
            if next == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                next = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs each request on ``StoreThreads`` (what it awaits that belongs to no actor goes on there too).
struct StoreThreadsMiddleware<Context: RequestContext>: RouterMiddleware {
    let threads: StoreThreads

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        try await withTaskExecutorPreference(threads) { try await next(request, context) }
    }
}

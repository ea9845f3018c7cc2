import Dispatch

/// A task executor on a serial Dispatch queue of its own. Async work that still blocks the thread
/// it runs on — a backup's SQLite reads and its archive's file work — runs there, in a task that
/// prefers it, instead of on the cooperative pool's few threads that answer every other request.
/// Its steps that await (PostgreSQL's answers) come back to it.
///
/// ```swift
/// let archive = await Task(executorPreference: DispatchTaskExecutor(label: "momentum.backup")) {
///     await backup.writeArchive(to: url)
/// }.value
/// ```
///
/// The queue targets Dispatch's overcommitting pool, so the work always gets a thread; the
/// executor and its queue end with the work that holds them.
final class DispatchTaskExecutor: TaskExecutor {
    private static let labelKey = DispatchSpecificKey<String>()
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label, qos: .utility)
        queue.setSpecific(key: Self.labelKey, value: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// The label of the executor whose queue runs the caller, `nil` on any other thread.
    static var current: String? { DispatchQueue.getSpecific(key: labelKey) }
}

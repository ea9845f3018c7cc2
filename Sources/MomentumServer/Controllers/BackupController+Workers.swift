import MomentumServices

/// Where a backup's work runs: never on the threads that answer every other request.
extension BackupController {
    /// What `work` gave, or why it failed. The work runs on a thread of its own
    /// (``DispatchTaskExecutor``): on SQLite the backup's reads and the archive's file work block
    /// the thread they run on while they last, and must not hold up the cooperative pool's
    /// threads that answer every other request.
    ///
    /// A task of its own starts there: `withTaskExecutorPreference` alone may run the work's first
    /// steps on the caller's thread, up to its first suspension.
    static func result<Value: Sendable>(
        _ work: @escaping @Sendable () async throws(BackupFailure) -> Value
    ) async -> Result<Value, BackupFailure> {
        await Task(executorPreference: DispatchTaskExecutor(label: workerLabel)) {
            () async -> Result<Value, BackupFailure> in
            do throws(BackupFailure) {
                return .success(try await work())
            } catch {
                return .failure(error)
            }
        }.value
    }

    /// The label of the queue backup work runs on.
    static let workerLabel = "momentum.backup"
}

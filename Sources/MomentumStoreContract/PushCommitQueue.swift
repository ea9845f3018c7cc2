import Dispatch
import Foundation
import MomentumCore
import Synchronization

/// Group commit for pushes: batches that arrive while a transaction is being written wait
/// together and are merged in the next transaction, so many devices pushing at once cost one
/// commit (one `fsync` of the write-ahead log) per group instead of one each.
///
/// A pushing request waits without holding a thread: its task is suspended on a continuation,
/// and the merging runs on this queue's own thread. (Waiting on the database writer from a
/// request's task would block one of the few threads Swift's concurrency runs every request on,
/// and the server's reads with it.)
public final class PushCommitQueue: Sendable {
    public typealias Outcome = Result<[Int64?], SyncError>

    private struct Waiting {
        var changes: [Change]
        var now: Date
        var resume: @Sendable (Outcome) -> Void
    }

    private struct State {
        var waiting: [Waiting] = []
        var isDraining = false
    }

    /// At most this many changes go into one transaction (a group of pushes of up to 1000 each).
    static let changesPerGroup = 5000

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "momentum.sync.push-commit")

    /// Waits for the batch's turn in a group and answers its outcome. `merge` merges a group,
    /// each batch on its own (``MomentumDatabase/acceptPushes(_:at:)``, or a PostgreSQL person's); `afterwards` runs after
    /// each group has been answered (compaction). The queue belongs to one database, so every
    /// caller passes the same two.
    public init() {}

    public func accept(
        _ changes: [Change], at now: Date, merging merge: @escaping @Sendable ([[Change]], Date) -> [Outcome],
        afterwards: @escaping @Sendable () -> Void
    ) async -> Outcome {
        await withCheckedContinuation { continuation in
            if enqueue(changes, at: now, resume: { continuation.resume(returning: $0) }) {
                queue.async { self.drain(merge, afterwards) }
            }
        }
    }

    /// ``accept(_:at:merging:afterwards:)`` for a store whose merge is awaited (PostgreSQL): the
    /// groups are merged by a detached task of high priority, which holds no thread while the
    /// database answers.
    public func accept(
        _ changes: [Change], at now: Date,
        mergingAwaited merge: @escaping @Sendable ([[Change]], Date) async -> [Outcome],
        afterwards: @escaping @Sendable () async -> Void
    ) async -> Outcome {
        await withCheckedContinuation { continuation in
            if enqueue(changes, at: now, resume: { continuation.resume(returning: $0) }) {
                // Ahead of the requests' own work: while a group merges it holds the person's
                // replica row, and every step of it that waits behind a request keeps every
                // other server's pushes of the person waiting too. Detached: the group belongs to
                // no one request, so it takes none of the first one's task-locals (its
                // `DeviceName` would label the changes a first merge seeds).
                Task.detached(priority: .high) {
                    while let group = self.takeGroup(), let latest = group.map(\.now).max() {
                        let outcomes = await merge(group.map(\.changes), latest)
                        for (waiting, outcome) in zip(group, outcomes) { waiting.resume(outcome) }
                        await afterwards()
                    }
                }
            }
        }
    }

    /// Puts a batch in line; whether the caller starts merging (nobody is).
    private func enqueue(_ changes: [Change], at now: Date, resume: @escaping @Sendable (Outcome) -> Void) -> Bool {
        state.withLock { state in
            state.waiting.append(Waiting(changes: changes, now: now, resume: resume))
            defer { state.isDraining = true }
            return !state.isDraining
        }
    }

    /// The next group to merge, `nil` (and merging stops) when nobody waits.
    private func takeGroup() -> [Waiting]? {
        state.withLock { state in
            var count = 0
            let taken = state.waiting.prefix { waiting in
                defer { count += waiting.changes.count }
                return count == 0 || count + waiting.changes.count <= Self.changesPerGroup
            }
            state.waiting.removeFirst(taken.count)
            if taken.isEmpty {
                state.isDraining = false
                return nil
            }
            return Array(taken)
        }
    }

    /// Merges groups until nobody waits.
    private func drain(_ merge: @Sendable ([[Change]], Date) -> [Outcome], _ afterwards: @Sendable () -> Void) {
        while let group = takeGroup(), let latest = group.map(\.now).max() {
            let outcomes = merge(group.map(\.changes), latest)
            for (waiting, outcome) in zip(group, outcomes) { waiting.resume(outcome) }
            afterwards()
        }
    }
}

import Foundation
import MomentumCore

/// The terminal's full replica of one person's data, the client side of `momentum sync`
/// (docs/sync.md): an outbox of local changes to push, pulled pages merged with their cursor.
/// Only SQLite keeps one; a person kept on PostgreSQL is a server's, never a client's.
public protocol TerminalReplicaStore: Sendable {
    /// Binds the replica to `serverURL`; a different server than before starts the pull over.
    func connectSyncServer(_ serverURL: String, at now: Date) throws(SyncError)
    /// The oldest local changes not pushed yet, at most `limit`.
    func pendingChanges(limit: Int) throws(StoreError) -> [LoggedChange]
    /// Forgets the pushed changes of the outbox.
    func acknowledgePushed(_ seqs: [Int64]) throws(StoreError)
    /// Merges a pulled page and moves the cursor to `cursor`, in one transaction.
    func applyPulled(_ page: [LoggedChange], cursor: Int64, at now: Date) throws(SyncError) -> SyncPullResult
    /// Notes that a sync ended now.
    func markSynced(at now: Date) throws(StoreError)
    /// The cursor, the server, the outbox's size and when a sync last ended.
    func syncStatus() throws(StoreError) -> SyncStatus
}

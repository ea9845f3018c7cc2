import Foundation
import MomentumCore

/// Why a sync step was refused; nothing of it was stored.
public enum SyncError: Error, Equatable, Sendable {
    /// A pushed batch with too many changes or a bad one (its index and reason).
    case batch(ChangeBatchError)
    /// A pull after a sequence number the log has not reached.
    case cursorBeyondHead(cursor: Int64, head: Int64)
    /// A pull with a cursor below 0 or a page size outside 1…1000.
    case invalidPage(after: Int64, limit: Int)
    /// A pulled change that is not valid (the server at `seq` sent it).
    case invalidPulledChange(seq: Int64, ChangeError)
    case store(StoreError)
}

extension ChangeBatch {
    /// A pushed batch checked whole (``validate(_:receivedAt:)``), refused as a ``SyncError``:
    /// what every store's merge of a push begins with.
    public static func checked(_ messages: [ChangeMessage], at now: Date) throws(SyncError) -> [Change] {
        do {
            return try validate(messages, receivedAt: now)
        } catch {
            throw .batch(error)
        }
    }
}

/// Bounds both stores keep alike.
public enum StoreLimits {
    /// How long a write waits for another writer (a long terminal import, say) before it fails
    /// with ``StoreError/busy``; what a refused request's `Retry-After` says.
    public static let busyTimeout: TimeInterval = 5
    /// The largest page of the sync log a pull gives.
    public static let maximumPullLimit = 1000
    /// Compaction runs once this many changes were logged since it last ran. (Runs every 250
    /// changes, 500 at most, were measured too: pushes' p99 under the benchmark's mixed load rose
    /// from 25.6 to about 30 ms — many short runs cost more than fewer long ones.)
    public static let compactionInterval: Int64 = 1000
    /// One run looks at no more than this many changes, so it holds the writer briefly (a few
    /// milliseconds); a long log not compacted before is caught up over several runs.
    public static let compactionChunk: Int64 = 5000
    /// How many synced rows a restore hands to the sync log at a time, and (SQLite) how many
    /// logged changes it tells observers about at most: a larger restore tells them only of its
    /// last change, and live clients, seeing the gap, pull (docs/sync.md).
    public static let restoreBatch = 1000
}

/// What the sync log holds: changes kept, the highest sequence number ever given (changes
/// ever logged, since numbers are never reused), and how far compaction has looked.
public struct SyncLogSize: Sendable, Equatable {
    public var kept: Int
    public var head: Int64
    public var compactedThrough: Int64

    public init(kept: Int, head: Int64, compactedThrough: Int64) {
        self.kept = kept
        self.head = head
        self.compactedThrough = compactedThrough
    }
}

/// A sync node id: `n-` and 16 hex digits. Each person's replica on a server has one.
public enum SyncNodeID {
    public static func random() -> String {
        let digits = String(UInt64.random(in: .min ... .max), radix: 16)
        return "n-" + String(repeating: "0", count: 16 - digits.count) + digits
    }
}

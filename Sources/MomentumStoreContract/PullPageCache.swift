import Foundation
import MomentumCore
import Synchronization

/// Pull pages (the route's JSON) that can no longer change, by cursor and page size.
///
/// The sync log only grows at its end: a page with changes after it holds the same changes for
/// as long as the log exists. Compaction may later delete some of them; a kept page then still
/// names them, which is harmless — each is a change that loses to one the puller gets anyway
/// (docs/sync.md, "Compaction") — and its `last` and `more` stay true. Pages at the head of the
/// log are not kept: the next change extends them.
///
/// At most ``byteLimit`` bytes are kept; the oldest page goes first.
public final class PullPageCache: Sendable {
    private struct Key: Hashable {
        var after: Int64
        var limit: Int
    }

    private struct State {
        var pages: [Key: Data] = [:]
        var order: [Key] = []
        var bytes = 0
    }

    static let byteLimit = 8 << 20

    private let state = Mutex(State())

    public init() {}

    public func page(after: Int64, limit: Int) -> Data? {
        state.withLock { $0.pages[Key(after: after, limit: limit)] }
    }

    public func keep(_ page: Data, after: Int64, limit: Int) {
        guard page.count <= Self.byteLimit else { return }
        let key = Key(after: after, limit: limit)
        state.withLock { state in
            guard state.pages[key] == nil else { return }
            while state.bytes + page.count > Self.byteLimit, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                state.bytes -= state.pages.removeValue(forKey: oldest)?.count ?? 0
            }
            state.pages[key] = page
            state.order.append(key)
            state.bytes += page.count
        }
    }
}

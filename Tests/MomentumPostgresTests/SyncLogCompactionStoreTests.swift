import Foundation
import MomentumCore
import MomentumServices
import MomentumStore
import MomentumStoreContract
import MomentumStoreTestSupport
import Testing

/// The sync log's compaction on both stores (docs/sync.md, "Compaction"): what SQLite's
/// `SyncCompactionTests` check, with the replicas' reference state pulled from an SQLite server
/// that never compacted.
@Suite("Sync log compaction on both stores")
struct SyncLogCompactionStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let nowMs = Int64(now.timeIntervalSince1970 * 1000)

    private struct Page: Decodable {
        var changes: [LoggedChange]
        var last: Int64
        var more: Bool
    }

    /// A replica as the core merges: a state and the cursor it has pulled to.
    private struct Replica {
        var state = ReplicaState()
        var cursor: Int64 = 0

        mutating func pull(from server: any SyncLogStore, pageSize: Int) async throws {
            while true {
                let json = try await server.pullPageJSON(
                    after: cursor, limit: pageSize, at: SyncLogCompactionStoreTests.now)
                let page = try JSONDecoder().decode(Page.self, from: json)
                for logged in page.changes { state.apply(try Change(logged.change)) }
                cursor = page.last
                if !page.more { return }
            }
        }
    }

    private func set(
        _ type: SyncEntityType, _ id: String, _ field: String, _ value: SyncValue, at milliseconds: Int64,
        node: String = "phone"
    ) throws -> ChangeMessage {
        ChangeMessage(
            try Change(
                entityType: type, entityID: id, operation: .set(field: field, value: value),
                stamp: try HybridTimestamp(physical: Self.nowMs - 60_000 + milliseconds, counter: 0, node: node),
                device: node))
    }

    private func delete(_ type: SyncEntityType, _ id: String, at milliseconds: Int64, node: String = "phone") throws
        -> ChangeMessage
    {
        ChangeMessage(
            try Change(
                entityType: type, entityID: id, operation: .delete,
                stamp: try HybridTimestamp(physical: Self.nowMs - 60_000 + milliseconds, counter: 0, node: node),
                device: node))
    }

    /// Random pushes out of stamp order, compacted at random moments; a replica pulling part-way
    /// and one pulling at the end both hold the state of one that saw every change pushed, and
    /// each change is answered with the number SQLite gives it.
    @Test(arguments: StoreKind.available)
    func replicasSyncingAfterCompactionConvergeToTheWholeLogsState(kind: StoreKind) async throws {
        var dropped = 0
        for seed in UInt64(1)...20 {
            var random = SeededRandomNumberGenerator(seed: seed)
            let timers = (0..<3).map { _ in UUID().uuidString.lowercased() }
            let items = (0..<4).map { _ in UUID().uuidString.lowercased() }
            let store = try await StoreUnderTest(kind)
            let whole = try await StoreUnderTest(.sqlite)
            var early = Replica()
            var reference = ReplicaState()
            var counter: Int64 = 0
            for _ in 0..<Int.random(in: 5...25, using: &random) {
                var batch: [ChangeMessage] = []
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    counter += 1
                    let node = ["phone", "laptop", "tablet"][Int.random(in: 0..<3, using: &random)]
                    let at = Int64.random(in: 0...60_000, using: &random)
                    let timer = timers[Int.random(in: 0..<3, using: &random)]
                    let item = items[Int.random(in: 0..<4, using: &random)]
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0..<2:
                        batch.append(
                            try set(.focusTimer, timer, "name", .string("T\(counter % 9)"), at: at, node: node))
                    case 2..<4:
                        batch.append(
                            try set(.focusTimer, timer, "sortOrder", .integer(counter % 5), at: at, node: node))
                    case 4: batch.append(try set(.checklistItem, item, "timerID", .string(timer), at: at, node: node))
                    case 5..<8:
                        batch.append(try set(.checklistItem, item, "done", .bool(counter % 2 == 0), at: at, node: node))
                    case 8: batch.append(try delete(.focusTimer, timer, at: at, node: node))
                    default: batch.append(try delete(.checklistItem, item, at: at, node: node))
                    }
                }
                let a = try? await store.syncLog.acceptPushGrouped(batch, at: Self.now)
                let b = try? await whole.syncLog.acceptPushGrouped(batch, at: Self.now)
                #expect(a == b)
                if b != nil { try reference.apply(batch, receivedAt: Self.now) }
                if Int.random(in: 0..<3, using: &random) == 0 {
                    try await early.pull(from: store.syncLog, pageSize: Int.random(in: 1...6, using: &random))
                }
                if Int.random(in: 0..<3, using: &random) == 0 { try await store.compaction.compactSyncLog() }
            }
            try await store.compaction.compactSyncLog()
            try await early.pull(from: store.syncLog, pageSize: 4)
            var late = Replica()
            try await late.pull(from: store.syncLog, pageSize: 5)
            #expect(early.state == reference, "seed \(seed): the replica that pulled part-way")
            #expect(late.state == reference, "seed \(seed): the replica that pulled after compaction")
            let size = try await store.compaction.syncLogSize()
            await #expect(size.head == (try whole.syncLog.syncHead()))
            dropped += Int(size.head) - size.kept
        }
        #expect(dropped > 100)
    }

    @Test(arguments: StoreKind.available)
    func aWriteBeatenByANewerOneGoesButTheNewestChangeAlwaysStays(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let server = store.syncLog
        let timer = UUID().uuidString.lowercased()
        _ = try await server.acceptPushGrouped(
            [try set(.focusTimer, timer, "name", .string("Tea"), at: 1)], at: Self.now)
        _ = try await server.acceptPushGrouped(
            [try set(.focusTimer, timer, "name", .string("Green tea"), at: 3)], at: Self.now)
        // The write that wins takes the one it beats from the log as it is merged.
        await #expect(try store.compaction.syncLogSize().kept == 1)
        // Arrives last with the oldest stamp: logged (at the head), beaten by the write before.
        let late = try await server.acceptPushGrouped(
            [try set(.focusTimer, timer, "name", .string("Old"), at: 2, node: "laptop")], at: Self.now)
        await #expect(try store.compaction.compactSyncLog() == 0)
        var replica = Replica()
        try await replica.pull(from: server, pageSize: 10)
        #expect(replica.cursor == 3)
        await #expect(try store.compaction.syncLogSize() == .init(kept: 2, head: 3, compactedThrough: 3))
        // The head was kept, so the next change gets a number no puller has seen.
        let next = try await server.acceptPushGrouped(
            [try set(.focusTimer, timer, "sortOrder", .integer(2), at: 4)], at: Self.now)
        #expect(next[0] == (late[0] ?? 0) + 1)
    }

    @Test(arguments: StoreKind.available)
    func aDeletionTakesTheEntitysWritesWithItButStays(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let server = store.syncLog
        let timer = UUID().uuidString.lowercased()
        _ = try await server.acceptPushGrouped(
            [
                try set(.focusTimer, timer, "name", .string("Tea"), at: 1),
                try set(.focusTimer, timer, "sortOrder", .integer(1), at: 2),
            ], at: Self.now)
        _ = try await server.acceptPushGrouped([try delete(.focusTimer, timer, at: 1000, node: "laptop")], at: Self.now)
        // A write after the deletion (from a device that had not heard of it) goes too.
        _ = try await server.acceptPushGrouped(
            [try set(.focusTimer, timer, "name", .string("Late"), at: 5)], at: Self.now)
        _ = try await server.acceptPushGrouped(
            [try set(.focusTimer, UUID().uuidString.lowercased(), "name", .string("Other"), at: 6)], at: Self.now)
        await #expect(try store.compaction.compactSyncLog() == 3)
        await #expect(try store.compaction.syncLogSize().kept == 2)
    }

    @Test(arguments: StoreKind.available)
    func compactionRunsByItselfOnceEnoughChangesWereLogged(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let interval = Int(StoreLimits.compactionInterval)
        // A name for each of many timers: no write beats another as it is merged.
        let timers = (1..<interval).map { _ in UUID().uuidString.lowercased() }
        let writes = try timers.enumerated().map { index, timer in
            try set(.focusTimer, timer, "name", .string("Timer \(index)"), at: Int64(index))
        }
        _ = try await store.syncLog.acceptPushGrouped(Array(writes.prefix(900)), at: Self.now)
        _ = try await store.syncLog.acceptPushGrouped(Array(writes.dropFirst(900)), at: Self.now)
        await #expect(try store.compaction.compactSyncLogIfDue() == 0)
        await #expect(try store.compaction.syncLogSize().kept == interval - 1)
        // The push that reaches the interval compacts after its group's answer, so asking again
        // here either compacts or finds it done.
        _ = try await store.syncLog.acceptPushGrouped([try delete(.focusTimer, timers[0], at: 5000)], at: Self.now)
        try await store.compaction.compactSyncLogIfDue()
        await #expect(
            try store.compaction.syncLogSize()
                == .init(
                    kept: interval - 1, head: StoreLimits.compactionInterval,
                    compactedThrough: StoreLimits.compactionInterval))
    }

    /// What a merge drops at once, on both stores: the writes of a field a newer write beats —
    /// in the same push, an earlier one, or one merged after it in a group — but every timer an
    /// item named stays.
    @Test(arguments: StoreKind.available)
    func aMergedWriteTakesTheWritesItBeatsButAnItemsTimersStay(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let (timer, other, item) = (
            UUID().uuidString.lowercased(), UUID().uuidString.lowercased(), UUID().uuidString.lowercased()
        )
        let seqs = try await store.syncLog.acceptPushGrouped(
            [
                try set(.focusTimer, timer, "name", .string("Tea"), at: 1),
                try set(.focusTimer, timer, "name", .string("Green tea"), at: 2),
                try set(.checklistItem, item, "timerID", .string(timer), at: 3),
                try set(.checklistItem, item, "timerID", .string(other), at: 4),
                try set(.checklistItem, item, "text", .string("Kettle"), at: 5),
            ], at: Self.now)
        #expect(seqs == [1, 2, 3, 4, 5])
        async let first = store.syncLog.acceptPushGrouped(
            [try set(.checklistItem, item, "text", .string("Kettle on"), at: 6)], at: Self.now)
        async let second = store.syncLog.acceptPushGrouped(
            [try set(.focusTimer, timer, "name", .string("Chai"), at: 7)], at: Self.now)
        _ = try await (first, second)
        var replica = Replica()
        try await replica.pull(from: store.syncLog, pageSize: 100)
        #expect(replica.cursor == 7)
        await #expect(try store.compaction.syncLogSize().kept == 4)
        let json = try await store.syncLog.pullPageJSON(after: 0, limit: 100, at: Self.now)
        let kept = try JSONDecoder().decode(Page.self, from: json).changes
        // The two pushes race to the queue, so either may be logged first.
        let values = kept.map(\.change.value)
        #expect(Array(values.prefix(2)) == [.string(timer), .string(other)])
        let last = Array(values.dropFirst(2))
        #expect(last == [.string("Kettle on"), .string("Chai")] || last == [.string("Chai"), .string("Kettle on")])
    }
}

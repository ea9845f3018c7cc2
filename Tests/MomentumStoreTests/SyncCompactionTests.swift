import Foundation
import MomentumCore
import MomentumStoreContract
import MomentumTestSupport
import Testing

@testable import MomentumStore

/// A pull page as the route answers it.
struct PulledPage: Decodable, Equatable {
    struct Entry: Decodable, Equatable {
        var seq: Int64
        var change: ChangeMessage
    }
    var changes: [Entry]
    var last: Int64
    var more: Bool
}

/// A server's log after compaction brings every replica to the state the whole log would have:
/// one that was half-way through, one that starts from nothing (docs/sync.md, "Compaction").
@Suite("Sync log compaction: replicas end where the whole log would take them")
struct SyncCompactionTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A small world of entities for random changes: timers, items naming them, a few fields each.
    struct World {
        var timers = (0..<3).map { _ in UUID().uuidString.lowercased() }
        var items = (0..<4).map { _ in UUID().uuidString.lowercased() }
        var devices: [(node: String, counter: Int)] = [("phone", 0), ("laptop", 0), ("tablet", 0)]

        /// One random change, stamped by a random device at a random instant of the last minute:
        /// stamps arrive out of order, so later pushes often lose to earlier ones.
        mutating func change(using random: inout SeededRandomNumberGenerator) throws -> ChangeMessage {
            let device = Int.random(in: 0..<devices.count, using: &random)
            devices[device].counter += 1
            let stamp = try HybridTimestamp(
                physical: Int64(Self.nowMs - Int64.random(in: 0...60_000, using: &random)),
                counter: devices[device].counter, node: devices[device].node)
            let operation: Change.Operation
            let type: SyncEntityType
            let id: String
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                (type, id) = (.focusTimer, timers.randomElement(using: &random) ?? timers[0])
                operation =
                    Bool.random(using: &random)
                    ? .set(field: "name", value: .string("Timer \(Int.random(in: 1...9, using: &random))"))
                    : .set(field: "sortOrder", value: .integer(Int64.random(in: 0...5, using: &random)))
            case 4..<8:
                (type, id) = (.checklistItem, items.randomElement(using: &random) ?? items[0])
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    operation = .set(
                        field: SyncEntityType.timerReferenceField,
                        value: .string(timers.randomElement(using: &random) ?? timers[0]))
                case 1: operation = .set(field: "text", value: .string("Step \(Int.random(in: 1...9, using: &random))"))
                default: operation = .set(field: "done", value: .bool(Bool.random(using: &random)))
                }
            case 8:
                (type, id) = (.focusTimer, timers.randomElement(using: &random) ?? timers[0])
                operation = .delete
            default:
                (type, id) = (.checklistItem, items.randomElement(using: &random) ?? items[0])
                operation = .delete
            }
            return ChangeMessage(
                try Change(
                    entityType: type, entityID: id, operation: operation, stamp: stamp,
                    device: devices[device].node))
        }

        static let nowMs = Int64(SyncCompactionTests.now.timeIntervalSince1970 * 1000)
    }

    /// A replica as the core merges: a state and the cursor it has pulled to.
    struct Replica {
        var state = ReplicaState()
        var cursor: Int64 = 0

        /// Pulls as devices do, through the route's JSON pages (kept pages included).
        mutating func pull(from server: MomentumDatabase, pageSize: Int) throws {
            while true {
                let json = try server.pullPageJSON(after: cursor, limit: pageSize, at: SyncCompactionTests.now)
                let page = try JSONDecoder().decode(PulledPage.self, from: json)
                for logged in page.changes { state.apply(try Change(logged.change)) }
                cursor = page.last
                if !page.more { return }
            }
        }
    }

    /// Given random pushes out of stamp order into two servers, one dropping beaten writes as it
    /// merges and compacting at random moments, the other keeping every change; when a replica
    /// pulls part-way before compactions and the rest after, and another pulls everything only at
    /// the end; then both hold exactly the state of a replica that pulled the server that kept
    /// everything. The log must have lost much across the seeds.
    @Test func replicasSyncingAfterCompactionConvergeToTheWholeLogsState() throws {
        var dropped = 0
        for seed in UInt64(1)...60 {
            var random = SeededRandomNumberGenerator(seed: seed)
            var world = World()
            let directory = try TemporaryDirectory()
            let compacting = try MomentumDatabase.open(directory: directory.url.appendingPathComponent("a"))
            let whole = try MomentumDatabase.open(directory: directory.url.appendingPathComponent("b"))
            var early = Replica()
            var wholeSeqs: [Int64?] = []
            var compactingSeqs: [Int64?] = []
            for _ in 0..<Int.random(in: 5...25, using: &random) {
                let batch = try (0..<Int.random(in: 1...8, using: &random)).map { _ in
                    try world.change(using: &random)
                }
                compactingSeqs += try compacting.acceptPush(batch, at: Self.now)
                wholeSeqs += try whole.acceptPushes(
                    [try ChangeBatch.checked(batch, at: Self.now)], at: Self.now, compacting: false)[0].get()
                if Int.random(in: 0..<3, using: &random) == 0 {
                    try early.pull(from: compacting, pageSize: Int.random(in: 1...6, using: &random))
                }
                if Int.random(in: 0..<3, using: &random) == 0 { try compacting.compactSyncLog() }
            }
            try compacting.compactSyncLog()
            try early.pull(from: compacting, pageSize: 4)
            var late = Replica()
            try late.pull(from: compacting, pageSize: 5)
            var reference = Replica()
            try reference.pull(from: whole, pageSize: 1000)

            #expect(early.state == reference.state, "seed \(seed): the replica that pulled part-way")
            #expect(late.state == reference.state, "seed \(seed): the replica that pulled after compaction")
            let size = try compacting.syncLogSize()
            #expect(size.head == (try whole.syncLogSize()).head, "seed \(seed): sequence numbers never move")
            #expect(compactingSeqs == wholeSeqs, "seed \(seed): each change answered with the same number")
            dropped += Int(size.head) - size.kept
        }
        #expect(dropped > 500)
    }

    private func set(
        _ type: SyncEntityType, _ id: String, _ field: String, _ value: SyncValue, at milliseconds: Int64,
        node: String = "phone"
    ) throws -> ChangeMessage {
        ChangeMessage(
            try Change(
                entityType: type, entityID: id, operation: .set(field: field, value: value),
                stamp: try HybridTimestamp(physical: World.nowMs - 60_000 + milliseconds, counter: 0, node: node),
                device: node))
    }

    @Test func aWriteBeatenByANewerOneGoesButTheNewestChangeAlwaysStays() throws {
        let directory = try TemporaryDirectory()
        let server = try MomentumDatabase.open(directory: directory.url)
        let timer = UUID().uuidString.lowercased()
        _ = try server.acceptPush([try set(.focusTimer, timer, "name", .string("Tea"), at: 1)], at: Self.now)
        _ = try server.acceptPush([try set(.focusTimer, timer, "name", .string("Green tea"), at: 3)], at: Self.now)
        // The write that wins takes the one it beats from the log as it is merged.
        #expect(try server.loggedChanges(after: 0, limit: 100, at: Self.now).changes.map(\.seq) == [2])
        // Arrives last with the oldest stamp: logged (at the head), beaten by the write before.
        let lateSeq = try server.acceptPush(
            [try set(.focusTimer, timer, "name", .string("Old"), at: 2, node: "laptop")], at: Self.now)[0]
        #expect(try server.compactSyncLog() == 0)
        let kept = try server.loggedChanges(after: 0, limit: 100, at: Self.now).changes
        #expect(kept.map(\.change.value) == [.string("Green tea"), .string("Old")])
        // The head was kept, so the next change gets a number no puller has seen.
        let next = try server.acceptPush([try set(.focusTimer, timer, "sortOrder", .integer(2), at: 4)], at: Self.now)
        #expect(next[0] == (lateSeq ?? 0) + 1)
    }

    @Test func anItemsTimerWritesStaySoADeletedTimerStillTakesTheItem() throws {
        let directory = try TemporaryDirectory()
        let server = try MomentumDatabase.open(directory: directory.url)
        let (first, second, item) = (
            UUID().uuidString.lowercased(), UUID().uuidString.lowercased(), UUID().uuidString.lowercased()
        )
        _ = try server.acceptPush(
            [
                try set(.checklistItem, item, "timerID", .string(first), at: 1),
                try set(.checklistItem, item, "text", .string("Kettle"), at: 2),
                try set(.checklistItem, item, "timerID", .string(second), at: 3),
            ], at: Self.now)
        _ = try server.compactSyncLog()
        let deletion = ChangeMessage(
            try Change(
                entityType: .focusTimer, entityID: first, operation: .delete,
                stamp: try HybridTimestamp(physical: World.nowMs, counter: 0, node: "phone"), device: "phone"))
        _ = try server.acceptPush([deletion], at: Self.now)
        _ = try server.compactSyncLog()
        var replica = Replica()
        try replica.pull(from: server, pageSize: 10)
        #expect(replica.state.isDeleted(SyncEntityKey(type: .checklistItem, id: item)))
    }

    @Test func aDeletionTakesTheEntitysWritesWithItButStays() throws {
        let directory = try TemporaryDirectory()
        let server = try MomentumDatabase.open(directory: directory.url)
        let timer = UUID().uuidString.lowercased()
        _ = try server.acceptPush(
            [
                try set(.focusTimer, timer, "name", .string("Tea"), at: 1),
                try set(.focusTimer, timer, "sortOrder", .integer(1), at: 2),
            ], at: Self.now)
        let deletion = ChangeMessage(
            try Change(
                entityType: .focusTimer, entityID: timer, operation: .delete,
                stamp: try HybridTimestamp(physical: World.nowMs - 59_000, counter: 0, node: "laptop"), device: "laptop"
            ))
        _ = try server.acceptPush([deletion], at: Self.now)
        // A write after the deletion (from a device that had not heard of it) goes too.
        _ = try server.acceptPush([try set(.focusTimer, timer, "name", .string("Late"), at: 5)], at: Self.now)
        _ = try server.acceptPush(
            [try set(.focusTimer, UUID().uuidString.lowercased(), "name", .string("Other"), at: 6)], at: Self.now)
        #expect(try server.compactSyncLog() == 3)
        let kept = try server.loggedChanges(after: 0, limit: 100, at: Self.now).changes.map(\.change)
        #expect(kept.map(\.op) == ["delete", "set"])
        #expect(try server.syncLogSize().kept == 2)
    }

    /// A long log never compacted (an existing server's first run) is caught up a chunk at a time.
    @Test func aLongLogIsCompactedAChunkAtATime() throws {
        let directory = try TemporaryDirectory()
        let server = try MomentumDatabase.open(directory: directory.url)
        let timer = UUID().uuidString.lowercased()
        let chunk = Int(StoreLimits.compactionChunk)
        let writes = try (1...chunk + 500).map { index in
            try set(.focusTimer, timer, "sortOrder", .integer(Int64(index % 5)), at: Int64(index))
        }
        // Logged as before merges dropped beaten writes: every write kept.
        for start in stride(from: 0, to: writes.count, by: 1000) {
            let batch = try ChangeBatch.checked(Array(writes[start..<min(start + 1000, writes.count)]), at: Self.now)
            _ = try server.acceptPushes([batch], at: Self.now, compacting: false)[0].get()
        }
        // The chunk's newest write beats the 4999 before it; it goes with the next chunk.
        #expect(try server.compactSyncLog() == chunk - 1)
        #expect(try server.syncLogSize().compactedThrough == Int64(chunk))
        #expect(try server.compactSyncLog() == 500)
        #expect(
            try server.syncLogSize() == .init(kept: 1, head: Int64(chunk + 500), compactedThrough: Int64(chunk + 500)))
    }

    @Test func compactionRunsOnlyOnceEnoughChangesWereLoggedSinceTheLastRun() throws {
        let directory = try TemporaryDirectory()
        let server = try MomentumDatabase.open(directory: directory.url)
        let interval = Int(StoreLimits.compactionInterval)
        // A name for each of many timers: no write beats another as it is merged.
        let timers = (1..<interval).map { _ in UUID().uuidString.lowercased() }
        let writes = try timers.enumerated().map { index, timer in
            try set(.focusTimer, timer, "name", .string("Timer \(index)"), at: Int64(index))
        }
        _ = try server.acceptPush(Array(writes.prefix(900)), at: Self.now)
        _ = try server.acceptPush(Array(writes.dropFirst(900)), at: Self.now)
        #expect(try server.compactSyncLogIfDue() == 0)
        let deletion = ChangeMessage(
            try Change(
                entityType: .focusTimer, entityID: timers[0], operation: .delete,
                stamp: try HybridTimestamp(physical: World.nowMs, counter: 0, node: "phone"), device: "phone"))
        _ = try server.acceptPush([deletion], at: Self.now)
        #expect(try server.compactSyncLogIfDue() == 1)
        #expect(
            try server.syncLogSize()
                == .init(
                    kept: interval - 1, head: StoreLimits.compactionInterval,
                    compactedThrough: StoreLimits.compactionInterval))
    }

    /// What a merge drops at once: the writes of a field a newer write beats, even in the same
    /// push — but every timer an item named stays (compaction keeps those too).
    @Test func aMergedWriteTakesTheWritesItBeatsButAnItemsTimersStay() throws {
        let directory = try TemporaryDirectory()
        let server = try MomentumDatabase.open(directory: directory.url)
        let (timer, other, item) = (
            UUID().uuidString.lowercased(), UUID().uuidString.lowercased(), UUID().uuidString.lowercased()
        )
        let batch = [
            try set(.focusTimer, timer, "name", .string("Tea"), at: 1),
            try set(.focusTimer, timer, "name", .string("Green tea"), at: 2),
            try set(.checklistItem, item, "timerID", .string(timer), at: 3),
            try set(.checklistItem, item, "timerID", .string(other), at: 4),
            try set(.checklistItem, item, "text", .string("Kettle"), at: 5),
            try set(.checklistItem, item, "text", .string("Kettle on"), at: 6),
        ]
        #expect(try server.acceptPush(batch, at: Self.now) == [1, 2, 3, 4, 5, 6])
        let kept = try server.loggedChanges(after: 0, limit: 100, at: Self.now).changes
        #expect(kept.map(\.seq) == [2, 3, 4, 6])
        #expect(
            kept.map(\.change.value) == [.string("Green tea"), .string(timer), .string(other), .string("Kettle on")])
    }
}

/// The pull route's page, written by SQLite, and pushes committed in groups.
@Suite("Sync: the pull page as JSON and group commit of pushes")
struct SyncPullAndPushTests {
    let now = SyncCompactionTests.now

    private func timerChanges(_ count: Int, node: String) throws -> [ChangeMessage] {
        var clock = try HybridLogicalClock(node: node)
        let timer = UUID().uuidString.lowercased()
        return try (0..<count).map { index in
            ChangeMessage(
                try Change(
                    entityType: .focusTimer, entityID: timer,
                    operation: .set(field: "sortOrder", value: .integer(Int64(index % 7))),
                    stamp: try clock.send(at: now), device: node))
        }
    }

    @Test(arguments: [(0, 100), (0, 1), (250, 100), (990, 1000), (1000, 5), (1200, 1000)])
    func thePagesJSONHoldsTheSameChangesInOrder(after: Int64, limit: Int) throws {
        let directory = try TemporaryDirectory()
        let server = try MomentumDatabase.open(directory: directory.url)
        _ = try server.acceptPush(try timerChanges(1000, node: "phone"), at: now)
        _ = try server.acceptPush(try timerChanges(200, node: "laptop"), at: now)
        let json = try server.pullPageJSON(after: after, limit: limit, at: now)
        let page = try JSONDecoder().decode(PulledPage.self, from: json)
        let expected = try server.loggedChanges(after: after, limit: limit, at: now)
        #expect(page.changes.map(\.seq) == expected.changes.map(\.seq))
        #expect(page.changes.map(\.change) == expected.changes.map(\.change))
        #expect(page.last == expected.last)
        #expect(page.more == expected.more)
        #expect(page.changes.map(\.seq) == page.changes.map(\.seq).sorted())
    }

    @Test func thePagesJSONIsRefusedLikeThePage() throws {
        let directory = try TemporaryDirectory()
        let server = try MomentumDatabase.open(directory: directory.url)
        #expect(throws: SyncError.invalidPage(after: -1, limit: 10)) {
            try server.pullPageJSON(after: -1, limit: 10, at: now)
        }
        #expect(throws: SyncError.invalidPage(after: 0, limit: 1001)) {
            try server.pullPageJSON(after: 0, limit: 1001, at: now)
        }
        // A database that never synced: the first pull makes the replica.
        let empty = try server.pullPageJSON(after: 0, limit: 10, at: now)
        #expect(String(decoding: empty, as: UTF8.self) == #"{"changes":[],"last":0,"more":false}"#)
        #expect(throws: SyncError.cursorBeyondHead(cursor: 5, head: 0)) {
            try server.pullPageJSON(after: 5, limit: 10, at: now)
        }
    }

    /// Many devices pushing at once: every batch gets its own numbers, each naming its own
    /// changes, with no number given twice and none missing.
    @Test func pushesArrivingTogetherAreEachAnsweredWithTheirOwnNumbers() async throws {
        let directory = try TemporaryDirectory()
        let server = try MomentumDatabase.open(directory: directory.url)
        let batches = try (0..<40).map { index in try timerChanges(5, node: "device-\(index)") }
        let now = self.now
        let answers = try await withThrowingTaskGroup(of: ([ChangeMessage], [Int64?]).self) { group in
            for batch in batches {
                group.addTask { (batch, try await server.acceptPushGrouped(batch, at: now)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let logged = try server.loggedChanges(after: 0, limit: 1000, at: now).changes
        let bySeq = Dictionary(uniqueKeysWithValues: logged.map { ($0.seq, $0.change) })
        var seen: Set<Int64> = []
        for (batch, seqs) in answers {
            #expect(seqs.count == batch.count)
            for (change, seq) in zip(batch, seqs) {
                let seq = try #require(seq)
                // Each write of a batch beats the one before it, which left the log as it merged.
                if change == batch.last { #expect(bySeq[seq] == change) } else { #expect(bySeq[seq] == nil) }
                seen.insert(seq)
            }
        }
        #expect(seen == Set(1...200))
        // A batch refused by the checks is refused alone.
        var bad = try timerChanges(1, node: "broken")
        bad[0].field = "colour"
        await #expect(throws: SyncError.self) { try await server.acceptPushGrouped(bad, at: now) }
        let again = try await server.acceptPushGrouped(try timerChanges(2, node: "after"), at: now)
        #expect(again == [201, 202])
    }

    /// A page with more after it never changes, so it is answered from memory: the same after
    /// the log grew and after compaction dropped some of its changes. The page at the head grows.
    @Test func aPageWithMoreAfterItStaysTheSameAndTheHeadPageGrows() throws {
        let directory = try TemporaryDirectory()
        let server = try MomentumDatabase.open(directory: directory.url)
        // Logged whole (as before merges dropped beaten writes), so compaction has work.
        func pushKeepingEverything(_ changes: [ChangeMessage]) throws {
            _ = try server.acceptPushes([try ChangeBatch.checked(changes, at: now)], at: now, compacting: false)[0]
                .get()
        }
        try pushKeepingEverything(try timerChanges(150, node: "phone"))
        let first = try server.pullPageJSON(after: 0, limit: 100, at: now)
        let head = try server.pullPageJSON(after: 100, limit: 100, at: now)
        try pushKeepingEverything(try timerChanges(20, node: "laptop"))
        #expect(try server.compactSyncLog() > 0)
        #expect(try server.pullPageJSON(after: 0, limit: 100, at: now) == first)
        let grown = try JSONDecoder().decode(
            PulledPage.self, from: try server.pullPageJSON(after: 100, limit: 100, at: now))
        #expect(try JSONDecoder().decode(PulledPage.self, from: head).changes.count == 50)
        #expect(grown.changes.last?.seq == 170)
        #expect(!grown.more)
    }
}

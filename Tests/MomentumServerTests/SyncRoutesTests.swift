import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import MomentumCore
import MomentumServices
import MomentumStoreTestSupport
import Synchronization
import Testing

@testable import MomentumServer

/// Changes as a device sends them, stamped by its own clock at the test server's time.
struct TestDevice {
    var clock: HybridLogicalClock
    let name: String
    var wall: Date

    init(node: String, name: String, wall: Date = Date(timeIntervalSince1970: 1_800_000_000)) throws {
        clock = try HybridLogicalClock(node: node)
        self.name = name
        self.wall = wall
    }

    mutating func set(_ type: SyncEntityType, _ id: String, _ field: String, _ value: SyncValue) throws -> [String: Any]
    {
        let change = try Change(
            entityType: type, entityID: id, operation: .set(field: field, value: value), stamp: clock.send(at: wall),
            device: name)
        return try Self.json(ChangeMessage(change))
    }

    mutating func delete(_ type: SyncEntityType, _ id: String) throws -> [String: Any] {
        let change = try Change(
            entityType: type, entityID: id, operation: .delete, stamp: clock.send(at: wall), device: name)
        return try Self.json(ChangeMessage(change))
    }

    /// A new timer's fields.
    mutating func timer(_ id: String, name: String, seconds: Int64 = 600) throws -> [[String: Any]] {
        [
            try set(.focusTimer, id, "name", .string(name)),
            try set(.focusTimer, id, "durationMs", .integer(seconds * 1000)),
            try set(.focusTimer, id, "sortOrder", .integer(0)),
        ]
    }

    mutating func item(_ id: String, of timer: String, text: String) throws -> [[String: Any]] {
        [
            try set(.checklistItem, id, "timerID", .string(timer)),
            try set(.checklistItem, id, "text", .string(text)),
            try set(.checklistItem, id, "done", .bool(false)),
        ]
    }

    static func json(_ message: ChangeMessage) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(message)) as? [String: Any])
    }
}

/// `{"changes": [...]}` as text.
func pushBody(_ changes: [[String: Any]]) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: ["changes": changes]), as: UTF8.self)
}

let timerA = "6f1c0e4a-0000-4000-8000-00000000000a"
let timerB = "6f1c0e4a-0000-4000-8000-00000000000b"
let itemA = "9b2e0000-0000-4000-8000-0000000000a1"

@Suite("Sync: push, pull, bad batches and the live feed")
struct SyncRoutesTests {
    @Test func aPushedTimerIsMaterializedAndPulledBackWithSequenceNumbers() async throws {
        let server = try await TestServer()
        var phone = try TestDevice(node: "phone", name: "browser@phone")
        let body = try pushBody(
            try phone.timer(timerA, name: "Reading") + phone.item(itemA, of: timerA, text: "Find the book"))
        try await server.test { client in
            let pushed = try await client.send(.post, "/api/v1/sync/push", json: body)
            #expect(pushed.status == .ok)
            #expect(try pushed.object["seqs"] as? [Int] == [1, 2, 3, 4, 5, 6])

            let timers = try await client.send(.get, "/api/v1/timers")
            let list = try #require(try timers.object["timers"] as? [[String: Any]])
            #expect(list.map { $0["name"] as? String } == ["Reading"])
            #expect((list.first?["items"] as? [[String: Any]])?.map { $0["text"] as? String } == ["Find the book"])

            let pulled = try await client.send(.get, "/api/v1/sync/pull?after=0")
            #expect(pulled.status == .ok)
            let page = try pulled.object
            let entries = try #require(page["changes"] as? [[String: Any]])
            #expect(entries.map { $0["seq"] as? Int } == [1, 2, 3, 4, 5, 6])
            #expect((entries.first?["change"] as? [String: Any])?["device"] as? String == "browser@phone")
            #expect(page["last"] as? Int == 6)
            #expect(page["more"] as? Bool == false)

            let field = try await client.send(
                .get, "/api/v1/sync/last-change?type=focusTimer&id=\(timerA)&field=name")
            #expect(try field.object["device"] as? String == "browser@phone")
            #expect(try field.object["value"] as? String == "Reading")
        }
    }

    @Test func pullsArePagedAndACursorBeyondTheHeadIsRefused() async throws {
        let server = try await TestServer()
        var phone = try TestDevice(node: "phone", name: "browser@phone")
        let body = try pushBody(try phone.timer(timerA, name: "One") + phone.timer(timerB, name: "Two"))
        try await server.test { client in
            try await client.send(.post, "/api/v1/sync/push", json: body)
            var seqs: [Int] = []
            var after = 0
            var pages = 0
            while true {
                let page = try await client.send(.get, "/api/v1/sync/pull?after=\(after)&limit=4").object
                let entries = try #require(page["changes"] as? [[String: Any]])
                seqs += entries.compactMap { $0["seq"] as? Int }
                after = try #require(page["last"] as? Int)
                pages += 1
                if page["more"] as? Bool != true { break }
            }
            #expect(seqs == Array(1...6))
            #expect(pages == 2)

            let beyond = try await client.send(.get, "/api/v1/sync/pull?after=7")
            #expect(beyond.status == .conflict)
            #expect(beyond.errorCode == "cursor_beyond_head")
            #expect(try await client.send(.get, "/api/v1/sync/pull?after=6").status == .ok)
            #expect(try await client.send(.get, "/api/v1/sync/pull?after=abc").errorCode == "invalid_cursor")
            #expect(try await client.send(.get, "/api/v1/sync/pull?after=0&limit=1001").errorCode == "invalid_page")
        }
    }

    @Test func aReplayedBatchIsHarmless() async throws {
        let server = try await TestServer()
        var phone = try TestDevice(node: "phone", name: "browser@phone")
        let body = try pushBody(try phone.timer(timerA, name: "Reading"))
        try await server.test { client in
            let first = try await client.send(.post, "/api/v1/sync/push", json: body)
            let again = try await client.send(.post, "/api/v1/sync/push", json: body)
            #expect(again.status == .ok)
            #expect(try again.object["seqs"] as? [Int] == (try first.object["seqs"] as? [Int]))
            let page = try await client.send(.get, "/api/v1/sync/pull?after=0").object
            #expect((page["changes"] as? [Any])?.count == 3)
            let timers = try await client.send(.get, "/api/v1/timers").object["timers"] as? [Any]
            #expect(timers?.count == 1)
        }
    }

    /// Each bad change, placed second in a batch whose first change is good: refused with its
    /// index and a code, and nothing of the batch stored.
    @Test(arguments: [
        ("far-future", "stamp_too_far_ahead"), ("malformed-stamp", "malformed_stamp"),
        ("unknown-type", "unknown_type"), ("unknown-field", "unknown_field"), ("wrong-id", "malformed_id"),
        ("setting-id-on-timer", "malformed_id"), ("wrong-value", "wrong_value"), ("bad-op", "malformed_operation"),
    ])
    func aBatchWithOneBadChangeStoresNothing(kind: String, code: String) async throws {
        let server = try await TestServer()
        var phone = try TestDevice(node: "phone", name: "browser@phone")
        let good = try phone.set(.focusTimer, timerA, "name", .string("Reading"))
        var bad = try phone.set(.focusTimer, timerA, "durationMs", .integer(60_000))
        switch kind {
        case "far-future": bad["stamp"] = "\(1_800_000_000_000 + 5 * 60_000 + 1)-00000-phone"
        case "malformed-stamp": bad["stamp"] = "yesterday"
        case "unknown-type": bad["type"] = "alarm"
        case "unknown-field": bad["field"] = "colour"
        case "wrong-id": bad["id"] = "not-a-uuid"
        case "setting-id-on-timer": bad["id"] = "meditation.duration"
        case "wrong-value": bad["value"] = "ten minutes"
        default: bad["op"] = "rename"
        }
        let body = try pushBody([good, bad])
        try await server.test { client in
            let response = try await client.send(.post, "/api/v1/sync/push", json: body)
            #expect(response.status == .unprocessableContent)
            #expect(response.errorCode == code)
            #expect(((try response.object["error"] as? [String: Any])?["index"] as? Int) == 1)
            #expect(response.errorMessage?.contains("Change 1") == true)
            let page = try await client.send(.get, "/api/v1/sync/pull?after=0").object
            #expect((page["changes"] as? [Any])?.isEmpty == true)
            #expect((try await client.send(.get, "/api/v1/timers").object["timers"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func aStampExactlyFiveMinutesAheadIsAccepted() async throws {
        let server = try await TestServer()
        var phone = try TestDevice(node: "phone", name: "browser@phone")
        var change = try phone.set(.setting, "goal.workout", "value", .string("30"))
        change["stamp"] = "\(1_800_000_000_000 + 5 * 60_000)-00000-phone"
        let body = try pushBody([change])
        try await server.test { client in
            let response = try await client.send(.post, "/api/v1/sync/push", json: body)
            #expect(response.status == .ok)
            let settings = try await client.send(.get, "/api/v1/settings").object
            #expect(((settings["progress"] as? [String: Any])?["goals"] as? [String: Any])?["workout"] as? Int == 30)
        }
    }

    @Test func moreThanAThousandChangesAreRefusedWhole() async throws {
        let server = try await TestServer()
        var phone = try TestDevice(node: "phone", name: "browser@phone")
        var changes: [[String: Any]] = []
        for index in 0...1000 {
            changes.append(try phone.set(.focusTimer, timerA, "sortOrder", .integer(Int64(index))))
        }
        let body = try pushBody(changes)
        try await server.test { client in
            let response = try await client.send(.post, "/api/v1/sync/push", json: body)
            #expect(response.status == .contentTooLarge)
            #expect(response.errorCode == "too_many_changes")
            #expect(try await client.send(.get, "/api/v1/sync/pull?after=0").object["last"] as? Int == 0)
        }
    }

    @Test func aFaultHalfWayThroughThePushStoresNothing() async throws {
        let server = try await TestServer()
        var phone = try TestDevice(node: "phone", name: "browser@phone")
        let body = try pushBody(try phone.timer(timerA, name: "One") + phone.timer(timerB, name: "Two"))
        // The database itself fails when the second timer's first change is logged.
        let queue = try DatabaseQueue(path: server.services.sqlite.path)
        try await queue.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER injectedFault BEFORE INSERT ON syncLog WHEN NEW.entityId = '\(timerB)'
                    BEGIN SELECT RAISE(ABORT, 'injected fault'); END;
                    """)
        }
        try await server.test { client in
            let response = try await client.send(.post, "/api/v1/sync/push", json: body)
            #expect(response.status == .internalServerError)
            #expect((try await client.send(.get, "/api/v1/timers").object["timers"] as? [Any])?.isEmpty == true)
        }
        try await queue.write { db in try db.execute(sql: "DROP TRIGGER injectedFault") }
        try await server.test { client in
            #expect(try await client.send(.get, "/api/v1/sync/pull?after=0").object["last"] as? Int == 0)
            let fields = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM syncField") }
            #expect(fields == 0)
        }
    }

    @Test func aTimerEditedOfflineWhileDeletedElsewhereStaysDeletedInEitherOrder() async throws {
        for deleteFirst in [true, false] {
            let server = try await TestServer()
            var phone = try TestDevice(node: "phone", name: "browser@phone")
            var laptop = try TestDevice(node: "laptop", name: "terminal@laptop")
            let create = try pushBody(
                try phone.timer(timerA, name: "Reading") + phone.item(itemA, of: timerA, text: "Book"))
            laptop.wall = laptop.wall.addingTimeInterval(1)
            phone.wall = phone.wall.addingTimeInterval(2)
            let deletion = try pushBody([try laptop.delete(.focusTimer, timerA)])
            let edit = try pushBody([
                try phone.set(.focusTimer, timerA, "name", .string("Reading later")),
                try phone.set(.checklistItem, itemA, "done", .bool(true)),
            ])
            try await server.test { client in
                try await client.send(.post, "/api/v1/sync/push", json: create)
                for batch in deleteFirst ? [deletion, edit] : [edit, deletion] {
                    #expect(try await client.send(.post, "/api/v1/sync/push", json: batch).status == .ok)
                }
                #expect((try await client.send(.get, "/api/v1/timers").object["timers"] as? [Any])?.isEmpty == true)
            }
        }
    }

    @Test func aWriteThroughTheRestRoutesIsPulledAsChanges() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.send(
                .post, "/api/v1/timers", json: #"{"name": "Tea", "durationMs": 180000, "items": ["Kettle"]}"#)
            #expect(created.status == .created)
            let page = try await client.send(.get, "/api/v1/sync/pull?after=0").object
            let changes = try #require(page["changes"] as? [[String: Any]]).compactMap {
                $0["change"] as? [String: Any]
            }
            // A new timer is one put of all its fields; an item's fields are set one by one.
            #expect(
                changes.contains {
                    $0["type"] as? String == "focusTimer" && $0["op"] as? String == "put"
                        && ($0["fields"] as? [String: Any])?["name"] as? String == "Tea"
                })
            #expect(changes.contains { $0["type"] as? String == "checklistItem" && $0["value"] as? String == "Kettle" })
            #expect(changes.allSatisfy { $0["device"] as? String == "test" })
        }
    }

    @Test func aPlainGetOfTheLiveFeedAsksForAWebSocket() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(.get, "/api/v1/live")
            #expect(response.status == .upgradeRequired)
            #expect(response.errorCode == "websocket_required")
        }
    }

    /// Two WebSocket clients of one running server: 100 changes pushed one at a time each reach the
    /// other client, in order. The latency is printed, not asserted.
    @Test func changesPushedByOneDeviceReachTheOtherLive() async throws {
        let server = try await TestServer()
        let clock = server.clock
        let dependencies = ServerDependencies(household: server.household, now: { clock.now }, version: "test-version")
        let application = Application(
            router: server.router,
            server: .http1WebSocketUpgrade(
                webSocketRouter: buildLiveRouter(configuration: server.configuration, dependencies: dependencies)),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await application.test(.live) { client in
            let (received, receiver) = AsyncStream<(String, ContinuousClock.Instant)>.makeStream()
            let (ready, readiness) = AsyncStream<Void>.makeStream()
            let listeners = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for role in ["other", "pusher"] {
                        group.addTask {
                            try await client.ws("/api/v1/live") { inbound, _, _ in
                                var count = 0
                                for try await message in inbound.messages(maxSize: 1 << 20) {
                                    guard case .text(let text) = message else { continue }
                                    if text.hasPrefix("{\"head\"") {
                                        readiness.yield()
                                        continue
                                    }
                                    if role == "other" { receiver.yield((text, .now)) }
                                    count += 1
                                    if count == 100 { break }
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            var readyCount = 0
            for await _ in ready {
                readyCount += 1
                if readyCount == 2 { break }
            }
            var phone = try TestDevice(node: "phone", name: "browser@phone")
            try await client.send(.post, "/api/v1/sync/push", json: try pushBody(try phone.timer(timerA, name: "Live")))
            var iterator = received.makeAsyncIterator()
            for _ in 0..<3 { _ = await iterator.next() }
            var latencies: [Duration] = []
            var seqs: [Int] = []
            for index in 0..<97 {
                let sent = ContinuousClock.now
                let change = try phone.set(.focusTimer, timerA, "sortOrder", .integer(Int64(index)))
                #expect(try await client.send(.post, "/api/v1/sync/push", json: try pushBody([change])).status == .ok)
                let (text, arrival) = try #require(await iterator.next())
                latencies.append(arrival - sent)
                let message = try #require(
                    try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                seqs.append(try #require(message["seq"] as? Int))
                #expect((message["change"] as? [String: Any])?["value"] as? Int == index)
            }
            try await listeners.value
            #expect(seqs == Array(4...100))
            let sorted = latencies.sorted()
            let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
            print("live latency over \(sorted.count) pushes: p50 \(sorted[sorted.count / 2]), p99 \(p99)")
        }
    }
}

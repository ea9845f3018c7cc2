import Foundation
import Testing

@testable import MomentumCore

/// The case that broke other sync designs: one device edits a timer while another deletes it,
/// both offline, then both sync — in either order.
@Suite("Offline edit against offline delete: the timer stays deleted everywhere")
struct OfflineEditVersusDeleteTests {
    typealias F = SyncFixtures

    /// A replica with its own clock, its unsent changes and its cursor in the server's log.
    struct Replica {
        var clock: HybridLogicalClock
        var device: String
        var state = ReplicaState()
        var outbox: [Change] = []
        var cursor = 0

        mutating func make(_ type: SyncEntityType, _ id: String, _ operation: Change.Operation, at wall: Int64) throws {
            let change = try Change(
                entityType: type, entityID: id, operation: operation, stamp: clock.send(at: Self.date(wall)),
                device: device)
            state.apply(change)
            outbox.append(change)
        }

        static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
    }

    struct Server {
        var state = ReplicaState()
        var log: [Change] = []

        mutating func push(from replica: inout Replica, at wall: Int64) throws {
            let outcomes = try state.apply(replica.outbox.map(ChangeMessage.init), receivedAt: Replica.date(wall))
            log += zip(replica.outbox, outcomes).filter { $0.1 != .duplicate }.map(\.0)
            replica.outbox = []
        }

        func pull(into replica: inout Replica, at wall: Int64) throws {
            for change in log.dropFirst(replica.cursor) {
                try replica.clock.receive(change.stamp, at: Replica.date(wall))
                replica.state.apply(change)
            }
            replica.cursor = log.count
        }
    }

    let timer = F.id(1)
    let items = [F.id(2), F.id(3)]
    let newItem = F.id(4)

    /// Laptop and phone share a timer with two items; then, offline, the phone deletes it and
    /// the laptop — with a later clock — renames it, ticks an item and adds one.
    func offlineWork() throws -> (laptop: Replica, phone: Replica, server: Server, t: Int64) {
        var laptop = Replica(clock: try HybridLogicalClock(node: "laptop"), device: "terminal@laptop")
        var phone = Replica(clock: try HybridLogicalClock(node: "phone"), device: "browser@phone")
        var server = Server()
        let t = F.t0
        try laptop.make(.focusTimer, timer, .set(field: "name", value: .string("Morning pages")), at: t)
        for (index, item) in items.enumerated() {
            try laptop.make(.checklistItem, item, .set(field: "timerID", value: .string(timer)), at: t)
            try laptop.make(.checklistItem, item, .set(field: "text", value: .string("Item \(index)")), at: t)
        }
        try server.push(from: &laptop, at: t + 100)
        try server.pull(into: &phone, at: t + 200)
        try server.pull(into: &laptop, at: t + 200)
        #expect(phone.state == laptop.state)

        try phone.make(.focusTimer, timer, .delete, at: t + 10_000)
        try laptop.make(.focusTimer, timer, .set(field: "name", value: .string("Evening pages")), at: t + 60_000)
        try laptop.make(.checklistItem, items[0], .set(field: "done", value: .bool(true)), at: t + 60_001)
        try laptop.make(.checklistItem, newItem, .set(field: "timerID", value: .string(timer)), at: t + 60_002)
        try laptop.make(.checklistItem, newItem, .set(field: "text", value: .string("Coffee")), at: t + 60_002)
        #expect(phone.outbox[0].stamp < laptop.outbox[0].stamp, "the edit is stamped after the deletion")
        return (laptop, phone, server, t)
    }

    @Test(arguments: [true, false])
    func theTimerAndItsItemsStayDeletedWhicheverSyncsFirst(laptopFirst: Bool) throws {
        let work = try offlineWork()
        var (laptop, phone, server, t) = (work.laptop, work.phone, work.server, work.t)
        if laptopFirst {
            try server.push(from: &laptop, at: t + 120_000)
            try server.push(from: &phone, at: t + 130_000)
        } else {
            try server.push(from: &phone, at: t + 120_000)
            try server.push(from: &laptop, at: t + 130_000)
        }
        try server.pull(into: &laptop, at: t + 140_000)
        try server.pull(into: &phone, at: t + 140_000)

        for state in [server.state, laptop.state, phone.state] {
            #expect(state.isDeleted(F.timer(1)))
            #expect(state.ids(of: .focusTimer).isEmpty)
            #expect(state.ids(of: .checklistItem).isEmpty)
            for item in items + [newItem] {
                #expect(state.isDeleted(SyncEntityKey(type: .checklistItem, id: item)))
            }
            #expect(state.deletion(of: F.timer(1))?.device == "browser@phone")
        }
        #expect(laptop.state == server.state)
        #expect(phone.state == server.state)
    }

    @Test func theLaterEditArrivingAfterTheDeletionIsIgnored() throws {
        let work = try offlineWork()
        var (phone, server) = (work.phone, work.server)
        try server.push(from: &phone, at: work.t + 120_000)
        let outcomes = try server.state.apply(
            work.laptop.outbox.map(ChangeMessage.init), receivedAt: F.date(work.t + 130_000))
        #expect(outcomes == Array(repeating: .ignoredBecauseDeleted, count: 4))
    }
}

extension SyncFixtures {
    static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}

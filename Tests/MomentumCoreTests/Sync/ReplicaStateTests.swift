import Foundation
import Testing

@testable import MomentumCore

@Suite("The merge: per-field last writer wins, tombstones that stay, cascades to items")
struct ReplicaStateTests {
    typealias F = SyncFixtures

    func state(_ changes: [Change]) -> ReplicaState {
        var state = ReplicaState()
        state.apply(changes)
        return state
    }

    /// Every order of `changes` ends in the same state, which is returned.
    func mergedInEveryOrder(_ changes: [Change]) throws -> ReplicaState {
        let expected = state(changes)
        for order in permutations(of: changes) {
            #expect(state(order) == expected, "order: \(order.map(\.stamp.description))")
        }
        return expected
    }

    func permutations(of changes: [Change]) -> [[Change]] {
        guard let first = changes.first else { return [[]] }
        return permutations(of: Array(changes.dropFirst())).flatMap { rest in
            (0...rest.count).map { index in
                var order = rest
                order.insert(first, at: index)
                return order
            }
        }
    }

    @Test func theHigherStampWinsEachFieldInAnyOrder() throws {
        let timer = F.id(1)
        let state = try mergedInEveryOrder([
            F.set(.focusTimer, timer, "name", .string("Reading"), at: F.stamp(10, node: "a")),
            F.set(.focusTimer, timer, "name", .string("Writing"), at: F.stamp(20, node: "b")),
            F.set(.focusTimer, timer, "notes", .string("a's notes"), at: F.stamp(30, node: "a")),
            F.set(.focusTimer, timer, "notes", .string("b's notes"), at: F.stamp(5, node: "b")),
        ])
        #expect(state.values(of: F.timer(1)) == ["name": .string("Writing"), "notes": .string("a's notes")])
    }

    @Test func concurrentEditsOfDifferentFieldsAreBothKept() throws {
        let state = try mergedInEveryOrder([
            F.set(.checklistItem, F.id(2), "done", .bool(true), at: F.stamp(10, node: "phone")),
            F.set(.checklistItem, F.id(2), "text", .string("Water"), at: F.stamp(10, node: "laptop")),
        ])
        #expect(state.values(of: F.item(2)) == ["done": .bool(true), "text": .string("Water")])
    }

    @Test(arguments: [("a", "b", "b"), ("phone", "laptop", "phone"), ("a", "a0", "a0")])
    func sameTimeAndCounterIsDecidedByTheNode(first: String, second: String, winner: String) throws {
        let state = try mergedInEveryOrder([
            F.set(.focusTimer, F.id(1), "name", .string(first), at: F.stamp(10, 3, node: first)),
            F.set(.focusTimer, F.id(1), "name", .string(second), at: F.stamp(10, 3, node: second)),
        ])
        #expect(state.values(of: F.timer(1))?["name"] == .string(winner))
    }

    @Test func identicalStampsFromTwoDevicesStillAgree() throws {
        let state = try mergedInEveryOrder([
            F.set(.focusTimer, F.id(1), "name", .string("One"), at: F.stamp(10), device: "laptop"),
            F.set(.focusTimer, F.id(1), "name", .string("Two"), at: F.stamp(10), device: "phone"),
            F.set(.focusTimer, F.id(1), "name", .string("Three"), at: F.stamp(10), device: "phone"),
        ])
        #expect(state.lastChange(of: "name", in: F.timer(1))?.value == .string("Two"))
    }

    @Test func aDuplicateChangesNothing() throws {
        let rename = try F.set(.focusTimer, F.id(1), "name", .string("Reading"), at: F.stamp(10))
        var replica = ReplicaState()
        #expect(replica.apply(rename) == .applied)
        let once = replica
        #expect(replica.apply(rename) == .duplicate)
        #expect(replica == once)
        let older = try F.set(.focusTimer, F.id(1), "name", .string("Old"), at: F.stamp(9))
        #expect(replica.apply(older) == .superseded)
        #expect(replica == once)
    }

    @Test func theLastChangeOfAFieldNamesItsDevice() throws {
        let replica = state([
            try F.set(
                .checklistItem, F.id(2), "done", .bool(true), at: F.stamp(10, node: "p"), device: "browser@phone"),
            try F.set(
                .checklistItem, F.id(2), "done", .bool(false), at: F.stamp(9, node: "t"), device: "terminal@laptop"),
        ])
        let last = try #require(replica.lastChange(of: "done", in: F.item(2)))
        #expect(last == FieldVersion(value: .bool(true), stamp: F.stamp(10, node: "p"), device: "browser@phone"))
        #expect(replica.lastChange(of: "text", in: F.item(2)) == nil)
    }

    @Test func aDeletionBeatsEditsBeforeAndAfterIt() throws {
        let timer = F.id(1)
        let state = try mergedInEveryOrder([
            F.set(.focusTimer, timer, "name", .string("Before"), at: F.stamp(10, node: "a")),
            F.delete(.focusTimer, timer, at: F.stamp(20, node: "b"), device: "browser@phone"),
            F.set(.focusTimer, timer, "name", .string("After"), at: F.stamp(30, node: "a")),
            F.set(.focusTimer, timer, "sortOrder", .integer(4), at: F.stamp(40, node: "c")),
        ])
        #expect(state.isDeleted(F.timer(1)))
        #expect(state.values(of: F.timer(1)) == nil)
        #expect(state.ids(of: .focusTimer).isEmpty)
        #expect(state.deletion(of: F.timer(1)) == Deletion(stamp: F.stamp(20, node: "b"), device: "browser@phone"))
    }

    @Test func aDeletedIdCannotBeMadeAgain() throws {
        var replica = state([
            try F.set(.practiceRecord, F.id(3), "kind", .string("meditation"), at: F.stamp(10)),
            try F.delete(.practiceRecord, F.id(3), at: F.stamp(20)),
        ])
        let recreate = try F.set(.practiceRecord, F.id(3), "kind", .string("workout"), at: F.stamp(1_000_000))
        #expect(replica.apply(recreate) == .ignoredBecauseDeleted)
        #expect(replica.isDeleted(SyncEntityKey(type: .practiceRecord, id: F.id(3))))
        #expect(replica.ids(of: .practiceRecord).isEmpty)
    }

    @Test func twoDeletionsOfOneEntityKeepTheLaterInAnyOrder() throws {
        let state = try mergedInEveryOrder([
            F.delete(.focusTimer, F.id(1), at: F.stamp(20, node: "a")),
            F.delete(.focusTimer, F.id(1), at: F.stamp(30, node: "b")),
            F.delete(.focusTimer, F.id(1), at: F.stamp(30, node: "b"), device: "other"),
        ])
        #expect(state.deletion(of: F.timer(1))?.stamp == F.stamp(30, node: "b"))
    }

    @Test func deletingATimerDeletesItsItemsAndOnlyThose() throws {
        let timer = F.id(1)
        let otherTimer = F.id(9)
        let state = try mergedInEveryOrder([
            F.set(.checklistItem, F.id(2), "timerID", .string(timer), at: F.stamp(1)),
            F.set(.checklistItem, F.id(3), "timerID", .string(timer), at: F.stamp(2)),
            F.set(.checklistItem, F.id(4), "timerID", .string(otherTimer), at: F.stamp(3)),
            F.delete(.focusTimer, timer, at: F.stamp(10, node: "b"), device: "browser@phone"),
            F.set(.checklistItem, F.id(2), "done", .bool(true), at: F.stamp(20)),
        ])
        #expect(state.isDeleted(F.item(2)))
        #expect(state.isDeleted(F.item(3)))
        #expect(!state.isDeleted(F.item(4)))
        #expect(state.ids(of: .checklistItem) == [F.id(4)])
        #expect(state.deletion(of: F.item(2)) == Deletion(stamp: F.stamp(10, node: "b"), device: "browser@phone"))
        #expect(state.deletion(of: F.item(4)) == nil)
    }

    @Test func anItemArrivingAfterItsTimerWasDeletedIsDeletedToo() throws {
        var replica = state([try F.delete(.focusTimer, F.id(1), at: F.stamp(10))])
        let text = try F.set(.checklistItem, F.id(2), "text", .string("Water"), at: F.stamp(20))
        #expect(replica.apply(text) == .applied)
        let belongs = try F.set(.checklistItem, F.id(2), "timerID", .string(F.id(1)), at: F.stamp(20))
        #expect(replica.apply(belongs) == .ignoredBecauseDeleted)
        #expect(replica.isDeleted(F.item(2)))
        #expect(replica.values(of: F.item(2)) == nil)
        let toggle = try F.set(.checklistItem, F.id(2), "done", .bool(true), at: F.stamp(30))
        #expect(replica.apply(toggle) == .ignoredBecauseDeleted)
    }

    @Test func anItemThatEverNamedADeletedTimerStaysDeleted() throws {
        // Items never move between timers; should two timers ever be written for one item, the
        // deletion of either deletes it, whatever the order.
        let state = try mergedInEveryOrder([
            F.set(.checklistItem, F.id(2), "timerID", .string(F.id(1)), at: F.stamp(1)),
            F.set(.checklistItem, F.id(2), "timerID", .string(F.id(9)), at: F.stamp(2)),
            F.delete(.focusTimer, F.id(1), at: F.stamp(3)),
        ])
        #expect(state.isDeleted(F.item(2)))
    }

    @Test func deletingAnItemLeavesItsTimer() throws {
        let state = try mergedInEveryOrder([
            F.set(.focusTimer, F.id(1), "name", .string("Reading"), at: F.stamp(1)),
            F.set(.checklistItem, F.id(2), "timerID", .string(F.id(1)), at: F.stamp(2)),
            F.delete(.checklistItem, F.id(2), at: F.stamp(3)),
        ])
        #expect(state.isDeleted(F.item(2)))
        #expect(state.values(of: F.timer(1)) == ["name": .string("Reading")])
    }

    @Test func settingsSyncByTheirKey() throws {
        let key = SyncEntityKey(type: .setting, id: "goal.workout")
        let state = try mergedInEveryOrder([
            F.set(.setting, "goal.workout", "value", .string("20"), at: F.stamp(5, node: "a")),
            F.set(.setting, "goal.workout", "value", .string("30"), at: F.stamp(5, node: "b")),
        ])
        #expect(state.values(of: key) == ["value": .string("30")])
    }

    @Test func aBatchWithOneBadChangeAppliesNothing() throws {
        let good = ChangeMessage(try F.set(.focusTimer, F.id(1), "name", .string("Reading"), at: F.stamp(1)))
        let alsoGood = ChangeMessage(try F.delete(.checklistItem, F.id(2), at: F.stamp(2)))
        var bad = good
        bad.value = .integer(5)
        var replica = ReplicaState()
        #expect(throws: ChangeBatchError.self) { try replica.apply([good, alsoGood, bad]) }
        #expect(replica == ReplicaState())
        #expect(try replica.apply([good, alsoGood, good]) == [.applied, .applied, .duplicate])
        #expect(replica.ids(of: .focusTimer) == [F.id(1)])
    }

    @Test func aBatchFromTheFarFutureAppliesNothing() throws {
        let now = Date(timeIntervalSince1970: Double(F.t0) / 1000)
        let present = ChangeMessage(try F.set(.focusTimer, F.id(1), "name", .string("Now"), at: F.stamp(0)))
        let future = ChangeMessage(try F.set(.focusTimer, F.id(1), "name", .string("Later"), at: F.stamp(300_001)))
        var replica = ReplicaState()
        #expect(
            throws: ChangeBatchError.invalidChange(
                index: 1, .stamp(.tooFarAhead(stamp: F.stamp(300_001), wallMilliseconds: F.t0)))
        ) {
            try replica.apply([present, future], receivedAt: now)
        }
        #expect(replica == ReplicaState())
    }
}

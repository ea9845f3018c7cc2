import Foundation
import Testing

@testable import MomentumCore

/// What a person's sync push may not name: another person's timers and items, by their ids or as
/// the `timerID` of an item (issue 46).
@Suite("Others' timers: what a push may not name")
struct OthersTimersTests {
    static let adasTimer = "6f1c0e4a-0000-4000-8000-00000000000a"
    static let adasItem = "9b2e0000-0000-4000-8000-0000000000a1"
    static let bensTimer = "6f1c0e4a-0000-4000-8000-00000000000b"
    static let bensItem = "9b2e0000-0000-4000-8000-0000000000b1"
    static let others = OthersTimers(timerIDs: [adasTimer], itemIDs: [adasItem])

    static func change(
        _ type: SyncEntityType, _ id: String, _ field: String? = "name", _ value: SyncValue? = .string("x"),
        op: String = "set"
    ) -> ChangeMessage {
        ChangeMessage(
            type: type.rawValue, id: id, op: op, field: op == "set" ? field : nil, value: op == "set" ? value : nil,
            stamp: "1800000000000-00000-n-1", device: "browser@ben")
    }

    @Test func aTimerIsUsableUnlessItIsAnotherPersons() {
        #expect(Self.others.mayUse(timerID: Self.bensTimer))
        #expect(!Self.others.mayUse(timerID: Self.adasTimer))
        #expect(!Self.others.mayUse(timerID: Self.adasTimer.uppercased()))
    }

    @Test(arguments: [
        change(.focusTimer, adasTimer),
        change(.focusTimer, adasTimer.uppercased(), op: "delete"),
        change(.checklistItem, adasItem, "done", .bool(true)),
        change(.checklistItem, bensItem, "timerID", .string(adasTimer)),
        change(.checklistItem, bensItem, "timerID", .string(adasTimer.uppercased())),
    ])
    func aChangeNamingAnotherPersonsTimerOrItemIsNotYours(change: ChangeMessage) {
        #expect(Self.others.isNotYours(change))
        #expect(Self.others.firstChangeNotYours(in: [Self.change(.focusTimer, Self.bensTimer), change]) == 1)
    }

    @Test(arguments: [
        change(.focusTimer, bensTimer),
        change(.checklistItem, bensItem, "timerID", .string(bensTimer)),
        change(.checklistItem, bensItem, "text", .string(adasTimer)),
        change(.practiceRecord, adasTimer, "kind", .string("focus")),
        change(.meditationPreset, adasTimer),
    ])
    func aChangeOfThePushersOwnOrOfAnotherKindIsTheirs(change: ChangeMessage) {
        #expect(!Self.others.isNotYours(change))
        #expect(Self.others.firstChangeNotYours(in: [change]) == nil)
    }

    @Test func aTimerIsNotedWithItsItems() throws {
        let created = Date(timeIntervalSince1970: 1_800_000_000)
        let item = try ChecklistItem(
            id: try #require(UUID(uuidString: Self.adasItem)), text: "Cup", sortOrder: 0, createdAt: created)
        let timer = try FocusTimer(
            id: try #require(UUID(uuidString: Self.adasTimer)), name: "Tea", sortOrder: 0, createdAt: created,
            items: [item])
        var others = OthersTimers()
        others.insert(timer)
        #expect(others == Self.others)
    }
}

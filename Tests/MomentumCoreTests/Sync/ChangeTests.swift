import Foundation
import Testing

@testable import MomentumCore

@Suite("Changes: every type, id, field and value checked, with its own error")
struct ChangeTests {
    typealias F = SyncFixtures

    func message(
        type: String = "focusTimer", id: String = SyncFixtures.id(1), op: String = "set", field: String? = "name",
        value: SyncValue? = .string("Reading"), stamp: String = "1800000000000-00000-a", device: String = "phone"
    ) -> ChangeMessage {
        ChangeMessage(type: type, id: id, op: op, field: field, value: value, stamp: stamp, device: device)
    }

    @Test func aValidMessageBecomesAChange() throws {
        let change = try Change(message())
        #expect(change.entity == F.timer(1))
        #expect(change.operation == .set(field: "name", value: .string("Reading")))
        #expect(change.stamp == F.stamp(0))
        #expect(change.device == "phone")
    }

    @Test func idsAreKeptInOneSpelling() throws {
        let change = try Change(message(id: F.id(0xabc).uppercased()))
        #expect(F.id(0xabc) != F.id(0xabc).uppercased())
        #expect(change.entity.id == F.id(0xabc))
    }

    @Test func referencesAndNumbersAreKeptInOneSpelling() throws {
        let item = try F.set(.checklistItem, F.id(2), "timerID", .string(F.id(0xabc).uppercased()), at: F.stamp(0))
        #expect(item.operation == .set(field: "timerID", value: .string(F.id(0xabc))))
        let record = try F.set(.practiceRecord, F.id(3), "energyKilocalories", .number(12), at: F.stamp(0))
        #expect(record.operation == .set(field: "energyKilocalories", value: .integer(12)))
        let traveled = try JSONDecoder().decode(Change.self, from: JSONEncoder().encode(record))
        #expect(traveled == record)
        let fraction = try F.set(.practiceRecord, F.id(3), "energyKilocalories", .number(12.5), at: F.stamp(0))
        #expect(try JSONDecoder().decode(Change.self, from: JSONEncoder().encode(fraction)) == fraction)
    }

    @Test func eachProblemHasItsOwnError() {
        #expect(throws: ChangeError.unknownEntityType("timer")) { try Change(message(type: "timer")) }
        #expect(throws: ChangeError.malformedEntityID(type: .focusTimer, id: "42")) { try Change(message(id: "42")) }
        #expect(throws: ChangeError.malformedEntityID(type: .setting, id: F.id(1))) {
            try Change(message(type: "setting", field: "value", value: .string("on")))
        }
        #expect(throws: ChangeError.unknownField(type: .focusTimer, field: "colour")) {
            try Change(message(field: "colour", value: .string("#FFFFFF")))
        }
        #expect(throws: ChangeError.unknownField(type: .checklistItem, field: "name")) {
            try Change(message(type: "checklistItem"))
        }
        #expect(throws: ChangeError.malformedOperation("set")) { try Change(message(field: nil)) }
        #expect(throws: ChangeError.malformedOperation("set")) { try Change(message(value: nil)) }
        #expect(throws: ChangeError.malformedOperation("delete")) { try Change(message(op: "delete")) }
        #expect(throws: ChangeError.malformedOperation("upsert")) { try Change(message(op: "upsert")) }
        #expect(throws: ChangeError.notDeletable(.setting)) {
            try Change(message(type: "setting", id: "sound", op: "delete", field: nil, value: nil))
        }
        #expect(throws: ChangeError.invalidDevice(" ")) { try Change(message(device: " ")) }
        #expect(throws: ChangeError.stamp(.malformed("soon"))) { try Change(message(stamp: "soon")) }
    }

    @Test func aStampTooFarAheadOfTheReceiverIsRefused() throws {
        let receivedAt = Date(timeIntervalSince1970: Double(F.t0 - 300_000) / 1000)
        #expect(throws: Never.self) { try Change(message(), receivedAt: receivedAt) }
        let later = Date(timeIntervalSince1970: Double(F.t0 - 300_001) / 1000)
        #expect(throws: ChangeError.stamp(.tooFarAhead(stamp: F.stamp(0), wallMilliseconds: F.t0 - 300_001))) {
            try Change(message(), receivedAt: later)
        }
    }

    static let fieldValues: [(SyncEntityType, String, String, SyncValue, Bool)] = [
        (.focusTimer, SyncFixtures.id(1), "name", .string("Reading"), true),
        (.focusTimer, SyncFixtures.id(1), "name", .string("  "), false),
        (.focusTimer, SyncFixtures.id(1), "name", .integer(3), false),
        (.focusTimer, SyncFixtures.id(1), "name", .string(String(repeating: "a", count: 101)), false),
        (.focusTimer, SyncFixtures.id(1), "durationMs", .integer(1_500_000), true),
        (.focusTimer, SyncFixtures.id(1), "durationMs", .integer(1_500), false),
        (.focusTimer, SyncFixtures.id(1), "durationMs", .integer(0), false),
        (.focusTimer, SyncFixtures.id(1), "durationMs", .string("25 min"), false),
        (.focusTimer, SyncFixtures.id(1), "icon", .string("book"), true),
        (.focusTimer, SyncFixtures.id(1), "icon", .string("Book!"), false),
        // Issue 22.6: a well-formed name that is not on the icon list.
        (.focusTimer, SyncFixtures.id(1), "icon", .string("rocket"), false),
        (.focusTimer, SyncFixtures.id(1), "color", .string("#A0B1C2"), true),
        (.focusTimer, SyncFixtures.id(1), "color", .string("red"), false),
        (.focusTimer, SyncFixtures.id(1), "notes", .string(""), true),
        (.focusTimer, SyncFixtures.id(1), "sortOrder", .integer(-3), true),
        (.focusTimer, SyncFixtures.id(1), "sortOrder", .number(1.5), false),
        (.focusTimer, SyncFixtures.id(1), "createdAt", .integer(1_800_000_000_000), true),
        (.focusTimer, SyncFixtures.id(1), "createdAt", .integer(-1), false),
        (.focusTimer, SyncFixtures.id(1), "run", .object(["status": .string("idle")]), true),
        (
            .focusTimer, SyncFixtures.id(1), "run",
            .object([
                "status": .string("paused"), "startedAt": .integer(1), "pausedAt": .integer(2),
                "elapsedMs": .integer(1),
            ]), true
        ),
        (.focusTimer, SyncFixtures.id(1), "run", .object(["status": .string("paused")]), false),
        (.focusTimer, SyncFixtures.id(1), "run", .object(["status": .string("asleep")]), false),
        (.focusTimer, SyncFixtures.id(1), "run", .string("idle"), false),
        (.checklistItem, SyncFixtures.id(2), "timerID", .string(SyncFixtures.id(1)), true),
        (.checklistItem, SyncFixtures.id(2), "timerID", .string("timer-1"), false),
        (.checklistItem, SyncFixtures.id(2), "text", .string("water"), true),
        (.checklistItem, SyncFixtures.id(2), "text", .string(""), false),
        (.checklistItem, SyncFixtures.id(2), "done", .bool(true), true),
        (.checklistItem, SyncFixtures.id(2), "done", .integer(1), false),
        (.checklistItem, SyncFixtures.id(2), "done", .string("true"), false),
        (.practiceRecord, SyncFixtures.id(3), "kind", .string("meditation"), true),
        (.practiceRecord, SyncFixtures.id(3), "kind", .string("yoga"), false),
        (.practiceRecord, SyncFixtures.id(3), "countedSeconds", .integer(600), true),
        (.practiceRecord, SyncFixtures.id(3), "countedSeconds", .integer(-1), false),
        (.practiceRecord, SyncFixtures.id(3), "energyKilocalories", .null, true),
        (.practiceRecord, SyncFixtures.id(3), "energyKilocalories", .number(12.5), true),
        (.practiceRecord, SyncFixtures.id(3), "energyKilocalories", .number(-1), false),
        (.practiceRecord, SyncFixtures.id(3), "energyKilocalories", .integer(10_000), true),
        (.practiceRecord, SyncFixtures.id(3), "energyKilocalories", .number(10_000.5), false),
        // Issue 22.6: a record starts and ends at most a day after the change was made.
        (.practiceRecord, SyncFixtures.id(3), "start", .integer(SyncFixtures.t0), true),
        (.practiceRecord, SyncFixtures.id(3), "start", .integer(SyncFixtures.t0 + 86_400_000), true),
        (.practiceRecord, SyncFixtures.id(3), "start", .integer(SyncFixtures.t0 + 86_400_001), false),
        (.practiceRecord, SyncFixtures.id(3), "end", .integer(SyncFixtures.t0 + 86_400_001), false),
        (.practiceRecord, SyncFixtures.id(3), "start", .integer(-1), false),
        (.practiceRecord, SyncFixtures.id(3), "details", .object(["preset": .string("Morning")]), true),
        (.practiceRecord, SyncFixtures.id(3), "details", .object(["accuracy": .number(0.9)]), false),
        (.practiceRecord, SyncFixtures.id(3), "device", .string("terminal@laptop"), true),
        (.setting, "meditation.duration", "value", .string("20"), true),
        (.setting, "meditation.duration", "value", .string("twenty"), false),
        (.setting, "sound", "value", .string("off"), true),
        (.setting, "sound", "value", .bool(false), false),
        (.setting, "progress.day-start", "value", .string("9"), false),
        (.setting, "goal.workout", "value", .string("30"), true),
    ]

    @Test(arguments: fieldValues)
    func fieldsTakeOnlyTheirOwnValues(
        type: SyncEntityType, id: String, field: String, value: SyncValue, accepted: Bool
    ) throws {
        let make = {
            try Change(
                entityType: type, entityID: id, operation: .set(field: field, value: value), stamp: F.stamp(0),
                device: "phone")
        }
        if accepted {
            #expect(try make().operation == .set(field: field, value: value))
        } else {
            let rule = try #require(type.fields[field])
            #expect(throws: ChangeError.wrongValue(type: type, field: field, expected: rule.expectation)) {
                try make()
            }
        }
    }

    @Test func everyTypeListsItsFieldsOnceAndSettingsCoverEveryKey() {
        #expect(SyncEntityType.focusTimer.fields.count == 8)
        #expect(SyncEntityType.checklistItem.fields.keys.contains(SyncEntityType.timerReferenceField))
        #expect(SettingKey.allCases.allSatisfy { SyncEntityType.setting.canonicalID($0.rawValue) == $0.rawValue })
    }

    @Test func aChangeTravelsAsJSONAndReadsBack() throws {
        let changes = [
            try F.set(.focusTimer, F.id(1), "name", .string("Reading"), at: F.stamp(0)),
            try F.set(.practiceRecord, F.id(3), "energyKilocalories", .null, at: F.stamp(1)),
            try F.delete(.checklistItem, F.id(2), at: F.stamp(2, node: "phone")),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(changes)
        #expect(try JSONDecoder().decode([Change].self, from: data) == changes)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""energyKilocalories","id""#))
        #expect(text.contains(#""value":null"#))
        #expect(
            text.contains(
                #"{"device":"device-phone","id":"\#(F.id(2))","op":"delete","stamp":"1800000000002-00000-phone","type":"checklistItem"}"#
            ))
    }

    @Test func invalidJSONChangesAreRefusedWhileDecoding() {
        let unknownField =
            #"{"type":"focusTimer","id":"\#(F.id(1))","op":"set","field":"mood","value":1,"stamp":"1800000000000-00000-a","device":"x"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Change.self, from: Data(unknownField.utf8)) }
    }

    @Test func aBatchIsCheckedWholeAndNamesItsFirstBadChange() throws {
        let good = message()
        let bad = message(field: "mood")
        #expect(try ChangeBatch.validate([good, good]).count == 2)
        #expect(throws: ChangeBatchError.invalidChange(index: 1, .unknownField(type: .focusTimer, field: "mood"))) {
            try ChangeBatch.validate([good, bad, good, bad])
        }
        let tooMany = Array(repeating: good, count: ChangeBatch.maximumCount + 1)
        #expect(throws: ChangeBatchError.tooManyChanges(count: 1001, maximum: 1000)) {
            try ChangeBatch.validate(tooMany)
        }
    }
}

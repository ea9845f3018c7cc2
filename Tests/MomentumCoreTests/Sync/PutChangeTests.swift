import Foundation
import Testing

@testable import MomentumCore

@Suite("A put: a whole new row in one change, merged as a set of each field with one stamp")
struct PutChangeTests {
    typealias F = SyncFixtures

    static let recordFields: [String: SyncValue] = [
        "kind": .string("meditation"), "start": .integer(F.t0 - 600_000), "end": .integer(F.t0),
        "countedSeconds": .integer(600), "energyKilocalories": .null, "details": .object([:]),
        "device": .string("terminal@laptop"),
    ]

    func put(_ id: Int, _ fields: [String: SyncValue] = recordFields, at stamp: HybridTimestamp) throws -> Change {
        try Change(
            entityType: .practiceRecord, entityID: F.id(id), operation: .put(fields: fields), stamp: stamp,
            device: "device-\(stamp.node)")
    }

    @Test func aPutCarriesEveryFieldOfItsTypeAndEachIsChecked() throws {
        var missing = Self.recordFields
        missing["details"] = nil
        #expect(throws: ChangeError.malformedOperation("put")) { try put(1, missing, at: F.stamp(0)) }
        var unknown = Self.recordFields
        unknown["mood"] = .string("calm")
        #expect(throws: ChangeError.unknownField(type: .practiceRecord, field: "mood")) {
            try put(1, unknown, at: F.stamp(0))
        }
        var wrong = Self.recordFields
        wrong["countedSeconds"] = .string("ten")
        #expect {
            try put(1, wrong, at: F.stamp(0))
        } throws: { error in
            if case ChangeError.wrongValue(.practiceRecord, "countedSeconds", _) = error { true } else { false }
        }
        // A checklist item's `timerID` is written apart, so items take no puts.
        let item: [String: SyncValue] = [
            "timerID": .string(F.id(9)), "text": .string("Kettle"), "done": .bool(false), "sortOrder": .integer(0),
            "createdAt": .integer(F.t0),
        ]
        #expect(throws: ChangeError.malformedOperation("put")) {
            try Change(
                entityType: .checklistItem, entityID: F.id(2), operation: .put(fields: item), stamp: F.stamp(0),
                device: "phone")
        }
        // Values are kept in one spelling, as a set's are.
        var number = Self.recordFields
        number["energyKilocalories"] = .number(12)
        #expect(
            try put(1, number, at: F.stamp(0)).operation
                == .put(fields: Self.recordFields.merging(["energyKilocalories": .integer(12)]) { $1 }))
    }

    @Test func aPutTravelsAsOneMessageAndItsLogTextIsTheEncoders() throws {
        let change = try put(1, at: F.stamp(0))
        let message = ChangeMessage(change)
        #expect(message.op == "put" && message.field == nil && message.value == nil)
        #expect(message.fields == Self.recordFields)
        #expect(try Change(message) == change)
        let text = try message.logText()
        #expect(text == String(decoding: try ChangeMessage.logEncoder.encode(message), as: UTF8.self))
        #expect(try JSONDecoder().decode(ChangeMessage.self, from: Data(text.utf8)) == message)
        // A put with a field or a value, a set or delete with fields: malformed.
        for odd in [
            ChangeMessage(
                type: "practiceRecord", id: F.id(1), op: "put", field: "kind", fields: Self.recordFields,
                stamp: F.stamp(0).description, device: "phone"),
            ChangeMessage(
                type: "practiceRecord", id: F.id(1), op: "put", stamp: F.stamp(0).description, device: "phone"),
            ChangeMessage(
                type: "practiceRecord", id: F.id(1), op: "delete", fields: Self.recordFields,
                stamp: F.stamp(0).description, device: "phone"),
            ChangeMessage(
                type: "practiceRecord", id: F.id(1), op: "set", field: "kind", value: .string("focus"),
                fields: Self.recordFields, stamp: F.stamp(0).description, device: "phone"),
        ] {
            #expect(throws: ChangeError.self) { try Change(odd) }
        }
    }

    @Test func aPutMergesFieldByFieldLikeSetsWithItsStamp() throws {
        let key = SyncEntityKey(type: .practiceRecord, id: F.id(1))
        var replica = ReplicaState()
        let first = try put(1, at: F.stamp(10))
        #expect(replica.apply(first) == .applied)
        #expect(replica.values(of: key) == Self.recordFields)
        #expect(replica.apply(first) == .duplicate)
        // A later set of one field wins that field; an older put then changes nothing.
        #expect(
            replica.apply(try F.set(.practiceRecord, F.id(1), "countedSeconds", .integer(5), at: F.stamp(20)))
                == .applied)
        var older = Self.recordFields
        older["countedSeconds"] = .integer(1)
        older["kind"] = .string("focus")
        #expect(replica.apply(try put(1, older, at: F.stamp(5))) == .superseded)
        // A put between them wins every field but the one written later.
        #expect(replica.apply(try put(1, older, at: F.stamp(15))) == .applied)
        #expect(replica.values(of: key)?["kind"] == .string("focus"))
        #expect(replica.values(of: key)?["countedSeconds"] == .integer(5))
        // After a deletion a put is ignored.
        #expect(replica.apply(try F.delete(.practiceRecord, F.id(1), at: F.stamp(30))) == .applied)
        #expect(replica.apply(try put(1, at: F.stamp(40))) == .ignoredBecauseDeleted)
        #expect(replica.values(of: key) == nil)
    }

    @Test func aPutAndTheSameFieldsSetOneByOneEndInTheSameStateInAnyOrder() throws {
        let put = try put(1, at: F.stamp(10))
        let sets = try Self.recordFields.map { field, value in
            try F.set(.practiceRecord, F.id(1), field, value, at: F.stamp(10))
        }
        let edit = try F.set(.practiceRecord, F.id(1), "countedSeconds", .integer(7), at: F.stamp(11, node: "b"))
        var viaPut = ReplicaState()
        viaPut.apply([edit, put])
        var viaSets = ReplicaState()
        viaSets.apply(sets + [edit])
        #expect(viaPut == viaSets)
    }

    @Test func aNewWholeRowIsRecordedAsOnePutAndAnEditAsSets() throws {
        var replica = ReplicaState()
        var clock = try HybridLogicalClock(node: "a")
        let key = SyncEntityKey(type: .practiceRecord, id: F.id(1))
        let now = Date(syncMilliseconds: F.t0)
        let (made, _) = try replica.recordLocal(
            sets: [(key, Self.recordFields)], deletes: [], clock: &clock, device: "phone", at: now)
        #expect(made.map(\.operation) == [.put(fields: Self.recordFields)])
        var edited = Self.recordFields
        edited["countedSeconds"] = .integer(3)
        let (edits, _) = try replica.recordLocal(
            sets: [(key, edited)], deletes: [], clock: &clock, device: "phone", at: now)
        #expect(edits.map(\.operation) == [.set(field: "countedSeconds", value: .integer(3))])
        // Part of a row, or a one-field type, is set field by field.
        let (part, _) = try replica.recordLocal(
            sets: [(SyncEntityKey(type: .practiceRecord, id: F.id(2)), ["kind": .string("focus")])], deletes: [],
            clock: &clock, device: "phone", at: now)
        #expect(part.map(\.operation) == [.set(field: "kind", value: .string("focus"))])
        #expect(!Change.isWholeRow([SyncEntityType.settingValueField: .string("on")], of: .setting))
    }

    @Test func aPutBeatsOlderWritesOfEachFieldAndOlderPuts() throws {
        let change = try put(1, at: F.stamp(0))
        #expect(change.loggedField == "*")
        #expect(Set(change.fieldsWhoseOlderWritesItBeats) == Set(Self.recordFields.keys).union(["*"]))
    }
}

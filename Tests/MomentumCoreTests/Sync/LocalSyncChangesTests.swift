import Foundation
import Testing

@testable import MomentumCore

/// What both stores log for a local write (``LocalSyncChanges``, ``ReplicaState/recordLocal``)
/// and which rows a merge must rewrite (``ReplicaState/entitiesToMaterialize(since:)``).
@Suite("Local changes: what a write logs, decided once for both stores")
struct LocalSyncChangesTests {
    typealias F = SyncFixtures
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func onlyTheFieldsThatDifferBecomeChangesStampedInOrder() throws {
        var state = ReplicaState()
        var clock = try HybridLogicalClock(node: "n")
        let key = F.timer(1)
        let first = try state.recordLocal(
            sets: [(key, ["name": .string("Tea"), "durationMs": .integer(60_000)])], deletes: [], clock: &clock,
            device: "web@host", at: now)
        #expect(
            first.changes.map(\.operation) == [
                .set(field: "durationMs", value: .integer(60_000)), .set(field: "name", value: .string("Tea")),
            ])
        #expect(first.changes.allSatisfy { $0.device == "web@host" })
        #expect(first.changes[0].stamp < first.changes[1].stamp)
        let again = try state.recordLocal(
            sets: [(key, ["name": .string("Tea"), "durationMs": .integer(90_000)])], deletes: [], clock: &clock,
            device: "web@host", at: now)
        #expect(again.changes.map(\.operation) == [.set(field: "durationMs", value: .integer(90_000))])
    }

    @Test func aWriteToADeletedEntityIsDroppedWithItsRowAndADeletionIsLoggedOnce() throws {
        var state = ReplicaState()
        var clock = try HybridLogicalClock(node: "n")
        let key = F.timer(1)
        let deleted = try state.recordLocal(sets: [], deletes: [key], clock: &clock, device: "d", at: now)
        #expect(deleted.changes.map(\.operation) == [.delete])
        let late = try state.recordLocal(
            sets: [(key, ["name": .string("Tea")])], deletes: [key], clock: &clock, device: "d", at: now)
        #expect(late.changes.isEmpty)
        #expect(late.dropped == [key])
    }

    @Test func aTimersWriteLogsItsChangedFieldsItsItemsAndTheItemsItLost() throws {
        let kettle = try ChecklistItem(id: UUID(), text: "Kettle", sortOrder: 0, createdAt: now)
        let cups = try ChecklistItem(id: UUID(), text: "Cups", sortOrder: 1, createdAt: now)
        let timer = try FocusTimer(id: UUID(), name: "Tea", sortOrder: 0, createdAt: now, items: [kettle, cups])
        let created = LocalSyncChanges.focusTimers(before: [], saved: [timer], deleted: [], records: [])
        #expect(created.sets.count == 3)
        #expect(created.sets[0].1 == timer.syncFields)
        #expect(created.deletes.isEmpty)

        var renamed = timer
        renamed.name = "Green tea"
        renamed.items = [kettle]
        let edited = LocalSyncChanges.focusTimers(before: [timer], saved: [renamed], deleted: [], records: [])
        #expect(edited.sets.map(\.1) == [["name": .string("Green tea")], [:]])
        #expect(edited.deletes == [SyncEntityKey(type: .checklistItem, id: cups.id.uuidString.lowercased())])

        let record = try PracticeRecord(
            id: UUID(), kind: .focus, start: now, end: now.addingTimeInterval(60), countedSeconds: 60, device: "d")
        let gone = LocalSyncChanges.focusTimers(before: [timer], saved: [], deleted: [timer.id], records: [record])
        #expect(gone.deletes == [SyncEntityKey(type: .focusTimer, id: timer.id.uuidString.lowercased())])
        #expect(gone.sets.map(\.0.type) == [.practiceRecord])
        #expect(gone.sets.first?.1 == record.syncFields)
    }

    @Test func settingsLogOnlyTheSyncedTextsThatChanged() {
        let changed = LocalSyncChanges.settings(from: [:], to: ["sound": "false"])
        #expect(changed.map(\.0.id) == ["sound"])
        #expect(changed.first?.1 == [SyncEntityType.settingValueField: .string("off")])
        #expect(LocalSyncChanges.settings(from: ["sound": "false"], to: ["sound": "false"]).isEmpty)
    }

    @Test func aSavedSitSyncsOnlyWithALowerCaseUUID() {
        let id = F.id(0xabc)
        #expect(LocalSyncChanges.meditationPresetKey(id) == SyncEntityKey(type: .meditationPreset, id: id))
        #expect(LocalSyncChanges.meditationPresetKey(id.uppercased()) == nil)
        #expect(LocalSyncChanges.meditationPresetKey("from-a-backup") == nil)
    }

    @Test func aTakenNameGetsTheFirstFreeNumber() {
        var taken: Set<String> = ["evening", "evening (2)"]
        #expect(LocalSyncChanges.freeName("Evening", taken: &taken) == "Evening (3)")
        #expect(LocalSyncChanges.freeName("Morning", taken: &taken) == nil)
        #expect(taken.contains("morning"))
    }

    @Test func aChangedTimerBringsTheItemsThatNamedItToMaterialize() throws {
        var before = ReplicaState()
        before.apply(try F.set(.checklistItem, F.id(2), "timerID", .string(F.id(1)), at: F.stamp(0)))
        before.apply(try F.set(.focusTimer, F.id(1), "name", .string("Tea"), at: F.stamp(1)))
        var after = before
        after.apply(try F.delete(.focusTimer, F.id(1), at: F.stamp(2)))
        let changed = after.entitiesToMaterialize(since: before)
        #expect(changed[.focusTimer] == [F.id(1)])
        #expect(changed[.checklistItem] == [F.id(2)])
        #expect(after.entitiesToMaterialize(since: after).isEmpty)
        #expect(before.firstWritten(F.timer(1)) == Date(syncMilliseconds: F.t0 + 1))
    }
}

import Foundation
import MomentumCore
import MomentumServices
import MomentumStore
import MomentumStoreContract
import MomentumStoreTestSupport
import Synchronization
import Testing

@testable import MomentumPostgres

/// The server's side of sync (``SyncLogStore``) on both stores: local writes logged, pushes
/// merged into the person's rows, pulls, and — on PostgreSQL — two servers on one database.
@Suite("Sync log: the server's side of sync on both stores")
struct SyncLogStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func record(start seconds: TimeInterval, device: String = "phone") throws -> PracticeRecord {
        let start = Date(timeIntervalSince1970: seconds)
        return try PracticeRecord(
            id: UUID(), kind: .breathing, start: start, end: start.addingTimeInterval(300), countedSeconds: 300,
            device: device)
    }

    /// The whole log (or a page of it), decoded.
    private func page(_ log: any SyncLogStore, after: Int64 = 0, limit: Int = 1000) async throws -> SyncPage {
        try await JSONDecoder().decode(
            SyncPage.self, from: try log.pullPageJSON(after: after, limit: limit, at: Self.now))
    }

    /// Changes setting every field of `fields` on one entity, stamped by `clock`.
    private func sets(
        _ type: SyncEntityType, _ id: String, _ fields: [String: SyncValue], clock: inout HybridLogicalClock,
        device: String = "browser@phone"
    ) throws -> [ChangeMessage] {
        var messages: [ChangeMessage] = []
        for field in fields.keys.sorted() {
            let change = try Change(
                entityType: type, entityID: id, operation: .set(field: field, value: fields[field] ?? .null),
                stamp: clock.send(at: Self.now), device: device)
            messages.append(ChangeMessage(change))
        }
        return messages
    }

    // MARK: Local writes

    @Test(arguments: StoreKind.available)
    func localWritesAreLoggedWithTheDeviceAndOnlyWhatChanged(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind, makeNodeID: { "n-test" })
        let person = store.store
        let first = try record(start: 1_799_990_000)
        try await person.savePracticeRecord(first, at: Self.now)
        // A new record is one change (a put of every field); the same record again logs
        // nothing; a changed field is one change.
        await #expect(try store.syncLog.syncHead() == 1)
        try await person.savePracticeRecord(first, at: Self.now)
        var edited = first
        edited.details = ["pattern": "4-7-8"]
        try await DeviceName.$current.withValue("Anna's phone") {
            try await person.savePracticeRecord(edited, at: Self.now)
        }
        var changes = try await page(store.syncLog).changes
        #expect(changes.map(\.seq) == [1, 2])
        #expect(changes.first?.change.op == "put")
        #expect(changes.first?.change.fields == first.syncFields)
        #expect(changes.last?.change.field == "details")
        #expect(changes.last?.change.device == "Anna's phone")
        #expect(changes.dropLast().allSatisfy { $0.change.device == "test" && $0.change.stamp.hasSuffix("-n-test") })
        await #expect(try person.deletePracticeRecord(id: first.id, at: Self.now))
        await #expect(try !person.deletePracticeRecord(id: first.id, at: Self.now))
        changes = try await page(store.syncLog, after: 2).changes
        #expect(changes.map(\.change.op) == ["delete"])

        // Settings: only those whose synced text changed.
        try await person.saveSettingValues(["sound": "false"], at: Self.now)
        try await person.saveSettingValues(["sound": "false"], at: Self.now)
        changes = try await page(store.syncLog, after: 3).changes
        #expect(changes.map(\.change.id) == ["sound"])
        #expect(changes.first?.change.value == .string("off"))

        // A timer with an item; then the item removed; then the timer deleted.
        let item = try ChecklistItem(id: UUID(), text: "Kettle", sortOrder: 0, createdAt: Self.now)
        var timer = try FocusTimer(id: UUID(), name: "Tea", sortOrder: 0, createdAt: Self.now, items: [item])
        try await person.changeFocusTimers(at: Self.now) { _ in (FocusTimerChanges(saved: [timer]), ()) }
        changes = try await page(store.syncLog, after: 4).changes
        #expect(Set(changes.map(\.change.type)) == ["focusTimer", "checklistItem"])
        // The timer is one put; an item's fields are each a set (its `timerID` write is kept apart).
        #expect(changes.filter { $0.change.type == "focusTimer" }.map(\.change.op) == ["put"])
        #expect(changes.count == 1 + item.syncFields(timerID: timer.id).count)
        let head = try await store.syncLog.syncHead()
        timer.items = []
        try await person.changeFocusTimers(at: Self.now) { _ in (FocusTimerChanges(saved: [timer]), ()) }
        changes = try await page(store.syncLog, after: head).changes
        #expect(changes.map(\.change.op) == ["delete"])
        #expect(changes.map(\.change.id) == [item.id.uuidString.lowercased()])
        try await person.changeFocusTimers(at: Self.now) { _ in (FocusTimerChanges(deleted: [timer.id]), ()) }
        await #expect(try page(store.syncLog, after: head + 1).changes.map(\.change.type) == ["focusTimer"])

        // A saved sit with a lower-case UUID syncs, stamped with its own time; another id does not.
        let sit = try MeditationPreset(
            id: UUID().uuidString.lowercased(), name: "Evening", plan: MeditationPlan(),
            createdAt: Self.now.addingTimeInterval(60), updatedAt: Self.now.addingTimeInterval(60))
        try await person.saveMeditationPreset(sit)
        let sitChanges = try await page(store.syncLog, after: head + 2).changes
        #expect(sitChanges.map(\.change.op) == ["put"])
        #expect(
            try sitChanges.allSatisfy { try HybridTimestamp(parsing: $0.change.stamp).physical == 1_800_000_060_000 })
        let before = try await store.syncLog.syncHead()
        let foreign = try MeditationPreset(
            id: "from-a-backup", name: "Other", plan: MeditationPlan(), createdAt: Self.now, updatedAt: Self.now)
        try await person.saveMeditationPreset(foreign)
        #expect(try await person.deleteMeditationPreset(id: foreign.id, at: Self.now))
        await #expect(try store.syncLog.syncHead() == before)
        #expect(try await person.deleteMeditationPreset(id: sit.id, at: Self.now))
        await #expect(try page(store.syncLog, after: before).changes.map(\.change.op) == ["delete"])
    }

    @Test(arguments: StoreKind.available)
    func whatSyncWouldRefuseIsRefusedAndNothingIsWritten(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        // Ends two days after the write: sync refuses such a record, so the store does too.
        let start = Self.now.addingTimeInterval(2 * 86_400)
        let late = try PracticeRecord(
            id: UUID(), kind: .meditation, start: start, end: start.addingTimeInterval(600), countedSeconds: 600,
            device: "phone")
        await #expect(throws: StoreError.self) { try await store.store.savePracticeRecord(late, at: Self.now) }
        await #expect(try store.store.practiceRecords(matching: PracticeLogQuery()).isEmpty)
        await #expect(try await store.syncLog.syncHead() == 0)
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func rowsWrittenBeforeTheReplicaExistedAreSeededAsLocalChangesOnTheFirstPull() async throws {
        let store = try await StoreUnderTest(.postgres, makeNodeID: { "n-seed" })
        // Rows written past the store (as before schema v7): no replica yet.
        try await store.postgres(
            """
            INSERT INTO focus_timer (person_id, id, name, duration_ms, icon, color, notes, sort_order, created_at_ms,
                updated_at_ms, run_state, elapsed_ms)
            VALUES (\(store.personID), '6f1c0e4a-0000-4000-8000-00000000000a', 'Tea', 180000, 'timer', '#B5835A', '',
                0, 1, 1, 'idle', 0)
            """)
        try await store.postgres(
            "INSERT INTO setting (person_id, key, value, updated_at_ms) VALUES (\(store.personID), 'sound', 'false', 1)"
        )
        let changes = try await page(store.syncLog).changes.map(\.change)
        #expect(changes.contains { $0.type == "focusTimer" && $0.op == "put" && $0.fields?["name"] == .string("Tea") })
        #expect(changes.contains { $0.type == "setting" && $0.id == "sound" && $0.value == .string("off") })
        // Settings still at their defaults are not seeded.
        #expect(!changes.contains { $0.id == "goal.workout" })
        #expect(changes.allSatisfy { $0.stamp.hasSuffix("-n-seed") && $0.device == "test" })
        await #expect(try store.syncLog.syncHead() == Int64(changes.count))
    }

    /// A first push seeds the rows written before the replica as the server's own changes, not
    /// as the pushing browser's: the group merges apart from the request that started it.
    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func aFirstPushSeedsTheRowsAsTheServersNotThePushers() async throws {
        let store = try await StoreUnderTest(.postgres, makeNodeID: { "n-seed" })
        try await store.postgres(
            "INSERT INTO setting (person_id, key, value, updated_at_ms) VALUES (\(store.personID), 'sound', 'false', 1)"
        )
        var clock = try HybridLogicalClock(node: "phone")
        let pushed = try sets(.setting, "language", [SyncEntityType.settingValueField: .string("de")], clock: &clock)
        _ = try await DeviceName.$current.withValue("Anna's phone") {
            try await store.syncLog.acceptPushGrouped(pushed, at: Self.now)
        }
        let changes = try await page(store.syncLog).changes.map(\.change)
        #expect(changes.contains { $0.id == "sound" && $0.device == "test" && $0.stamp.hasSuffix("-n-seed") })
        #expect(changes.contains { $0.id == "language" && $0.device == "browser@phone" })
        #expect(!changes.contains { $0.device == "Anna's phone" })
    }

    // MARK: Pushes and pulls

    @Test(arguments: StoreKind.available)
    func aPushWithABadChangeStoresNothingAndAReplayAnswersTheSameNumbers(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        var clock = try HybridLogicalClock(node: "phone")
        let id = UUID().uuidString.lowercased()
        let good = try sets(.focusTimer, id, ["name": .string("Tea")], clock: &clock)[0]
        var bad = good
        bad.field = "colour"
        await #expect(
            throws: SyncError.batch(.invalidChange(index: 1, .unknownField(type: .focusTimer, field: "colour")))
        ) {
            try await store.syncLog.acceptPushGrouped([good, bad], at: Self.now)
        }
        await #expect(try store.syncLog.syncHead() == 0)
        await #expect(try store.store.focusTimers().isEmpty)
        let seqs = try await store.syncLog.acceptPushGrouped([good], at: Self.now)
        #expect(seqs == [1])
        let again = try await store.syncLog.acceptPushGrouped([good, good], at: Self.now)
        #expect(again == [1, 1])
        await #expect(try store.syncLog.syncHead() == 1)
        await #expect(
            try store.syncLog.lastChange(of: "name", in: SyncEntityKey(type: .focusTimer, id: id))?.device
                == "browser@phone")
    }

    @Test(arguments: StoreKind.available)
    func pullsGivePagesAndRefuseACursorBeyondTheHead(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        var clock = try HybridLogicalClock(node: "phone")
        let fields: [String: SyncValue] = [
            "name": .string("Tea"), "durationMs": .integer(180_000), "icon": .string("timer"), "notes": .string("x"),
            "sortOrder": .integer(0),
        ]
        let messages = try sets(.focusTimer, UUID().uuidString.lowercased(), fields, clock: &clock)
        let pushed = try await store.syncLog.acceptPushGrouped(messages, at: Self.now)
        #expect(pushed == [1, 2, 3, 4, 5])
        let first = try await page(store.syncLog, after: 0, limit: 2)
        #expect(first.changes.map(\.seq) == [1, 2])
        #expect(first.changes.map(\.change) == Array(messages.prefix(2)))
        #expect(first.last == 2 && first.more)
        let rest = try await page(store.syncLog, after: 4, limit: 2)
        #expect(rest.changes.map(\.seq) == [5])
        #expect(rest.last == 5 && !rest.more)
        let none = try await page(store.syncLog, after: 5, limit: 2)
        #expect(none.changes.isEmpty && none.last == 5 && !none.more)
        await #expect(throws: SyncError.cursorBeyondHead(cursor: 6, head: 5)) {
            try await store.syncLog.pullPageJSON(after: 6, limit: 10, at: Self.now)
        }
        for (after, limit) in [(-1, 10), (0, 0), (0, 1001)] as [(Int64, Int)] {
            await #expect(throws: SyncError.invalidPage(after: after, limit: limit)) {
                try await store.syncLog.pullPageJSON(after: after, limit: limit, at: Self.now)
            }
        }
    }

    @Test(arguments: StoreKind.available)
    func mergedTimersItemsRecordsSitsAndSettingsAppearInTheReads(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        var clock = try HybridLogicalClock(node: "phone")
        let item = try ChecklistItem(id: UUID(), text: "Kettle", sortOrder: 0, createdAt: Self.now)
        let timer = try FocusTimer(id: UUID(), name: "Tea", sortOrder: 0, createdAt: Self.now, items: [item])
        let practice = try record(start: 1_799_990_000, device: "browser@phone")
        let sit = try MeditationPreset(
            id: UUID().uuidString.lowercased(), name: "Evening", plan: MeditationPlan(), createdAt: Self.now,
            updatedAt: Self.now)
        var messages = try sets(.focusTimer, timer.id.uuidString.lowercased(), timer.syncFields, clock: &clock)
        messages += try sets(
            .checklistItem, item.id.uuidString.lowercased(), item.syncFields(timerID: timer.id), clock: &clock)
        messages += try sets(.practiceRecord, practice.id.uuidString.lowercased(), practice.syncFields, clock: &clock)
        messages += try sets(.meditationPreset, sit.id, sit.syncFields, clock: &clock)
        messages += try sets(.setting, "sound", [SyncEntityType.settingValueField: .string("off")], clock: &clock)
        _ = try await store.syncLog.acceptPushGrouped(messages, at: Self.now)

        let timers = try await store.store.focusTimers()
        #expect(timers.map(\.id) == [timer.id])
        #expect(timers.first?.name == "Tea")
        #expect(timers.first?.items.map(\.id) == [item.id])
        #expect(timers.first?.items.first?.text == "Kettle")
        await #expect(try store.store.practiceRecords(matching: PracticeLogQuery()) == [practice])
        await #expect(try store.store.meditationPresets().map(\.id) == [sit.id])
        await #expect(try store.store.meditationPresets().first?.name == "Evening")
        await #expect(try store.store.settingValues()["sound"] == "false")

        // A deletion of the timer takes its item and its row.
        let deletion = ChangeMessage(
            try Change(
                entityType: .focusTimer, entityID: timer.id.uuidString.lowercased(), operation: .delete,
                stamp: clock.send(at: Self.now), device: "browser@phone"))
        _ = try await store.syncLog.acceptPushGrouped([deletion], at: Self.now)
        await #expect(try store.store.focusTimers().isEmpty)
    }

    /// The rules of the one sync engine (``SyncReplicaEngine``) for the person's rows, on both
    /// stores: a merged state that makes no valid value has no row until a later change mends it,
    /// an item waits for its timer, and a sit named like one here takes a free name.
    @Test(arguments: StoreKind.available)
    func mergedStatesThatMakeNoValidRowWaitForTheChangeThatMendsThem(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        var clock = try HybridLogicalClock(node: "phone")
        let practice = try record(start: 1_799_990_000, device: "browser@phone")
        let recordID = practice.id.uuidString.lowercased()
        _ = try await store.syncLog.acceptPushGrouped(
            try sets(.practiceRecord, recordID, practice.syncFields, clock: &clock), at: Self.now)
        await #expect(try store.store.practiceRecords(matching: PracticeLogQuery()) == [practice])
        // Another device moved the start past the end: the record leaves the log…
        let late = Int64(1_799_999_000_000)
        _ = try await store.syncLog.acceptPushGrouped(
            try sets(.practiceRecord, recordID, ["start": .integer(late)], clock: &clock), at: Self.now)
        await #expect(try store.store.practiceRecords(matching: PracticeLogQuery()).isEmpty)
        // …and comes back when a later change mends it.
        _ = try await store.syncLog.acceptPushGrouped(
            try sets(.practiceRecord, recordID, ["end": .integer(late + 300_000)], clock: &clock), at: Self.now)
        await #expect(try store.store.practiceRecords(matching: PracticeLogQuery()).map(\.id) == [practice.id])

        // An item pushed before its timer has no row; the timer brings it.
        let item = try ChecklistItem(id: UUID(), text: "Kettle", sortOrder: 0, createdAt: Self.now)
        let timer = try FocusTimer(id: UUID(), name: "Tea", sortOrder: 0, createdAt: Self.now, items: [item])
        _ = try await store.syncLog.acceptPushGrouped(
            try sets(
                .checklistItem, item.id.uuidString.lowercased(), item.syncFields(timerID: timer.id), clock: &clock),
            at: Self.now)
        await #expect(try store.store.focusTimers().isEmpty)
        _ = try await store.syncLog.acceptPushGrouped(
            try sets(.focusTimer, timer.id.uuidString.lowercased(), timer.syncFields, clock: &clock), at: Self.now)
        await #expect(try store.store.focusTimers().first?.items.map(\.text) == ["Kettle"])

        // A sit named like one here keeps both: the arriving one takes the first free name.
        let here = try MeditationPreset(
            id: UUID().uuidString.lowercased(), name: "Evening", plan: MeditationPlan(), createdAt: Self.now,
            updatedAt: Self.now)
        try await store.store.saveMeditationPreset(here)
        let arriving = try MeditationPreset(
            id: UUID().uuidString.lowercased(), name: "evening", plan: MeditationPlan(), createdAt: Self.now,
            updatedAt: Self.now)
        _ = try await store.syncLog.acceptPushGrouped(
            try sets(.meditationPreset, arriving.id, arriving.syncFields, clock: &clock), at: Self.now)
        await #expect(Set(try store.store.meditationPresets().map(\.name)) == ["Evening", "evening (2)"])
    }

    /// The engine reads the person's rows once per merge and decides every row from them; each
    /// decision sees the ones made before it in the same merge: the items filed into a timer (a
    /// full timer takes no more), a timer written or deleted just before its items, a sit named
    /// earlier in the same push.
    @Test(arguments: StoreKind.available)
    func eachRowOfAMergeIsDecidedSeeingTheOnesBeforeIt(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        var clock = try HybridLogicalClock(node: "phone")
        let tea = try FocusTimer(id: UUID(), name: "Tea", sortOrder: 0, createdAt: Self.now)
        let items = try (0...FocusTimer.maximumItems).map { index in
            try ChecklistItem(id: UUID(), text: "Step \(index)", sortOrder: index, createdAt: Self.now)
        }
        var push = try sets(.focusTimer, tea.id.uuidString.lowercased(), tea.syncFields, clock: &clock)
        for item in items {
            push += try sets(
                .checklistItem, item.id.uuidString.lowercased(), item.syncFields(timerID: tea.id), clock: &clock)
        }
        _ = try await store.syncLog.acceptPushGrouped(push, at: Self.now)
        await #expect(try store.store.focusTimers().first?.items.count == FocusTimer.maximumItems)

        // One item moves to a timer made in the same push.
        let coffee = try FocusTimer(id: UUID(), name: "Coffee", sortOrder: 1, createdAt: Self.now)
        let moved = try #require(try await store.store.focusTimers().first?.items.first)
        push = try sets(.focusTimer, coffee.id.uuidString.lowercased(), coffee.syncFields, clock: &clock)
        push += try sets(
            .checklistItem, moved.id.uuidString.lowercased(), ["timerID": .string(coffee.id.uuidString.lowercased())],
            clock: &clock)
        _ = try await store.syncLog.acceptPushGrouped(push, at: Self.now)
        var timers = try await store.store.focusTimers()
        #expect(timers.first { $0.id == coffee.id }?.items.map(\.id) == [moved.id])
        #expect(timers.first { $0.id == tea.id }?.items.count == FocusTimer.maximumItems - 1)

        // A timer deleted in the same push as an item filed into it: neither has a row.
        let late = try ChecklistItem(id: UUID(), text: "Late", sortOrder: 0, createdAt: Self.now)
        push = try sets(
            .checklistItem, late.id.uuidString.lowercased(), late.syncFields(timerID: coffee.id), clock: &clock)
        push.append(
            ChangeMessage(
                try Change(
                    entityType: .focusTimer, entityID: coffee.id.uuidString.lowercased(), operation: .delete,
                    stamp: clock.send(at: Self.now), device: "browser@phone")))
        _ = try await store.syncLog.acceptPushGrouped(push, at: Self.now)
        timers = try await store.store.focusTimers()
        #expect(timers.map(\.id) == [tea.id])

        // Two sits named alike in one push: the second (by id) takes the first free name.
        let first = try MeditationPreset(
            id: "00000000-0000-4000-8000-000000000001", name: "Dawn", plan: MeditationPlan(), createdAt: Self.now,
            updatedAt: Self.now)
        let second = try MeditationPreset(
            id: "00000000-0000-4000-8000-000000000002", name: "dawn", plan: MeditationPlan(), createdAt: Self.now,
            updatedAt: Self.now)
        push = try sets(.meditationPreset, first.id, first.syncFields, clock: &clock)
        push += try sets(.meditationPreset, second.id, second.syncFields, clock: &clock)
        _ = try await store.syncLog.acceptPushGrouped(push, at: Self.now)
        let names = try await store.store.meditationPresets().map { [$0.id: $0.name] }
        #expect(Set(names) == [[first.id: "Dawn"], [second.id: "dawn (2)"]])
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func bothStoresGiveTheSamePageBytesForTheSamePushes() async throws {
        let sqlite = try await StoreUnderTest(.sqlite)
        let postgres = try await StoreUnderTest(.postgres)
        var clock = try HybridLogicalClock(node: "phone")
        let timerID = UUID().uuidString.lowercased()
        let practice = try record(start: 1_799_990_000, device: "browser@phone")
        let batches = [
            try sets(
                .focusTimer, timerID, ["name": .string("Tea \"green\" / ü"), "durationMs": .integer(180_000)],
                clock: &clock),
            try sets(.practiceRecord, practice.id.uuidString.lowercased(), practice.syncFields, clock: &clock),
            [
                ChangeMessage(
                    try Change(
                        entityType: .focusTimer, entityID: timerID, operation: .delete,
                        stamp: clock.send(at: Self.now), device: "terminal@laptop"))
            ],
        ]
        for batch in batches {
            let a = try await sqlite.syncLog.acceptPushGrouped(batch, at: Self.now)
            let b = try await postgres.syncLog.acceptPushGrouped(batch, at: Self.now)
            #expect(a == b)
        }
        for (after, limit) in [(0, 1000), (0, 3), (3, 2), (9, 5), (10, 1)] as [(Int64, Int)] {
            let a = try await sqlite.syncLog.pullPageJSON(after: after, limit: limit, at: Self.now)
            let b = try await postgres.syncLog.pullPageJSON(after: after, limit: limit, at: Self.now)
            #expect(String(decoding: a, as: UTF8.self) == String(decoding: b, as: UTF8.self))
        }
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func eachPersonHasALogOfTheirOwn() async throws {
        let store = try await StoreUnderTest(.postgres)
        let postgres = try #require(store.postgresStore)
        let (ada, ben) = (postgres.scoped(to: 1), postgres.scoped(to: 2))
        var clock = try HybridLogicalClock(node: "phone")
        let timer = UUID().uuidString.lowercased()
        let pushed = try sets(
            .focusTimer, timer, ["name": .string("Tea"), "durationMs": .integer(60_000)], clock: &clock)
        #expect(try await ada.acceptPushGrouped(pushed, at: Self.now) == [1, 2])
        try await ben.savePracticeRecord(try record(start: 1_799_990_000), at: Self.now)
        // Ben's numbers start at 1 too; neither sees the other's changes or rows.
        await #expect(try page(ben).changes.map(\.seq) == [1])
        await #expect(try page(ben).changes.allSatisfy { $0.change.type == "practiceRecord" })
        await #expect(try page(ada).changes.map(\.change.id) == [timer, timer])
        await #expect(try ben.focusTimers().isEmpty)
        await #expect(try ada.focusTimers().count == 1)
        await #expect(try ben.lastChange(of: "name", in: SyncEntityKey(type: .focusTimer, id: timer)) == nil)
        // A push of Ada's timer by Ben makes it Ben's own, with his own numbers.
        #expect(try await ben.acceptPushGrouped(pushed, at: Self.now) == [2, 3])
        #expect(try await ada.acceptPushGrouped(pushed, at: Self.now) == [1, 2])
    }

    /// Many devices pushing at once: every batch gets its own numbers, each naming its own
    /// changes, with no number given twice and none missing.
    @Test(arguments: StoreKind.available)
    func pushesArrivingTogetherAreEachAnsweredWithTheirOwnNumbers(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let server = store.syncLog
        var batches: [[ChangeMessage]] = []
        for index in 0..<40 {
            var clock = try HybridLogicalClock(node: "device-\(index)")
            batches.append(
                try sets(
                    .focusTimer, UUID().uuidString.lowercased(),
                    ["name": .string("Tea"), "durationMs": .integer(60_000), "icon": .string("timer")], clock: &clock))
        }
        let answers = try await withThrowingTaskGroup(of: ([ChangeMessage], [Int64?]).self) { group in
            for batch in batches {
                group.addTask { (batch, try await server.acceptPushGrouped(batch, at: Self.now)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let bySeq = await Dictionary(uniqueKeysWithValues: try page(server).changes.map { ($0.seq, $0.change) })
        var seen: Set<Int64> = []
        for (batch, seqs) in answers {
            #expect(seqs.count == batch.count)
            for (change, seq) in zip(batch, seqs) {
                let seq = try #require(seq)
                #expect(bySeq[seq] == change)
                seen.insert(seq)
            }
        }
        #expect(seen == Set(1...120))
        await #expect(try store.store.focusTimers().count == 40)
    }

    /// A batch that fails in the database (a trigger refuses it) is refused alone: the batches
    /// merged with it in one transaction keep their changes and get consecutive numbers.
    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func aBatchFailingInTheDatabaseLeavesTheOthersOfItsGroup() async throws {
        let store = try await StoreUnderTest(.postgres)
        let person = try #require(store.postgresStore).scoped(to: store.personID)
        let poisoned = UUID().uuidString.lowercased()
        try await store.postgres(
            """
            CREATE FUNCTION refuse_poisoned() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.entity_id = '\(poisoned)' THEN RAISE EXCEPTION 'poisoned'; END IF;
                RETURN NEW;
            END $$
            """)
        try await store.postgres(
            "CREATE TRIGGER refuse_poisoned BEFORE INSERT ON sync_log FOR EACH ROW EXECUTE FUNCTION refuse_poisoned()")
        var clock = try HybridLogicalClock(node: "phone")
        let fields: [String: SyncValue] = ["name": .string("Tea"), "durationMs": .integer(60_000)]
        let (first, second) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased())
        let batches = try [first, poisoned, second].map { id in
            try sets(.focusTimer, id, fields, clock: &clock).map { try Change($0) }
        }
        let outcomes = await person.acceptPushes(batches, at: Self.now)
        #expect(try outcomes[0].get() == [1, 2])
        #expect(throws: SyncError.self) { try outcomes[1].get() }
        #expect(try outcomes[2].get() == [3, 4])
        await #expect(try page(store.syncLog).changes.map(\.change.id) == [first, first, second, second])
        #expect(Set(try await store.store.focusTimers().map { $0.id.uuidString.lowercased() }) == [first, second])
        await #expect(
            try store.syncLog.lastChange(of: "name", in: SyncEntityKey(type: .focusTimer, id: poisoned)) == nil)
        await #expect(try store.syncLog.syncHead() == 4)
    }

    /// A group's batches are merged as one, change after change: a later batch's write beats an
    /// earlier batch's, and a batch that repeats one of its group gets that batch's numbers.
    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func aGroupMergesItsBatchesOneAfterAnother() async throws {
        let store = try await StoreUnderTest(.postgres)
        let person = try #require(store.postgresStore).scoped(to: store.personID)
        var clock = try HybridLogicalClock(node: "phone")
        let id = UUID().uuidString.lowercased()
        let first = try sets(.focusTimer, id, ["name": .string("Tea"), "durationMs": .integer(60_000)], clock: &clock)
            .map { try Change($0) }
        let renamed = try sets(.focusTimer, id, ["name": .string("Green tea")], clock: &clock).map { try Change($0) }
        let outcomes = try await person.acceptPushes([first, renamed, renamed], at: Self.now).map { try $0.get() }
        #expect(outcomes.map { $0.compactMap(\.self).sorted() } == [[1, 2], [3], [3]])
        #expect(try await store.store.focusTimers().map(\.name) == ["Green tea"])
        await #expect(try store.syncLog.syncHead() == 3)
    }

    // MARK: Several servers

    @Test(arguments: StoreKind.available)
    func anObserverHearsLocalWritesAndPushesInLogOrder(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let heard = ChangeInbox()
        await store.syncLog.observeChanges { heard.add($0) }
        try await store.store.savePracticeRecord(try record(start: 1_799_990_000), at: Self.now)
        var clock = try HybridLogicalClock(node: "phone")
        let pushed = try sets(.setting, "sound", [SyncEntityType.settingValueField: .string("off")], clock: &clock)
        _ = try await store.syncLog.acceptPushGrouped(pushed, at: Self.now)
        let seqs = try await heard.waitForSeqs(upTo: 2, within: .seconds(5))
        #expect(seqs == [1, 2])
    }

    /// Pages are kept by each server (the one with changes after it never changes); the page at
    /// the head is read again, so another server's push shows in the next pull at once.
    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func aPageKeptByOneServerNeverHidesWhatAnotherLogged() async throws {
        let store = try await StoreUnderTest(.postgres)
        let other = try await store.reopenedSyncLog()
        var clock = try HybridLogicalClock(node: "phone")
        let id = UUID().uuidString.lowercased()
        let first = try sets(.focusTimer, id, ["name": .string("Tea"), "sortOrder": .integer(1)], clock: &clock)
        _ = try await store.syncLog.acceptPushGrouped(first, at: Self.now)
        let full = try await store.syncLog.pullPageJSON(after: 0, limit: 1, at: Self.now)
        let atHead = try await page(store.syncLog, after: 1, limit: 10)
        #expect(atHead.changes.map(\.seq) == [2] && !atHead.more)
        let second = try sets(.focusTimer, id, ["notes": .string("green")], clock: &clock)
        _ = try await other.acceptPushGrouped(second, at: Self.now)
        let fullAgain = try await store.syncLog.pullPageJSON(after: 0, limit: 1, at: Self.now)
        #expect(fullAgain == full)
        let grown = try await page(store.syncLog, after: 1, limit: 10)
        #expect(grown.changes.map(\.seq) == [2, 3] && grown.last == 3 && !grown.more)
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func aPushThroughOneServerReachesAnObserverOfTheOtherWithin200ms() async throws {
        let store = try await StoreUnderTest(.postgres)
        let other = try await store.reopenedSyncLog()
        let heard = ChangeInbox()
        await other.observeChanges { heard.add($0) }
        var clock = try HybridLogicalClock(node: "phone")
        for round in 1...5 {
            let batch = try sets(
                .setting, "sound", [SyncEntityType.settingValueField: .string(round % 2 == 0 ? "on" : "off")],
                clock: &clock)
            let seqs = try await store.syncLog.acceptPushGrouped(batch, at: Self.now)
            let heardSeqs = try await heard.waitForSeqs(upTo: Int64(round), within: .milliseconds(200))
            #expect(seqs == [Int64(round)])
            #expect(heardSeqs == Array(1...Int64(round)))
        }
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func anObserverWhoseListenerDroppedCatchesUpFromTheLog() async throws {
        let store = try await StoreUnderTest(.postgres)
        let other = try await PostgresStore.open(try StoreUnderTest.location(), schema: store.schema, poolSize: 2)
        defer { other.close() }
        let heard = ChangeInbox()
        await other.scoped(to: store.personID).observeChanges { heard.add($0) }
        let listener = try #require(other.syncFeed.listenerBackendPID)
        var clock = try HybridLogicalClock(node: "phone")
        // The listener is killed; pushes commit while it reconnects, and after. Each push writes
        // entities of its own: a write of the same field would drop the one it beats from the log
        // (docs/sync.md), and a catch-up after it would rightly hear only the winner.
        try await store.postgres("SELECT pg_terminate_backend(\(listener))::int")
        var pushed: Int64 = 0
        for round in 1...3 {
            let practice = try record(start: 1_799_990_000 + Double(round) * 3600, device: "browser@phone")
            let batch = try sets(
                .practiceRecord, practice.id.uuidString.lowercased(), practice.syncFields, clock: &clock)
            _ = try await store.syncLog.acceptPushGrouped(batch, at: Self.now)
            pushed += Int64(batch.count)
        }
        let seqs = try await heard.waitForSeqs(upTo: pushed, within: .seconds(5))
        #expect(seqs == Array(1...pushed))
        #expect(other.syncFeed.listenerBackendPID != listener)
    }

    @Test(arguments: StoreKind.available)
    func twoServersPushingAtOnceGiveDistinctGapFreeNumbers(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let servers = await [store.syncLog, try store.reopenedSyncLog()]
        let rounds = 15
        let numbers = try await withThrowingTaskGroup(of: [Int64?].self) { group in
            for (index, server) in servers.enumerated() {
                group.addTask {
                    var clock = try HybridLogicalClock(node: "device\(index)")
                    var seqs: [Int64?] = []
                    for _ in 0..<rounds {
                        let batch = try self.sets(
                            .focusTimer, UUID().uuidString.lowercased(),
                            ["name": .string("Tea"), "durationMs": .integer(60_000), "icon": .string("timer")],
                            clock: &clock)
                        seqs += try await server.acceptPushGrouped(batch, at: Self.now)
                    }
                    return seqs
                }
            }
            var all: [Int64?] = []
            for try await seqs in group { all += seqs }
            return all
        }
        let total = Int64(2 * rounds * 3)
        #expect(numbers.compactMap(\.self).sorted() == Array(1...total))
        await #expect(try page(store.syncLog).changes.map(\.seq) == Array(1...total))
        await #expect(try store.syncLog.syncHead() == total)
    }
}

/// What an observer heard, waited for with a deadline (never a sleep).
final class ChangeInbox: Sendable {
    private let seqs = Mutex<[Int64]>([])
    private let waiter = Mutex<(target: Int64, continuation: CheckedContinuation<Void, Never>)?>(nil)

    func add(_ changes: [LoggedChange]) {
        let last = seqs.withLock { seqs in
            seqs += changes.map(\.seq)
            return seqs.last ?? 0
        }
        let resumed = waiter.withLock { waiter -> CheckedContinuation<Void, Never>? in
            guard let current = waiter, last >= current.target else { return nil }
            waiter = nil
            return current.continuation
        }
        resumed?.resume()
    }

    /// The sequence numbers heard once the last is at least `target`; fails after `limit`.
    func waitForSeqs(upTo target: Int64, within limit: Duration) async throws -> [Int64] {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let ready = self.waiter.withLock { waiter -> Bool in
                        if (self.seqs.withLock { $0.last ?? 0 }) >= target { return true }
                        waiter = (target, continuation)
                        return false
                    }
                    if ready { continuation.resume() }
                }
                return true
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            if !first {
                // Let the waiting task end.
                let pending = waiter.withLock { waiter in
                    defer { waiter = nil }
                    return waiter
                }
                pending?.continuation.resume()
                throw InboxTimeout(target: target, heard: seqs.withLock { $0 })
            }
            return seqs.withLock { $0 }
        }
    }

    struct InboxTimeout: Error {
        var target: Int64
        var heard: [Int64]
    }
}

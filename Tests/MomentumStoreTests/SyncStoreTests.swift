import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract
import MomentumTestSupport
import Testing

@testable import MomentumStore

@Suite("Database: the sync replica, its log and the materialized rows")
struct SyncStoreTests {
    let directory: TemporaryDirectory
    let database: MomentumDatabase
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws {
        directory = try TemporaryDirectory()
        database = try MomentumDatabase.open(
            directory: directory.url, device: "terminal@test", makeNodeID: { "n-test" })
    }

    private func record(start seconds: TimeInterval) throws -> PracticeRecord {
        let start = Date(timeIntervalSince1970: seconds)
        return try PracticeRecord(
            id: UUID(), kind: .breathing, start: start, end: start.addingTimeInterval(300), countedSeconds: 300,
            device: "phone")
    }

    @Test func rowsWrittenBeforeTheReplicaExistedAreSeededAsLocalChanges() throws {
        // An older database: rows written straight into the tables, no replica yet.
        let queue = try DatabaseQueue(path: database.path)
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO focusTimer (id, name, durationMs, icon, color, sortOrder, createdAtMs, updatedAtMs)
                    VALUES ('6f1c0e4a-0000-4000-8000-00000000000a', 'Tea', 180000, 'timer', '#B5835A', 0, 1, 1);
                    INSERT INTO setting (key, value, updatedAtMs) VALUES ('sound', 'false', 1);
                    """)
        }
        let page = try database.loggedChanges(after: 0, limit: 1000, at: now)
        let changes = page.changes.map(\.change)
        #expect(changes.contains { $0.type == "focusTimer" && $0.op == "put" && $0.fields?["name"] == .string("Tea") })
        #expect(changes.contains { $0.type == "setting" && $0.id == "sound" && $0.value == .string("off") })
        // Settings still at their defaults are not seeded.
        #expect(!changes.contains { $0.id == "goal.workout" })
        #expect(changes.allSatisfy { $0.stamp.hasSuffix("-n-test") && $0.device == "terminal@test" })
        #expect(try database.syncStatus().node == "n-test")
    }

    @Test func localWritesAreLoggedAndQueuedOnlyForAServer() throws {
        let first = try record(start: 1_799_990_000)
        try database.savePracticeRecord(first, at: now)
        #expect(try database.syncStatus().pending == 0)
        // A new record is one change: a put of all its fields.
        #expect(try database.syncStatus().head == 1)
        try database.connectSyncServer("http://127.0.0.1:8080", at: now)
        #expect(try database.syncStatus().pending == 1)
        // Saving the same record again changes nothing; a changed field is one change.
        try database.savePracticeRecord(first, at: now)
        var edited = first
        edited.details = ["pattern": "4-7-8"]
        try database.savePracticeRecord(edited, at: now)
        #expect(try database.pendingChanges().map(\.change.field).last == "details")
        #expect(try database.syncStatus().pending == 2)
        try database.acknowledgePushed(try database.pendingChanges().map(\.seq))
        #expect(try database.syncStatus().pending == 0)
        #expect(try database.deletePracticeRecord(id: first.id, at: now))
        #expect(try database.pendingChanges().map(\.change.op) == ["delete"])
    }

    @Test func aMergedRecordThatIsNotValidIsLeftOutUntilALaterChangeMendsIt() throws {
        let id = UUID().uuidString.lowercased()
        var clock = try HybridLogicalClock(node: "phone")
        func change(_ field: String, _ value: SyncValue) throws -> LoggedChange {
            let made = try Change(
                entityType: .practiceRecord, entityID: id, operation: .set(field: field, value: value),
                stamp: clock.send(at: now), device: "browser@phone")
            return LoggedChange(seq: 0, change: ChangeMessage(made))
        }
        let whole = [
            try change("kind", .string("meditation")), try change("start", .integer(1_799_999_000_000)),
            try change("end", .integer(1_799_999_600_000)), try change("countedSeconds", .integer(600)),
            try change("device", .string("browser@phone")),
        ]
        _ = try database.applyPulled(Array(whole.prefix(4)), cursor: 4, at: now)
        #expect(try database.practiceRecords().isEmpty)  // no device yet
        _ = try database.applyPulled([whole[4]], cursor: 5, at: now)
        #expect(try database.practiceRecords().map { $0.id.uuidString.lowercased() } == [id])
        // Another device moved the start after the end: the record leaves the log…
        _ = try database.applyPulled([try change("start", .integer(1_800_000_000_000))], cursor: 6, at: now)
        #expect(try database.practiceRecords().isEmpty)
        // …and comes back when a later change mends it.
        _ = try database.applyPulled([try change("end", .integer(1_800_000_600_000))], cursor: 7, at: now)
        #expect(try database.practiceRecords().count == 1)
        #expect(try database.syncStatus().cursor == 7)
        #expect(
            try database.lastChange(of: "end", in: SyncEntityKey(type: .practiceRecord, id: id))?.device
                == "browser@phone")
    }

    @Test func aPulledStampFarAheadIsAppliedAndReportedAndTheClockStaysSane() throws {
        var future = try HybridLogicalClock(node: "fast")
        let made = try Change(
            entityType: .setting, entityID: "goal.mindfulness", operation: .set(field: "value", value: .string("25")),
            stamp: future.send(at: now.addingTimeInterval(3600)), device: "browser@fast")
        let result = try database.applyPulled([LoggedChange(seq: 1, change: ChangeMessage(made))], cursor: 1, at: now)
        #expect(result.farAhead == [made.stamp])
        #expect(try database.settingValues()["progress"]?.contains("25") == true)
        // The local clock did not jump an hour ahead: the next local change is stamped at now.
        try database.savePracticeRecord(try record(start: 1_799_990_000), at: now)
        let stamp = try #require(try database.loggedChanges(after: 0, limit: 1000, at: now).changes.last?.change.stamp)
        #expect(try HybridTimestamp(parsing: stamp).physical == 1_800_000_000_000)
    }

    @Test func aPushWithABadChangeStoresNothingAndAReplayAnswersTheSameNumbers() throws {
        var clock = try HybridLogicalClock(node: "phone")
        let id = UUID().uuidString.lowercased()
        let good = ChangeMessage(
            try Change(
                entityType: .focusTimer, entityID: id, operation: .set(field: "name", value: .string("Tea")),
                stamp: clock.send(at: now), device: "browser@phone"))
        var bad = good
        bad.field = "colour"
        #expect(throws: SyncError.batch(.invalidChange(index: 1, .unknownField(type: .focusTimer, field: "colour")))) {
            try database.acceptPush([good, bad], at: now)
        }
        #expect(try database.syncStatus().head == 0)
        let seqs = try database.acceptPush([good], at: now)
        #expect(try database.acceptPush([good], at: now) == seqs)
        #expect(try database.syncStatus().head == 1)
    }
}

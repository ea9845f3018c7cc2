import Foundation
import GRDB
import MomentumCore
import MomentumTestSupport
import Testing

@testable import MomentumStore

@Suite("Database: settings and the practice log")
struct PracticeLogStoreTests {
    let directory: TemporaryDirectory
    let database: MomentumDatabase

    init() throws {
        directory = try TemporaryDirectory()
        database = try MomentumDatabase.open(directory: directory.url)
    }

    private func record(kind: PracticeKind = .meditation, startingAt seconds: TimeInterval, counted: Int = 600)
        throws -> PracticeRecord
    {
        let start = Date(timeIntervalSince1970: seconds)
        return try PracticeRecord(
            id: UUID(), kind: kind, start: start, end: start.addingTimeInterval(Double(counted) + 15),
            countedSeconds: counted, details: ["ambient": "rain"], device: "test")
    }

    @Test func settingsRoundTripAndLaterSavesReplaceEarlierOnes() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try database.saveSettingValues(["sound": "true", "language": "\"en\""], at: now)
        try database.saveSettingValues(["sound": "false"], at: now)
        #expect(try database.settingValues() == ["sound": "false", "language": "\"en\""])
    }

    @Test func recordsRoundTripExactlyToTheMillisecond() throws {
        let original = try record(startingAt: 1_800_000_000.123)
        try database.savePracticeRecord(original, at: original.end)
        #expect(try database.practiceRecords() == [original])
    }

    @Test func queriesFilterByKindAndStartAndListOldestFirst() throws {
        let early = try record(kind: .meditation, startingAt: 1000)
        let middle = try record(kind: .breathing, startingAt: 2000)
        let late = try record(kind: .meditation, startingAt: 3000)
        for item in [late, early, middle] { try database.savePracticeRecord(item, at: Date()) }
        #expect(try database.practiceRecords() == [early, middle, late])
        #expect(try database.practiceRecords(matching: PracticeLogQuery(kind: .meditation)) == [early, late])
        #expect(
            try database.practiceRecords(
                matching: PracticeLogQuery(
                    since: Date(timeIntervalSince1970: 2000), until: Date(timeIntervalSince1970: 3000)))
                == [middle])
    }

    @Test func deletingRemovesOnlyThatRecord() throws {
        let kept = try record(startingAt: 1000)
        let removed = try record(startingAt: 2000)
        try database.savePracticeRecord(kept, at: Date())
        try database.savePracticeRecord(removed, at: Date())
        #expect(try database.deletePracticeRecord(id: removed.id, at: Date(timeIntervalSince1970: 1_800_000_000)))
        #expect(try !database.deletePracticeRecord(id: removed.id, at: Date(timeIntervalSince1970: 1_800_000_000)))
        #expect(try database.practiceRecords() == [kept])
    }

    @Test func theSchemaRejectsRowsTheCoreWouldNot() throws {
        #expect(throws: DatabaseError.self) {
            try database.writer.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO practiceRecord (id, kind, startMs, endMs, countedSeconds, device, createdAtMs, updatedAtMs)
                        VALUES ('x', 'napping', 0, 1, 1, 'd', 0, 0)
                        """)
            }
        }
        #expect(throws: DatabaseError.self) {
            try database.writer.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO practiceRecord (id, kind, startMs, endMs, countedSeconds, device, createdAtMs, updatedAtMs)
                        VALUES ('y', 'meditation', 10, 1, 1, 'd', 0, 0)
                        """)
            }
        }
        #expect(try database.practiceRecords().isEmpty)
    }
}

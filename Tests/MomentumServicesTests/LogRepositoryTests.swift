import Foundation
import MomentumCore
import MomentumStore
import MomentumStoreContract
import MomentumStoreTestSupport
import Testing

@testable import MomentumServices

/// Settings and the practice log through their repository protocols, on every store: SQLite, and
/// PostgreSQL when `MOMENTUM_TEST_POSTGRES_URL` is set (`scripts/test-postgres.sh`).
@Suite("Stores: settings and the practice log")
struct LogRepositoryTests {
    private func record(kind: PracticeKind = .meditation, startingAt seconds: TimeInterval, counted: Int = 600)
        throws -> PracticeRecord
    {
        let start = Date(timeIntervalSince1970: seconds)
        return try PracticeRecord(
            id: UUID(), kind: kind, start: start, end: start.addingTimeInterval(Double(counted) + 15),
            countedSeconds: counted, details: ["ambient": "rain"], device: "test")
    }

    @Test(arguments: StoreKind.available)
    func settingsRoundTripAndLaterSavesReplaceEarlierOnes(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        defer { withExtendedLifetime(store) {} }
        let database = store.store
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try await database.saveSettingValues(["sound": "true", "language": "\"en\""], at: now)
        try await database.saveSettingValues(["sound": "false"], at: now)
        let values = try await database.settingValues()
        #expect(values == ["sound": "false", "language": "\"en\""])
    }

    @Test(arguments: StoreKind.available)
    func recordsRoundTripExactlyToTheMillisecond(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        defer { withExtendedLifetime(store) {} }
        let database = store.store
        let original = try record(startingAt: 1_800_000_000.123)
        try await database.savePracticeRecord(original, at: original.end)
        let records = try await database.practiceRecords(matching: PracticeLogQuery())
        #expect(records == [original])
    }

    @Test(arguments: StoreKind.available)
    func queriesFilterByKindAndStartAndListOldestFirst(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        defer { withExtendedLifetime(store) {} }
        let database = store.store
        let early = try record(kind: .meditation, startingAt: 1000)
        let middle = try record(kind: .breathing, startingAt: 2000)
        let late = try record(kind: .meditation, startingAt: 3000)
        for item in [late, early, middle] { try await database.savePracticeRecord(item, at: Date()) }
        let all = try await database.practiceRecords(matching: PracticeLogQuery())
        #expect(all == [early, middle, late])
        let meditations = try await database.practiceRecords(matching: PracticeLogQuery(kind: .meditation))
        #expect(meditations == [early, late])
        let window = try await database.practiceRecords(
            matching: PracticeLogQuery(
                since: Date(timeIntervalSince1970: 2000), until: Date(timeIntervalSince1970: 3000)))
        #expect(window == [middle])
    }

    @Test(arguments: StoreKind.available)
    func deletingRemovesOnlyThatRecord(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        defer { withExtendedLifetime(store) {} }
        let database = store.store
        let kept = try record(startingAt: 1000)
        let removed = try record(startingAt: 2000)
        try await database.savePracticeRecord(kept, at: Date())
        try await database.savePracticeRecord(removed, at: Date())
        let first = try await database.deletePracticeRecord(
            id: removed.id, at: Date(timeIntervalSince1970: 1_800_000_000))
        let second = try await database.deletePracticeRecord(
            id: removed.id, at: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(first)
        #expect(!second)
        let records = try await database.practiceRecords(matching: PracticeLogQuery())
        #expect(records == [kept])
    }

    @Test(arguments: StoreKind.available)
    func savingAgainKeepsWhenTheRecordWasFirstWritten(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        defer { withExtendedLifetime(store) {} }
        let database = store.store
        var original = try record(startingAt: 1000)
        let written = Date(timeIntervalSince1970: 1_800_000_000)
        try await database.savePracticeRecord(original, at: written)
        original.countedSeconds = 300
        try await database.savePracticeRecord(original, at: written.addingTimeInterval(60))
        let logged = try await database.loggedRecords()
        #expect(
            logged == [LoggedRecord(record: original, createdAt: written, updatedAt: written.addingTimeInterval(60))])
    }

    @Test(arguments: StoreKind.available)
    func entriesCarryKindStartAndCountedTimeOfEveryRecord(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        defer { withExtendedLifetime(store) {} }
        let database = store.store
        let sit = try record(kind: .meditation, startingAt: 1000, counted: 600)
        let breath = try record(kind: .breathing, startingAt: 2000, counted: 120)
        try await database.savePracticeRecord(sit, at: Date())
        try await database.savePracticeRecord(breath, at: Date())
        let entries = try await database.practiceEntries().sorted { $0.start < $1.start }
        #expect(
            entries == [
                PracticeEntry(kind: .meditation, start: sit.start, countedSeconds: 600),
                PracticeEntry(kind: .breathing, start: breath.start, countedSeconds: 120),
            ])
    }

    @Test(arguments: StoreKind.available)
    func anImportIsAllOrNothing(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        defer { withExtendedLifetime(store) {} }
        let database = store.store
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let existing = try record(startingAt: 1000)
        try await database.savePracticeRecord(existing, at: now)
        let fresh = LoggedRecord(record: try record(startingAt: 2000), createdAt: now, updatedAt: now)
        let clash = LoggedRecord(record: existing, createdAt: now, updatedAt: now)
        await #expect(throws: StoreError.self) {
            try await database.importLog([fresh, clash], settingValues: ["sound": "false"], at: now)
        }
        let afterClash = try await database.loggedRecords()
        #expect(afterClash.map(\.record) == [existing])
        let settingsAfterClash = try await database.settingValues()
        #expect(settingsAfterClash.isEmpty)
        try await database.importLog([fresh], settingValues: ["sound": "false"], at: now)
        let imported = try await database.loggedRecords()
        #expect(imported.map(\.record) == [existing, fresh.record])
        let settings = try await database.settingValues()
        #expect(settings == ["sound": "false"])
    }

    @Test(arguments: StoreKind.available)
    func theRevisionMovesWithEveryWriteAndOnlyThen(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        defer { withExtendedLifetime(store) {} }
        let database = store.store
        let start = try await database.logRevision()
        let sit = try record(startingAt: 1000)
        try await database.savePracticeRecord(sit, at: Date())
        let saved = try await database.logRevision()
        #expect(saved > start)
        _ = try await database.practiceRecords(matching: PracticeLogQuery())
        _ = try await database.settingValues()
        let read = try await database.logRevision()
        #expect(read == saved)
        try await database.saveSettingValues(["sound": "false"], at: Date())
        let set = try await database.logRevision()
        #expect(set > saved)
        try await database.deletePracticeRecord(id: sit.id, at: Date())
        let deleted = try await database.logRevision()
        #expect(deleted > set)
    }
}

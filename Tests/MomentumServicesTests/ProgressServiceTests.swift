import Foundation
import MomentumCore
import MomentumStore
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

@testable import MomentumServices

/// On every store (see ``StoreKind/available``).
@Suite("Progress service: the report is kept until the log, the settings or the day change")
struct ProgressServiceTests {
    // 2027-01-15 08:00 UTC.
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))

    /// The services on a fresh store of `kind`.
    private func services(_ kind: StoreKind) async throws -> LogServices {
        let clock = self.clock
        return await LogServices(store: try StoreUnderTest(kind), now: { clock.now })
    }

    private func minutesToday(_ services: LogServices) async throws -> Int {
        let report = try await services.progress.report()
        return report.totals[report.today].seconds(in: .mindfulness) / 60
    }

    @Test(arguments: StoreKind.available)
    func readingDoesNotMoveTheRevisionAndWritingDoes(kind: StoreKind) async throws {
        let services = try await services(kind)
        let database = services.store.store
        let before = try await database.logRevision()
        _ = try await services.progress.report()
        _ = try await services.practiceLog.records()
        await #expect(try database.logRevision() == before)
        let record = try await services.practiceLog.addRecord(kind: .meditation, start: clock.now, length: 600)
        let added = try await database.logRevision()
        #expect(added > before)
        try await services.practiceLog.editRecord(record, length: 900)
        let edited = try await database.logRevision()
        #expect(edited > added)
        _ = try await services.settings.change(.jokers, to: "off")
        await #expect(try database.logRevision() > edited)
    }

    @Test(arguments: StoreKind.available)
    func theReportFollowsEveryWrite(kind: StoreKind) async throws {
        let services = try await services(kind)
        #expect(try await minutesToday(services) == 0)
        let record = try await services.practiceLog.addRecord(kind: .meditation, start: clock.now, length: 600)
        #expect(try await minutesToday(services) == 10)
        try await services.practiceLog.editRecord(record, length: 1200)
        #expect(try await minutesToday(services) == 20)
        try await services.practiceLog.deleteRecord(record)
        #expect(try await minutesToday(services) == 0)
    }

    /// SQLite: the terminal writing while the server runs; PostgreSQL: another server.
    @Test(arguments: StoreKind.available)
    func aWriteByAnotherProcessIsSeen(kind: StoreKind) async throws {
        let services = try await services(kind)
        #expect(try await minutesToday(services) == 0)
        let clock = self.clock
        let terminal = await LogServices(
            store: services.store, repository: try services.store.reopened(), device: "terminal", now: { clock.now })
        try await terminal.practiceLog.addRecord(kind: .meditation, start: clock.now, length: 300)
        #expect(try await minutesToday(services) == 5)
    }

    @Test(arguments: StoreKind.available)
    func aChangedDayStartIsSeen(kind: StoreKind) async throws {
        let services = try await services(kind)
        try await services.practiceLog.addRecord(
            kind: .meditation, start: clock.now.addingTimeInterval(-3 * 3600), length: 600)
        await #expect(try minutesToday(services) == 10)  // 05:00 counts for today
        _ = try await services.settings.change(.dayStartHour, to: "6")
        await #expect(try minutesToday(services) == 0)  // with days from 06:00 it belongs to yesterday
    }

    @Test(arguments: StoreKind.available)
    func theNextDayIsANewToday(kind: StoreKind) async throws {
        let services = try await services(kind)
        try await services.practiceLog.addRecord(kind: .meditation, start: clock.now, length: 600)
        let first = try await services.progress.report()
        #expect(first.streak(for: .mindfulness).todayCounts)
        clock.advance(by: 16 * 3600 - 1)  // 23:59:59
        await #expect(try services.progress.report().today == first.today)
        clock.advance(by: 1)
        let next = try await services.progress.report()
        #expect(next.today == first.today.adding(days: 1))
        #expect(!next.streak(for: .mindfulness).todayCounts)
    }
}

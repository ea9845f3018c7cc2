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
    /// The services progress needs, on one fresh store.
    struct Services {
        let store: StoreUnderTest
        // 2027-01-15 08:00 UTC.
        let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))
        let settings: SettingsService
        let practiceLog: PracticeLogService
        let progress: ProgressService

        init(_ kind: StoreKind) throws {
            try self.init(store: StoreUnderTest(kind))
        }

        init(store: StoreUnderTest, repository: (any LogStore)? = nil, device: String = "test") throws {
            self.store = store
            let repository = repository ?? store.store
            let clock = self.clock
            settings = SettingsService(repository: repository, now: { clock.now })
            practiceLog = PracticeLogService(
                repository: repository, now: { clock.now }, makeID: { UUID() }, device: device)
            progress = ProgressService(log: repository, settings: settings, systemTimeZone: .gmt, now: { clock.now })
        }

        func minutesToday() throws -> Int {
            let report = try progress.report()
            return report.totals[report.today].seconds(in: .mindfulness) / 60
        }
    }

    @Test(arguments: StoreKind.available)
    func readingDoesNotMoveTheRevisionAndWritingDoes(kind: StoreKind) throws {
        let services = try Services(kind)
        let database = services.store.store
        let before = try database.logRevision()
        _ = try services.progress.report()
        _ = try services.practiceLog.records()
        #expect(try database.logRevision() == before)
        let record = try services.practiceLog.addRecord(kind: .meditation, start: services.clock.now, length: 600)
        let added = try database.logRevision()
        #expect(added > before)
        try services.practiceLog.editRecord(record, length: 900)
        let edited = try database.logRevision()
        #expect(edited > added)
        _ = try services.settings.change(.jokers, to: "off")
        #expect(try database.logRevision() > edited)
    }

    @Test(arguments: StoreKind.available)
    func theReportFollowsEveryWrite(kind: StoreKind) throws {
        let services = try Services(kind)
        #expect(try services.minutesToday() == 0)
        let record = try services.practiceLog.addRecord(kind: .meditation, start: services.clock.now, length: 600)
        #expect(try services.minutesToday() == 10)
        try services.practiceLog.editRecord(record, length: 1200)
        #expect(try services.minutesToday() == 20)
        try services.practiceLog.deleteRecord(record)
        #expect(try services.minutesToday() == 0)
    }

    /// SQLite: the terminal writing while the server runs; PostgreSQL: another server.
    @Test(arguments: StoreKind.available)
    func aWriteByAnotherProcessIsSeen(kind: StoreKind) throws {
        let services = try Services(kind)
        #expect(try services.minutesToday() == 0)
        let terminal = try Services(
            store: services.store, repository: try services.store.reopened(), device: "terminal")
        try terminal.practiceLog.addRecord(kind: .meditation, start: services.clock.now, length: 300)
        #expect(try services.minutesToday() == 5)
    }

    @Test(arguments: StoreKind.available)
    func aChangedDayStartIsSeen(kind: StoreKind) throws {
        let services = try Services(kind)
        try services.practiceLog.addRecord(
            kind: .meditation, start: services.clock.now.addingTimeInterval(-3 * 3600), length: 600)
        #expect(try services.minutesToday() == 10)  // 05:00 counts for today
        _ = try services.settings.change(.dayStartHour, to: "6")
        #expect(try services.minutesToday() == 0)  // with days from 06:00 it belongs to yesterday
    }

    @Test(arguments: StoreKind.available)
    func theNextDayIsANewToday(kind: StoreKind) throws {
        let services = try Services(kind)
        let clock = services.clock
        try services.practiceLog.addRecord(kind: .meditation, start: clock.now, length: 600)
        let first = try services.progress.report()
        #expect(first.streak(for: .mindfulness).todayCounts)
        clock.advance(by: 16 * 3600 - 1)  // 23:59:59
        #expect(try services.progress.report().today == first.today)
        clock.advance(by: 1)
        let next = try services.progress.report()
        #expect(next.today == first.today.adding(days: 1))
        #expect(!next.streak(for: .mindfulness).todayCounts)
    }
}

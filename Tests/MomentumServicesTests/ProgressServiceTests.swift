import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Testing

@testable import MomentumServices

@Suite("Progress service: the report is kept until the log, the settings or the day change")
struct ProgressServiceTests {
    let directory: TemporaryDirectory
    // 2027-01-15 08:00 UTC.
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))
    let services: MomentumServices

    init() throws {
        directory = try TemporaryDirectory()
        let clock = self.clock
        services = try MomentumServices.open(
            dataDirectory: directory.url, device: "test", timeZone: .gmt, now: { clock.now }, makeID: { UUID() })
    }

    private func minutesToday() throws -> Int {
        let report = try services.progress.report()
        return report.totals[report.today].seconds(in: .mindfulness) / 60
    }

    @Test func readingDoesNotMoveTheRevisionAndWritingDoes() throws {
        let database = services.database
        let before = try database.logRevision()
        _ = try services.progress.report()
        _ = try services.practiceLog.records()
        #expect(try database.logRevision() == before)
        let record = try services.practiceLog.addRecord(kind: .meditation, start: clock.now, length: 600)
        let added = try database.logRevision()
        #expect(added > before)
        try services.practiceLog.editRecord(record, length: 900)
        let edited = try database.logRevision()
        #expect(edited > added)
        _ = try services.settings.change(.jokers, to: "off")
        #expect(try database.logRevision() > edited)
    }

    @Test func theReportFollowsEveryWrite() throws {
        #expect(try minutesToday() == 0)
        let record = try services.practiceLog.addRecord(kind: .meditation, start: clock.now, length: 600)
        #expect(try minutesToday() == 10)
        try services.practiceLog.editRecord(record, length: 1200)
        #expect(try minutesToday() == 20)
        try services.practiceLog.deleteRecord(record)
        #expect(try minutesToday() == 0)
    }

    @Test func aWriteByAnotherProcessIsSeen() throws {
        #expect(try minutesToday() == 0)
        let clock = self.clock
        let terminal = try MomentumServices.open(
            dataDirectory: directory.url, device: "terminal", timeZone: .gmt, now: { clock.now }, makeID: { UUID() })
        try terminal.practiceLog.addRecord(kind: .meditation, start: clock.now, length: 300)
        #expect(try minutesToday() == 5)
    }

    @Test func aChangedDayStartIsSeen() throws {
        try services.practiceLog.addRecord(
            kind: .meditation, start: clock.now.addingTimeInterval(-3 * 3600), length: 600)
        #expect(try minutesToday() == 10)  // 05:00 counts for today
        _ = try services.settings.change(.dayStartHour, to: "6")
        #expect(try minutesToday() == 0)  // with days from 06:00 it belongs to yesterday
    }

    @Test func theNextDayIsANewToday() throws {
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

import Foundation
import Testing

@testable import MomentumCore

@Suite("Days and day boundaries")
struct DayTests {
    @Test func daysRoundTripThroughTheirComponents() throws {
        for number in stride(from: -800_000, through: 2_900_000, by: 997) {
            let day = Day(number: number)
            let (year, month, dayOfMonth) = day.components
            guard (1...9999).contains(year) else { continue }
            #expect(try Day(year: year, month: month, day: dayOfMonth) == day)
        }
        #expect(try Day(year: 1970, month: 1, day: 1).number == 0)
        #expect(try Day(parsing: "2026-11-21").isoWeekday == 6)
        #expect(try Day(parsing: "2026-11-23") == Day(parsing: "2026-11-21").adding(days: 2))
        #expect(try Day(parsing: "2026-11-21").startOfWeek.description == "2026-11-16")
    }

    @Test(arguments: ["2026-02-30", "2025-02-29", "2026-13-01", "2026-04-31", "2026-00-10"])
    func datesThatDoNotExistAreRejected(_ text: String) {
        #expect(throws: DayError.self) { try Day(parsing: text) }
    }

    @Test(arguments: ["2024-02-29", "2000-02-29", "2026-12-31"])
    func leapDaysAndYearEndsExist(_ text: String) throws {
        #expect(try Day(parsing: text).description == text)
    }

    @Test(arguments: ["", "2026-1-01", "20261121", "2026-11-2x", "abcd-ef-gh"])
    func unreadableDatesAreRejected(_ text: String) {
        #expect(throws: DayError.unreadable(text)) { try Day(parsing: text) }
    }

    @Test func aSitAtHalfPastOneWithDayStartFourCountsForTheEveningBefore() throws {
        var log = try LogBuilder(dayStartHour: 4)
        try log.add(daysAgo: 0, seconds: 600, hour: 1, minute: 30)
        try log.add(daysAgo: 0, seconds: 600, hour: 4, minute: 0)
        let days = log.totals.practiceDays.map(\.day)
        #expect(days == [log.today.adding(days: -1), log.today])
    }

    @Test func dayStartHourIsBounded() {
        #expect(throws: DayCalendarError.dayStartHourOutOfRange(7)) {
            try DayCalendar(timeZone: LogBuilder.berlin, dayStartHour: 7)
        }
        #expect(throws: Never.self) { try DayCalendar(timeZone: LogBuilder.berlin, dayStartHour: 6) }
    }

    /// 29 March 2026: Berlin skips 02:00–03:00. 25 October 2026: it repeats 02:00–03:00.
    @Test(arguments: [("2026-03-29", 0), ("2026-03-29", 4), ("2026-10-25", 0), ("2026-10-25", 4)])
    func daylightSavingChangesNeitherLoseNorDoubleADay(transition: String, dayStartHour: Int) throws {
        let changeDay = try Day(parsing: transition)
        var log = try LogBuilder(today: changeDay.adding(days: 3), dayStartHour: dayStartHour)
        // A sit every morning at 07:00 and every night at 23:30, from three days before to three after.
        for ago in 0...6 {
            try log.add(daysAgo: ago, seconds: 600, hour: 7)
            try log.add(daysAgo: ago, seconds: 300, hour: 23, minute: 30)
        }
        let days = log.totals.practiceDays.map(\.day)
        #expect(days.count == 7)
        #expect(zip(days, days.dropFirst()).allSatisfy { $0.days(to: $1) == 1 })
        #expect(log.totals.practiceDays.allSatisfy { $0.total.totalSeconds == 900 })
        #expect(log.streak().current == 7)
    }

    @Test func theDoubledAutumnHourBelongsToOneDay() throws {
        let calendar = try DayCalendar(timeZone: LogBuilder.berlin, dayStartHour: 0)
        // 00:30 and 01:30 UTC on 25 Oct 2026 are 02:30 CEST and 02:30 CET.
        let first = Date(timeIntervalSince1970: 1_792_888_200)
        let second = first.addingTimeInterval(3600)
        #expect(calendar.day(of: first) == calendar.day(of: second))
        #expect(calendar.day(of: first).description == "2026-10-25")
        #expect(
            calendar.start(of: try Day(parsing: "2026-10-26")).timeIntervalSince(
                calendar.start(of: try Day(parsing: "2026-10-25"))) == 25 * 3600)
    }
}

@Suite("Daily totals: the fast offset table agrees with the time zone")
struct DailyTotalsOffsetTests {
    @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"])
    func everyRecordLandsOnTheDayTheCalendarGivesIt(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        var generator = SeededGenerator(seed: 99)
        for dayStartHour in [0, 4] {
            let calendar = try DayCalendar(timeZone: timeZone, dayStartHour: dayStartHour)
            // Instants near midnight and the day start across five years, where offsets matter most.
            let records = try (0..<3000).map { _ in
                let day = Double(Int.random(in: 20_000...21_800, using: &generator)) * 86_400
                let second = day + Double(Int.random(in: -7 * 3600...7 * 3600, using: &generator))
                let start = Date(timeIntervalSince1970: second)
                return try PracticeRecord(
                    id: UUID(), kind: .meditation, start: start, end: start.addingTimeInterval(60), countedSeconds: 60,
                    device: "test")
            }
            let totals = DailyTotals(records: records, calendar: calendar)
            var expected: [Day: Int] = [:]
            for record in records { expected[calendar.day(of: record.start), default: 0] += 1 }
            let actual = Dictionary(uniqueKeysWithValues: totals.practiceDays.map { ($0.day, $0.total.totalSessions) })
            #expect(actual == expected)
        }
    }
}

import Foundation
import Testing

@testable import MomentumCore

@Suite("Goals, habit strength, calendar pictures and statistics")
struct StatisticsTests {
    @Test(arguments: [(60, nil), (120, 0.2), (300, 0.5), (600, 1.0), (1800, 1.0)] as [(Int, Double?)])
    func dayFillIsMinutesOverGoalCappedAtOneForCountingDaysOnly(seconds: Int, fill: Double?) throws {
        var log = try LogBuilder()
        try log.add(daysAgo: 0, seconds: seconds)
        #expect(ProgressSettings().fill(of: log.totals[log.today], for: .mindfulness) == fill)
    }

    @Test func habitStrengthFollowsTheFormula() throws {
        var log = try LogBuilder()
        try log.sits(on: 1...30)
        let m = pow(0.5, 1.0 / 13.0)
        let strength = HabitStrength(totals: log.totals, category: .mindfulness, today: log.today)
        #expect(strength.series.count == 30)
        #expect(abs(strength.series[0].score - (1 - m)) < 1e-12)
        #expect(abs(strength.current - (1 - pow(m, 30))) < 1e-12)
    }

    @Test func aSkippedFortnightRoughlyHalvesTheScore() throws {
        var log = try LogBuilder()
        try log.sits(on: 14...200)
        let before = HabitStrength(totals: log.totals, category: .mindfulness, today: log.today.adding(days: -14))
        let after = HabitStrength(totals: log.totals, category: .mindfulness, today: log.today)
        // 13 skipped days halve it exactly; the walk stops at yesterday, 13 days after the last sit.
        #expect(abs(after.current - before.current / 2) < 1e-9)
    }

    @Test func monthGridStartsOnMondayAndMarksTodayAndFuture() throws {
        let today = try Day(parsing: "2026-11-21")
        var log = try LogBuilder(today: today)
        try log.sits(on: [0, 1, 5])
        let month = try CalendarMonth(
            year: 2026, month: 11, totals: log.totals, settings: ProgressSettings(),
            streaks: [.mindfulness: log.streak()], today: today)
        // 1 November 2026 is a Sunday: six empty cells first.
        #expect(month.weeks.first?.prefix(6).allSatisfy { $0 == nil } == true)
        #expect(month.weeks.first?[6]?.day.description == "2026-11-01")
        #expect(month.weeks.count == 6)
        let cells = month.weeks.joined().compactMap { $0 }
        #expect(cells.count == 30)
        #expect(cells.first { $0.isToday }?.day == today)
        #expect(cells.filter(\.isFuture).count == 9)
        #expect(cells.filter { $0.counts.contains(.mindfulness) }.map(\.day.dayOfMonth) == [16, 20, 21])
        #expect(cells.first { $0.day == today }?.fill[.mindfulness] == 1)
    }

    @Test(arguments: ["2026-11-23", "2026-11-26", "2026-11-29", "2027-01-01"])
    func theWeekRunsMondayToSundayAroundTodayAsTheCalendarDrawsIt(todayText: String) throws {
        let today = try Day(parsing: todayText)
        var log = try LogBuilder(today: today)
        try log.sits(on: 0...9)
        let report = ProgressReport(
            records: log.records, settings: ProgressSettings(), systemTimeZone: LogBuilder.berlin,
            now: log.calendar.start(of: today).addingTimeInterval(12 * 3600))
        let week = report.week()
        #expect(week.map(\.day.isoWeekday) == Array(1...7))
        #expect(week.first { $0.isToday }?.day == today)
        #expect(week.filter(\.isFuture).map(\.day) == week.map(\.day).filter { $0 > today })
        #expect(week.filter { !$0.counts.isEmpty }.map(\.day) == week.map(\.day).filter { $0 <= today })
        // The same cells as the month's calendar, day for day.
        let (year, month, _) = today.components
        let cells = try report.month(year: year, month: month).weeks.joined().compactMap { $0 }
        for day in week where day.day.components.month == month {
            #expect(cells.first { $0.day == day.day } == day)
        }
    }

    @Test func hiddenStreaksLeaveNoStreakMarksOnTheCalendar() throws {
        var log = try LogBuilder()
        try log.sits(on: 0...3)
        var settings = ProgressSettings()
        settings.hideStreaks = true
        let (year, month, _) = log.today.components
        let grid = try CalendarMonth(
            year: year, month: month, totals: log.totals, settings: settings, streaks: [.mindfulness: log.streak()],
            today: log.today)
        #expect(grid.weeks.joined().compactMap { $0 }.allSatisfy { $0.streak.isEmpty })
    }

    @Test func heatLevelsGrowWithTheFill() throws {
        var log = try LogBuilder(today: try Day(parsing: "2026-06-30"))
        try log.add(daysAgo: 0, seconds: 60)
        try log.add(daysAgo: 1, seconds: 180)
        try log.add(daysAgo: 2, seconds: 420)
        try log.add(daysAgo: 3, seconds: 900)
        try log.add(daysAgo: 4, seconds: 30, kind: .morse)
        let map = try YearHeatMap(year: 2026, totals: log.totals, settings: ProgressSettings(), category: nil)
        #expect(map.levels.count == 365)
        let level = Dictionary(uniqueKeysWithValues: map.levels.map { ($0.day, $0.level) })
        #expect((0...5).map { level[log.today.adding(days: -$0)] } == [1, 2, 3, 4, 3, 0])
    }

    @Test func statisticsSumPerKindAndCategoryOverThePeriod() throws {
        let today = try Day(parsing: "2026-11-21")  // a Saturday
        var log = try LogBuilder(today: today)
        try log.add(daysAgo: 0, seconds: 600, kind: .meditation)
        try log.add(daysAgo: 0, seconds: 300, kind: .breathing, hour: 9)
        try log.add(daysAgo: 3, seconds: 1200, kind: .workout)
        try log.add(daysAgo: 10, seconds: 900, kind: .meditation)
        try log.add(daysAgo: 400, seconds: 60, kind: .morse)
        let week = PracticeStatistics(totals: log.totals, period: .week, today: today)
        #expect(week.from.description == "2026-11-16")
        #expect(week.dayCount == 6)
        #expect(week.total == .init(seconds: 2100, sessions: 3, activeDays: 2))
        #expect(week.byCategory[.mindfulness] == .init(seconds: 900, sessions: 2, activeDays: 1))
        #expect(week.byKind[.workout] == .init(seconds: 1200, sessions: 1, activeDays: 1))
        #expect(week.averageSecondsPerDay == 350)
        #expect(week.averageSecondsPerSession == 700)
        let month = PracticeStatistics(totals: log.totals, period: .month, today: today)
        #expect(month.total.seconds == 3000)
        let all = PracticeStatistics(totals: log.totals, period: .allTime, today: today)
        #expect(all.total.sessions == 5)
        #expect(all.from == today.adding(days: -400))
    }
}

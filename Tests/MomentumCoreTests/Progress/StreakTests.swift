import Foundation
import Testing

@testable import MomentumCore

@Suite("Counting days, streaks and jokers")
struct StreakTests {
    @Test(arguments: [(84, false), (89, false), (90, true), (119, true), (120, true)])
    func aDayCountsFromOneAndAHalfMinutesRounded(seconds: Int, counts: Bool) throws {
        var log = try LogBuilder()
        try log.add(daysAgo: 0, seconds: seconds)
        #expect(log.totals[log.today].counts(for: .mindfulness) == counts)
    }

    @Test func sessionsOfADayAddUpAndKindsCountForTheirCategory() throws {
        var log = try LogBuilder()
        try log.add(daysAgo: 0, seconds: 50, kind: .meditation)
        try log.add(daysAgo: 0, seconds: 40, kind: .breathing, hour: 9)
        try log.add(daysAgo: 0, seconds: 80, kind: .workout, hour: 18)
        try log.add(daysAgo: 1, seconds: 10, kind: .morse)
        let totals = log.totals
        #expect(totals[log.today].counts(for: .mindfulness))
        #expect(!totals[log.today].counts(for: .workout))
        #expect(totals[log.today.adding(days: -1)].counts(for: .morse))
        #expect(!totals[log.today.adding(days: -1)].counts(for: .mindfulness))
    }

    @Test func todayIsPendingUntilItIsOver() throws {
        var log = try LogBuilder()
        try log.sits(on: 1...3)
        let streak = log.streak()
        #expect(streak.current == 3)
        #expect(!streak.todayCounts)
        try log.add(daysAgo: 0, seconds: 600)
        #expect(log.streak().current == 4)
        #expect(log.streak().todayCounts)
    }

    @Test func aMissedYesterdayWithoutJokersEndsTheStreak() throws {
        var log = try LogBuilder()
        try log.sits(on: 2...4)
        #expect(log.streak().current == 0)
        #expect(log.streak().longest == 3)
        #expect(log.streak().days[log.today.adding(days: -1)] == .broken)
    }

    @Test(arguments: [(6, 0), (7, 1), (13, 1), (14, 2), (21, 3), (28, 3), (70, 3)])
    func everySevenCountedDaysEarnAJokerUpToThree(days: Int, jokers: Int) throws {
        var log = try LogBuilder()
        try log.sits(on: 1...days)
        #expect(log.streak().jokersHeld == jokers)
        #expect(log.streak().current == days)
    }

    @Test func aOneDayGapWithAJokerKeepsTheStreakAndAddsNothing() throws {
        var log = try LogBuilder()
        try log.sits(on: 4...10)  // 7 days: one joker
        try log.sits(on: 1...2)  // day 3 ago missed
        let streak = log.streak()
        #expect(streak.current == 9)
        #expect(streak.jokersHeld == 0)
        #expect(streak.days[log.today.adding(days: -3)] == .jokerUsed)
    }

    @Test func twoGapDaysWithOneJokerEndTheStreak() throws {
        var log = try LogBuilder()
        try log.sits(on: 4...10)
        try log.sits(on: 1...1)  // days 3 and 2 ago missed
        let streak = log.streak()
        #expect(streak.current == 1)
        #expect(streak.longest == 7)
        #expect(streak.days[log.today.adding(days: -3)] == .jokerUsed)
        #expect(streak.days[log.today.adding(days: -2)] == .broken)
    }

    @Test func withJokersOffAGapEndsTheStreak() throws {
        var log = try LogBuilder()
        try log.sits(on: 4...10)
        try log.sits(on: 1...2)
        let streak = log.streak(jokers: false)
        #expect(streak.current == 2)
        #expect(streak.longest == 7)
        #expect(streak.jokersHeld == 0)
    }

    @Test func aJokerCoversYesterdayWhileTodayIsStillOpen() throws {
        var log = try LogBuilder()
        try log.sits(on: 2...8)
        let streak = log.streak()
        #expect(streak.current == 7)
        #expect(streak.days[log.today.adding(days: -1)] == .jokerUsed)
        #expect(streak.days[log.today] == nil)
    }

    @Test func consecutiveRunRestartsAfterAJokerDay() throws {
        var log = try LogBuilder()
        try log.sits(on: 10...16)  // 7 → 1 joker
        try log.sits(on: 1...8)  // day 9 ago uses it; 8 more days → one more joker
        let streak = log.streak()
        #expect(streak.current == 15)
        #expect(streak.jokersHeld == 1)
    }

    @Test func morseCountsAnySession() throws {
        var log = try LogBuilder()
        try log.add(daysAgo: 0, seconds: 5, kind: .morse)
        try log.add(daysAgo: 1, seconds: 5, kind: .morse)
        #expect(log.streak(.morse).current == 2)
        #expect(log.streak(.mindfulness).current == 0)
    }

    @Test func theDaysTheCalendarShowsAsCountedAreExactlyTheDaysTheStreakWalksOver() throws {
        var generator = SeededGenerator(seed: 2026)
        for _ in 0..<60 {
            var log = try LogBuilder()
            for ago in 0..<120 where Int.random(in: 0..<10, using: &generator) < 6 {
                let seconds = Int.random(in: 0...400, using: &generator)
                let hour = Int.random(in: 0...23, using: &generator)
                try log.add(
                    daysAgo: ago, seconds: seconds, hour: hour, minute: Int.random(in: 0...59, using: &generator))
            }
            let totals = log.totals
            for jokers in [true, false] {
                let streak = Streak(totals: totals, category: .mindfulness, today: log.today, jokersEnabled: jokers)
                var shown = Set<Day>()
                var month = log.today.adding(days: -130).startOfMonth
                while month <= log.today {
                    let calendarMonth = try CalendarMonth(
                        year: month.year, month: month.month, totals: totals, settings: ProgressSettings(),
                        streaks: [.mindfulness: streak], today: log.today)
                    for cell in calendarMonth.weeks.joined().compactMap({ $0 }) {
                        if cell.counts.contains(.mindfulness) && cell.day <= log.today { shown.insert(cell.day) }
                        if cell.streak[.mindfulness] == .counted { #expect(cell.counts.contains(.mindfulness)) }
                    }
                    month = month.adding(days: 32).startOfMonth
                }
                // Today still counts as shown only once it counts; the walk includes it then too.
                let walked = Set(streak.days.days(.counted))
                #expect(shown == walked)
            }
        }
    }
}

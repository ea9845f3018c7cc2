import Foundation
import Testing

@testable import MomentumCore

/// Quiet daily trackers: names as every name, answerable days (no future, none before 2000), and
/// the run of "yes" days — an unanswered today does not break it, an unanswered past day ends it,
/// and an unanswered day is never a "no".
@Suite("Tracker rules")
struct TrackerRulesTests {
    let today = Day(number: 20_000)

    private func answers(_ pairs: [(Int, Bool)]) -> [Day: Bool] {
        Dictionary(uniqueKeysWithValues: pairs.map { (today.adding(days: -$0.0), $0.1) })
    }

    @Test func theEarliestDayIsTheFirstOf2000() throws {
        #expect(TrackerRules.earliestDay == (try Day(year: 2000, month: 1, day: 1)))
    }

    @Test func namesAreTrimmedAndKeepTheRulesOfEveryName() throws {
        #expect(try TrackerRules.checkedName("  Alcohol-free ") == "Alcohol-free")
        #expect(throws: TrackerError.emptyName) { try TrackerRules.checkedName("   ") }
        #expect(throws: TrackerError.nameTooLong(maximum: 100)) {
            try TrackerRules.checkedName(String(repeating: "a", count: 101))
        }
        #expect(try TrackerRules.checkedName(String(repeating: "ä", count: 100)).count == 100)
        #expect(throws: TrackerError.name(.controlCharacter(field: "name", code: 0x07))) {
            try TrackerRules.checkedName("No\u{7}sugar")
        }
        #expect(throws: TrackerError.name(.bidirectionalControl(field: "name", code: 0x202E))) {
            try TrackerRules.checkedName("\u{202E}No sugar")
        }
    }

    @Test func twoTrackersMayNotShareANameInAnyCase() throws {
        let sugar = try Tracker(
            id: UUID(), name: "No sugar", askAt: TimeOfDay(validHour: 21), about: .today, createdAt: Date())
        #expect(throws: TrackerError.duplicateName("NO SUGAR")) {
            try TrackerRules.checkFree("NO SUGAR", among: [sugar])
        }
        try TrackerRules.checkFree("No Sugar", among: [sugar], renaming: sugar.id)
        #expect(throws: TrackerError.emptyName) { try sugar.renamed("") }
        #expect(try sugar.renamed(" Less sugar ").name == "Less sugar")
    }

    @Test func onlyTodayAndPastDaysSince2000AreAnswerable() throws {
        try TrackerRules.checkAnswerable(today, today: today)
        try TrackerRules.checkAnswerable(today.adding(days: -400), today: today)
        #expect(throws: TrackerError.futureDay(today.adding(days: 1))) {
            try TrackerRules.checkAnswerable(today.adding(days: 1), today: today)
        }
        let before = TrackerRules.earliestDay.adding(days: -1)
        #expect(throws: TrackerError.dayTooEarly(before)) { try TrackerRules.checkAnswerable(before, today: today) }
    }

    @Test func theRunCountsYesDaysBackFromTodayOrFromYesterdayWhileTodayIsOpen() {
        // Today yes, and the three days before.
        #expect(
            TrackerRules.currentRun(
                of: answers([(0, true), (1, true), (2, true), (3, true), (4, false)]), today: today) == 4)
        // Today not answered yet: the run is yesterday's.
        #expect(TrackerRules.currentRun(of: answers([(1, true), (2, true), (3, false)]), today: today) == 2)
        // Today no: the run is over.
        #expect(TrackerRules.currentRun(of: answers([(0, false), (1, true), (2, true)]), today: today) == 0)
        // A past day left unanswered ends the run (it is not a "no", and not a "yes").
        #expect(TrackerRules.currentRun(of: answers([(0, true), (1, true), (3, true), (4, true)]), today: today) == 2)
        #expect(TrackerRules.currentRun(of: [:], today: today) == 0)
    }

    @Test func theListShowsTheLastWeekOldestFirstWithUnansweredDaysEmpty() {
        let week = TrackerRules.lastDays(of: answers([(0, true), (2, false)]), today: today)
        #expect(week.map(\.day) == (0..<7).reversed().map { today.adding(days: -$0) })
        #expect(week.map(\.answer) == [nil, nil, nil, nil, false, nil, true])
    }

    @Test func aMorningQuestionIsAboutYesterday() {
        #expect(TrackerRules.day(askedOn: today, about: .today) == today)
        #expect(TrackerRules.day(askedOn: today, about: .yesterday) == today.adding(days: -1))
    }
}

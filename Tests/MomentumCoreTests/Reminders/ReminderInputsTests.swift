import Foundation
import Testing

@testable import MomentumCore

@Suite("Reminder inputs from the progress report")
struct ReminderInputsTests {
    static let today = Day(number: 20_600)

    func inputs(_ build: (inout LogBuilder) throws -> Void, hideStreaks: Bool = false) throws -> ReminderInputs {
        var log = try LogBuilder(today: Self.today)
        try build(&log)
        var settings = ProgressSettings()
        settings.hideStreaks = hideStreaks
        let now = log.calendar.start(of: Self.today).addingTimeInterval(12 * 3600)
        let report = ProgressReport(
            records: log.records, settings: settings, systemTimeZone: LogBuilder.berlin, now: now)
        return ReminderInputs(report: report, now: now, settings: ReminderSettings())
    }

    @Test func streaksTodaysCategoriesAndTheLastPracticeDayComeFromTheReport() throws {
        let inputs = try inputs { log in
            try log.sits(on: 1...5)
            try log.add(daysAgo: 0, seconds: 600, kind: .workout, hour: 9)
            try log.add(daysAgo: 0, seconds: 20, kind: .focus, hour: 10)
        }
        #expect(inputs.currentStreaks == [.mindfulness: 5, .workout: 1])
        #expect(inputs.practisedToday == [.workout, .focus])
        #expect(inputs.timeZone == LogBuilder.berlin)
        let lastPractice = try #require(inputs.lastPractice)
        #expect(LocalClock(timeZone: LogBuilder.berlin).day(of: lastPractice) == Self.today)
    }

    @Test func aLogThatEndedTenDaysAgoMeansWelcomeBackIsDue() throws {
        let inputs = try inputs { try $0.sits(on: [10, 11]) }
        #expect(inputs.practisedToday.isEmpty)
        #expect(inputs.currentStreaks.isEmpty)
        let lastPractice = try #require(inputs.lastPractice)
        #expect(LocalClock(timeZone: LogBuilder.berlin).day(of: lastPractice) == Self.today.adding(days: -10))
    }

    @Test func anEmptyLogHasNoLastPracticeAndNoStreaks() throws {
        let inputs = try inputs { _ in }
        #expect(inputs.lastPractice == nil)
        #expect(inputs.currentStreaks.isEmpty)
        #expect(ReminderPlanner.plan(inputs).isEmpty)
    }

    @Test func hiddenStreaksAreNeverMentionedInAReminder() throws {
        let shown = try inputs { try $0.sits(on: 1...4) }
        #expect(ReminderPlanner.plan(shown).map(\.id) == ["streak.reminder"])
        let hidden = try inputs({ try $0.sits(on: 1...4) }, hideStreaks: true)
        #expect(hidden.currentStreaks.isEmpty)
        #expect(ReminderPlanner.plan(hidden).isEmpty)
    }
}

import Foundation
import Testing

@testable import MomentumCore

/// Each kind's own rule, with only that kind switched on. "Today" is Monday 2026-11-23, Berlin.
@Suite("Reminder rules: when each kind sounds")
struct ReminderRulesTests {
    typealias Direction = ReminderInputs.MorseDirection

    @Test(arguments: [
        ("2026-11-25 15:00", "07:00", ["practice.receive @ 2026-11-25 09:00"]),
        ("2026-11-20 18:00", "07:00", ["practice.receive @ 2026-11-23 09:00"]),
        ("2026-11-23 06:00", "10:00", ["practice.receive @ 2026-11-24 09:00"]),
        ("2026-11-23 06:00", "08:59", ["practice.receive @ 2026-11-23 09:00"]),
        ("2026-11-29 23:00", "07:00", ["practice.receive @ 2026-11-29 09:00"]),
        ("2026-11-30 00:00", "07:00", []),
    ])
    func practiceDueSoundsAtThePreferredTimeOnItsDayOrTheNextPossibleOne(
        due: String, now: String, expected: [String]
    ) throws {
        var inputs = try ReminderClock.inputs(now: now, settings: ReminderClock.only(.practiceDue))
        inputs.morse[.receive] = .init(nextPractice: try ReminderClock.at(due))
        let plan = ReminderPlanner.plan(inputs)
        #expect(plan.lines() == expected)
        #expect(plan.allSatisfy { $0.kind == .practiceDue && $0.category == .morse && !$0.wasMoved })
    }

    @Test func eachDirectionHasItsOwnPracticeDueReminder() throws {
        var inputs = try ReminderClock.inputs(now: "07:00", settings: ReminderClock.only(.practiceDue))
        inputs.morse[.receive] = .init(nextPractice: try ReminderClock.at("2026-11-24 12:00"))
        inputs.morse[.send] = .init(nextPractice: try ReminderClock.at("2026-11-26 12:00"))
        let plan = ReminderPlanner.plan(inputs)
        #expect(plan.lines() == ["practice.receive @ 2026-11-24 09:00", "practice.send @ 2026-11-26 09:00"])
        #expect(plan.map(\.title.key) == ["reminder.practice.receive.title", "reminder.practice.send.title"])
    }

    @Test(
        arguments: [
            ([PracticeCategory.mindfulness: 3], Set<PracticeCategory>(), "07:00", "mindfulness 3 @ 2026-11-23 20:00"),
            ([.mindfulness: 2], [], "07:00", nil),
            ([.mindfulness: 5, .workout: 8], [], "07:00", "workout 8 @ 2026-11-23 20:00"),
            ([.mindfulness: 4, .workout: 4], [], "07:00", "mindfulness 4 @ 2026-11-23 20:00"),
            ([.mindfulness: 5], [.focus], "07:00", nil),
            ([.mindfulness: 5], [], "19:59", "mindfulness 5 @ 2026-11-23 20:00"),
            ([.mindfulness: 5], [], "20:00", nil),
        ] as [([PracticeCategory: Int], Set<PracticeCategory>, String, String?)])
    func theStreakReminderSoundsAt20OnlyTodayWhenNothingWasPractisedAndAStreakOf3IsAtStake(
        streaks: [PracticeCategory: Int], practised: Set<PracticeCategory>, now: String, expected: String?
    ) throws {
        var inputs = try ReminderClock.inputs(now: now, settings: ReminderClock.only(.streak))
        inputs.currentStreaks = streaks
        inputs.practisedToday = practised
        let plan = ReminderPlanner.plan(inputs)
        let described = plan.map {
            "\($0.category?.rawValue ?? "-") \($0.title.arguments["count"] ?? "-") @ \(ReminderClock.text($0.fireAt))"
        }
        #expect(described == (expected.map { [$0] } ?? []))
        #expect(plan.allSatisfy { $0.id == "streak.reminder" && $0.occurrenceID == "streak.reminder.2026-11-23" })
    }

    @Test func theStreakReminderIsDroppedWhenQuietHoursWouldPushItIntoTomorrow() throws {
        let settings = try ReminderClock.only(.streak).withQuietHours(start: "19:00", end: "07:00")
        var inputs = try ReminderClock.inputs(now: "07:00", settings: settings)
        inputs.currentStreaks = [.mindfulness: 9]
        #expect(ReminderPlanner.plan(inputs).isEmpty)
        let earlyEvening = try ReminderClock.only(.streak).withQuietHours(start: "20:00", end: "20:30")
        inputs.settings = earlyEvening
        #expect(ReminderPlanner.plan(inputs).lines() == ["streak.reminder @ 2026-11-23 20:30"])
    }

    @Test(
        arguments: [
            ([(Direction.receive, 5, "2026-11-18 16:00")], ["level.review.5 @ 2026-11-25 09:00"]),
            (
                [(.receive, 5, "2026-11-18 16:00"), (.send, 5, "2026-11-20 10:00")],
                ["level.review.5 @ 2026-11-25 09:00"]
            ),
            (
                [(.send, 5, "2026-11-20 10:00"), (.receive, 6, "2026-11-21 08:00")],
                ["level.review.5 @ 2026-11-27 09:00", "level.review.6 @ 2026-11-28 09:00"]
            ),
            ([(.receive, 4, "2026-11-10 12:00")], []),
            ([(.receive, 4, "2026-11-16 08:00")], ["level.review.4 @ 2026-11-23 09:00"]),
            ([(.receive, 6, "2026-11-23 06:00")], []),
        ] as [([(Direction, Int, String)], [String])])
    func aLevelReviewSoundsAWeekAfterTheFirstDirectionReachedTheLevel(
        levelUps: [(Direction, Int, String)], expected: [String]
    ) throws {
        var inputs = try ReminderClock.inputs(now: "07:00", settings: ReminderClock.only(.levelReview))
        for (direction, level, instant) in levelUps {
            inputs.morse[direction, default: .init()].levelUps.append(
                .init(level: level, reachedAt: try ReminderClock.at(instant)))
        }
        let plan = ReminderPlanner.plan(inputs)
        #expect(plan.lines() == expected)
        #expect(plan.allSatisfy { "level.review.\($0.title.arguments["level"] ?? "")" == $0.id })
    }

    @Test(
        arguments: [
            ("2026-11-15 18:00", ["welcome.back @ 2026-11-23 09:00"]),
            ("2026-11-16 07:00", ["welcome.back @ 2026-11-24 09:00"]),
            ("2026-11-21 21:00", ["welcome.back @ 2026-11-29 09:00"]),
            ("2026-11-14 12:00", []),
            ("2026-11-22 12:00", []),
            (nil, []),
        ] as [(String?, [String])])
    func welcomeBackSoundsOnceTheDayAfterSevenFullDaysAway(lastPractice: String?, expected: [String]) throws {
        var inputs = try ReminderClock.inputs(now: "07:00", settings: ReminderClock.only(.welcomeBack))
        inputs.lastPractice = try lastPractice.map { try ReminderClock.at($0) }
        let plan = ReminderPlanner.plan(inputs)
        #expect(plan.lines() == expected)
        #expect(plan.allSatisfy { $0.category == nil })
    }

    @Test(arguments: [
        ("workdays", "09:30", ["23", "24", "25", "26", "27"]),
        ("weekend", "10:00", ["28", "29"]),
        ("mon", "08:29", []),
        ("mon", "08:31", ["23"]),
        ("all", "12:00", ["23", "24", "25", "26", "27", "28", "29"]),
    ])
    func aDailyReminderSoundsAtItsTimeOnEachOfItsWeekdays(weekdays: String, time: String, days: [String]) throws {
        let settings = try ReminderClock.only(.daily).addingDaily(
            id: "mine", time: time, weekdays: weekdays, category: "mindfulness")
        let plan = ReminderPlanner.plan(try ReminderClock.inputs(now: "08:30", settings: settings))
        #expect(plan.lines() == days.map { "daily.mine @ 2026-11-\($0) \(time)" })
        #expect(plan.map(\.occurrenceID) == days.map { "daily.mine.2026-11-\($0)" })
        #expect(plan.allSatisfy { $0.category == .mindfulness && $0.body.arguments["time"] == time })
    }

    @Test(arguments: [0, 1, 3])
    func thePlanCoversTheHorizonsDaysFromToday(horizonDays: Int) throws {
        let settings = try ReminderClock.only(.daily).addingDaily(
            time: "12:00", weekdays: "all", category: "focus")
        let plan = ReminderPlanner.plan(
            try ReminderClock.inputs(now: "07:00", settings: settings), horizonDays: horizonDays)
        #expect(plan.count == horizonDays)
    }

    /// Inputs that ask for every kind on different days.
    func everything(_ settings: ReminderSettings) throws -> ReminderInputs {
        var inputs = try ReminderClock.inputs(
            now: "07:00", settings: try settings.addingDaily(time: "12:00", weekdays: "fri", category: "focus"))
        inputs.morse[.receive] = .init(
            nextPractice: try ReminderClock.at("2026-11-24 12:00"),
            levelUps: [.init(level: 5, reachedAt: try ReminderClock.at("2026-11-18 12:00"))])
        inputs.currentStreaks = [.mindfulness: 4]
        inputs.lastPractice = try ReminderClock.at("2026-11-16 12:00")
        return inputs
    }

    @Test(arguments: ReminderKind.allCases)
    func aKindSwitchedOffIsNeverPlanned(kind: ReminderKind) throws {
        let alone = ReminderPlanner.plan(try everything(ReminderClock.only(kind)))
        #expect(alone.contains { $0.kind == kind })
        let others = ReminderPlanner.plan(try everything(ReminderSettings().setting(kind: kind, on: false)))
        #expect(!others.isEmpty)
        #expect(!others.contains { $0.kind == kind })
    }

    @Test(arguments: ReminderKind.allCases)
    func everyReminderReadsWarmlyInEnglishAndGerman(kind: ReminderKind) throws {
        let reminders = ReminderPlanner.plan(try everything(ReminderClock.only(kind)))
        for reminder in reminders {
            for language in Language.allCases {
                let catalog = StringCatalog.shared(for: language)
                for text in [catalog.text(reminder.title), catalog.text(reminder.body)] {
                    #expect(!text.hasPrefix("reminder.") && !text.contains("{"), "\(language): \(text)")
                }
            }
        }
    }
}

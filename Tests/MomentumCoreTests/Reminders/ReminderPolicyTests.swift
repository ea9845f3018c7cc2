import Foundation
import Testing

@testable import MomentumCore

/// The anti-nag policy at its edges. "Today" is Monday 2026-11-23, Berlin, quiet 22:00 – 08:00.
@Suite("Reminder policy: never nagging")
struct ReminderPolicyTests {
    /// Daily focus reminders on Mondays at `times`, named `a`, `b`, … in order.
    func mondayReminders(_ times: [String], now: String = "07:00", quiet: (String, String)? = nil) throws
        -> ReminderInputs
    {
        var settings = ReminderClock.only(.daily)
        if let (start, end) = quiet { settings = try settings.withQuietHours(start: start, end: end) }
        for (index, time) in times.enumerated() {
            let id = String(UnicodeScalar(UInt8(97 + index)))
            settings = try settings.addingDaily(id: id, time: time, weekdays: "mon", category: "focus")
        }
        return try ReminderClock.inputs(now: now, settings: settings)
    }

    @Test(arguments: [
        (["08:00", "12:00"], ["daily.a @ 2026-11-23 08:00", "daily.b @ 2026-11-23 12:00"]),
        (["08:00", "12:00", "16:00"], ["daily.a @ 2026-11-23 08:00", "daily.b @ 2026-11-23 12:00"]),
        (["16:00", "08:00", "12:00"], ["daily.b @ 2026-11-23 08:00", "daily.c @ 2026-11-23 12:00"]),
    ])
    func aDayHoldsAtMostTwoReminders(times: [String], expected: [String]) throws {
        #expect(ReminderPlanner.plan(try mondayReminders(times)).lines() == expected)
    }

    @Test func theDaysTwoPlacesGoByPriorityThenTime() throws {
        var inputs = try ReminderClock.inputs(
            now: "07:00",
            settings: try ReminderSettings().addingDaily(time: "16:00", weekdays: "mon", category: "focus"))
        inputs.morse[.receive] = .init(nextPractice: try ReminderClock.at("2026-11-23 06:00"))
        inputs.currentStreaks = [.workout: 5]
        #expect(
            ReminderPlanner.plan(inputs).lines() == [
                "practice.receive @ 2026-11-23 09:00", "daily.1 @ 2026-11-23 16:00",
            ])
    }

    @Test(arguments: [
        (
            ["08:00", "11:59"], nil as (String, String)?,
            ["daily.a @ 2026-11-23 08:00", "daily.b @ 2026-11-23 12:00 moved"]
        ),
        (["08:00", "12:00"], nil, ["daily.a @ 2026-11-23 08:00", "daily.b @ 2026-11-23 12:00"]),
        (["08:00", "12:01"], nil, ["daily.a @ 2026-11-23 08:00", "daily.b @ 2026-11-23 12:01"]),
        (["18:30", "21:00"], nil, ["daily.a @ 2026-11-23 18:30"]),
        (["17:59", "21:58"], nil, ["daily.a @ 2026-11-23 17:59", "daily.b @ 2026-11-23 21:59 moved"]),
        (["20:00", "23:00"], ("01:00", "06:00"), ["daily.a @ 2026-11-23 20:00"]),
    ])
    func aReminderUnderFourHoursFromAnotherMovesToFourHoursAfterItOrIsDropped(
        times: [String], quiet: (String, String)?, expected: [String]
    ) throws {
        let plan = ReminderPlanner.plan(try mondayReminders(times, quiet: quiet))
        #expect(plan.map { "\($0.id) @ \(ReminderClock.text($0.fireAt))\($0.wasMoved ? " moved" : "")" } == expected)
    }

    @Test func aMovedReminderRemembersWhenItWouldHaveSounded() throws {
        let plan = ReminderPlanner.plan(try mondayReminders(["08:00", "11:59"]))
        let moved = try #require(plan.last)
        #expect(moved.movedFrom == (try ReminderClock.at("11:59")))
        #expect(moved.fireAt.timeIntervalSince(try #require(plan.first).fireAt) == 4 * 3600)
    }

    @Test func aLowerPriorityReminderMovesAfterAHigherPriorityOneThatComesLater() throws {
        var inputs = try ReminderClock.inputs(
            now: "07:00",
            settings: try ReminderSettings().addingDaily(time: "11:00", weekdays: "mon", category: "focus"))
        inputs.morse[.send] = .init(nextPractice: try ReminderClock.at("2026-11-23 00:00"))
        let plan = ReminderPlanner.plan(inputs)
        #expect(plan.lines() == ["daily.1 @ 2026-11-23 11:00", "practice.send @ 2026-11-23 15:00"])
        #expect(plan.last?.movedFrom == (try ReminderClock.at("09:00")))
    }

    @Test(arguments: [
        ("2026-11-23 21:59", "2026-11-23 21:59", false),
        ("2026-11-23 22:00", "2026-11-24 08:00", true),
        ("2026-11-23 22:30", "2026-11-24 08:00", true),
        ("2026-11-23 23:59", "2026-11-24 08:00", true),
        ("2026-11-23 00:00", "2026-11-23 08:00", true),
        ("2026-11-23 07:59", "2026-11-23 08:00", true),
        ("2026-11-23 08:00", "2026-11-23 08:00", false),
    ])
    func aReminderInQuietHoursMovesToTheirEnd(planned: String, fires: String, moved: Bool) throws {
        let time = String(planned.suffix(5))
        let plan = ReminderPlanner.plan(try mondayReminders([time], now: "2026-11-22 23:30"))
        #expect(plan.map { ReminderClock.text($0.fireAt) } == [fires])
        #expect(plan.map(\.wasMoved) == [moved])
        #expect(plan.map(\.occurrenceID) == ["daily.a.2026-11-23"])
    }

    @Test func yesterdaysLateReminderStillSoundsAtTheEndOfTonightsQuietHours() throws {
        let settings = try ReminderClock.only(.daily).addingDaily(
            id: "late", time: "22:30", weekdays: "sun", category: "focus")
        let plan = ReminderPlanner.plan(try ReminderClock.inputs(now: "07:00", settings: settings))
        #expect(plan.lines() == ["daily.late @ 2026-11-23 08:00"])
        #expect(plan.map(\.occurrenceID) == ["daily.late.2026-11-22"])
    }

    @Test func quietHoursCanEndOnTheSameDay() throws {
        let plan = ReminderPlanner.plan(try mondayReminders(["13:30"], quiet: ("13:00", "14:15")))
        #expect(plan.lines() == ["daily.a @ 2026-11-23 14:15"])
    }

    @Test(arguments: [("11:59", false), ("12:00", false), ("12:01", true)])
    func nothingIsPlannedInThePast(time: String, kept: Bool) throws {
        let plan = ReminderPlanner.plan(try mondayReminders([time], now: "12:00"))
        #expect(plan.lines() == (kept ? ["daily.a @ 2026-11-23 \(time)"] : []))
    }

    @Test(arguments: [
        (PracticeCategory.mindfulness, PracticeCategory.mindfulness, ["2026-11-24 18:00"]),
        (.mindfulness, .workout, ["2026-11-23 18:00", "2026-11-24 18:00"]),
        (.morse, .morse, ["2026-11-24 18:00"]),
    ])
    func practiceEarlierTodaySilencesThatCategoryForToday(
        practised: PracticeCategory, reminderCategory: PracticeCategory, expected: [String]
    ) throws {
        let settings = try ReminderClock.only(.daily).addingDaily(
            time: "18:00", weekdays: "mon,tue", category: reminderCategory.rawValue)
        var inputs = try ReminderClock.inputs(now: "07:00", settings: settings)
        inputs.practisedToday = [practised]
        #expect(ReminderPlanner.plan(inputs).map { ReminderClock.text($0.fireAt) } == expected)
    }

    @Test func morsePractiseTodaySilencesAPracticeDueReminderForToday() throws {
        var inputs = try ReminderClock.inputs(now: "07:00", settings: ReminderClock.only(.practiceDue))
        inputs.morse[.receive] = .init(nextPractice: try ReminderClock.at("2026-11-22 18:00"))
        #expect(ReminderPlanner.plan(inputs).count == 1)
        inputs.practisedToday = [.morse]
        #expect(ReminderPlanner.plan(inputs).isEmpty)
    }

    @Test(arguments: [
        (nil as String?, ReminderSettings(), ["welcome.back @ 2026-11-23 09:00"]),
        ("2026-11-26 12:00", ReminderSettings(), ["practice.send @ 2026-11-26 09:00"]),
        ("2026-12-26 12:00", ReminderSettings(), ["welcome.back @ 2026-11-23 09:00"]),
        (
            "2026-11-26 12:00", ReminderSettings().setting(kind: .practiceDue, on: false),
            ["welcome.back @ 2026-11-23 09:00"]
        ),
    ])
    func welcomeBackIsSuppressedByAPlannedPracticeDueReminder(
        sendDue: String?, settings: ReminderSettings, expected: [String]
    ) throws {
        var inputs = try ReminderClock.inputs(now: "07:00", settings: settings)
        inputs.lastPractice = try ReminderClock.at("2026-11-15 19:00")
        inputs.morse[.send] = .init(nextPractice: try sendDue.map { try ReminderClock.at($0) })
        #expect(ReminderPlanner.plan(inputs).lines() == expected)
    }

    @Test func thePlanIsSortedByTime() throws {
        let settings = try ReminderSettings()
            .addingDaily(id: "z", time: "08:15", weekdays: "all", category: "focus")
            .addingDaily(id: "a", time: "17:00", weekdays: "all", category: "workout")
        var inputs = try ReminderClock.inputs(now: "07:00", settings: settings)
        inputs.morse[.receive] = .init(nextPractice: try ReminderClock.at("2026-11-25 00:00"))
        let plan = ReminderPlanner.plan(inputs)
        #expect(plan.map(\.fireAt) == plan.map(\.fireAt).sorted())
        #expect(plan.count == 14)
    }
}

import Foundation
import Testing

@testable import MomentumCore

/// Daylight-saving days: Berlin springs forward on 2026-03-29 (02:00 → 03:00) and falls back on
/// 2026-10-25 (03:00 → 02:00); New York on 2026-03-08 and 2026-11-01, both at 02:00.
@Suite("Reminders on daylight-saving days")
struct ReminderDaylightSavingTests {
    static let berlin = ReminderClock.berlin
    static let newYork = ReminderClock.newYork

    /// A daily focus reminder at `time` every day, quiet hours 23:00 – 01:00 unless given.
    func everyDay(at time: String, now: String, in zone: TimeZone, quiet: (String, String) = ("23:00", "01:00"))
        throws -> [PlannedReminder]
    {
        let settings = try ReminderClock.only(.daily).withQuietHours(start: quiet.0, end: quiet.1)
            .addingDaily(id: "d", time: time, weekdays: "all", category: "focus")
        return ReminderPlanner.plan(try ReminderClock.inputs(now: now, in: zone, settings: settings))
    }

    @Test(arguments: [
        (berlin, "2026-03-26 00:30", "09:00"), (berlin, "2026-10-22 00:30", "09:00"),
        (newYork, "2026-03-05 00:30", "09:00"), (newYork, "2026-10-29 00:30", "09:00"),
        (berlin, "2026-03-26 00:30", "02:30"), (berlin, "2026-10-22 00:30", "02:30"),
        (newYork, "2026-03-05 00:30", "02:30"), (newYork, "2026-10-29 00:30", "01:30"),
    ])
    func aDailyReminderSoundsOnceADayThroughTheChange(zone: TimeZone, now: String, time: String) throws {
        let plan = try everyDay(at: time, now: now, in: zone)
        let clock = LocalClock(timeZone: zone)
        #expect(plan.count == 7)
        #expect(Set(plan.map { clock.day(of: $0.fireAt) }).count == 7)
    }

    @Test(arguments: [
        (berlin, "2026-03-29 02:30", "2026-03-29T01:00:00Z"),
        (berlin, "2026-10-25 02:30", "2026-10-25T00:30:00Z"),
        (newYork, "2026-03-08 02:30", "2026-03-08T07:00:00Z"),
        (newYork, "2026-11-01 01:30", "2026-11-01T05:30:00Z"),
        (berlin, "2026-03-29 09:00", "2026-03-29T07:00:00Z"),
        (berlin, "2026-10-25 09:00", "2026-10-25T08:00:00Z"),
        (newYork, "2026-03-08 09:00", "2026-03-08T13:00:00Z"),
        (newYork, "2026-11-01 09:00", "2026-11-01T14:00:00Z"),
    ])
    func aSkippedTimeGoesToTheNextValidTimeAndARepeatedOneToItsFirstShowing(
        zone: TimeZone, wallClock: String, utc: String
    ) throws {
        let day = try Day(parsing: String(wallClock.prefix(10)))
        let time = try TimeOfDay(parsing: String(wallClock.suffix(5)))
        let instant = LocalClock(timeZone: zone).instant(on: day, at: time)
        #expect(instant == (try #require(ISO8601DateFormatter().date(from: utc))))
    }

    @Test(arguments: [(berlin, "2026-03-28"), (berlin, "2026-10-24"), (newYork, "2026-03-07"), (newYork, "2026-10-31")])
    func aSkippedTimeInsideQuietHoursMovesToTheirEnd(zone: TimeZone, dayBefore: String) throws {
        let plan = try everyDay(at: "02:30", now: "\(dayBefore) 01:00", in: zone, quiet: ("22:00", "08:00"))
        #expect(plan.count == 7)
        #expect(plan.allSatisfy { ReminderClock.text($0.fireAt, in: zone).hasSuffix("08:00") && $0.wasMoved })
    }

    @Test func practiceDueKeepsThePreferredWallClockTimeOnBothBerlinChanges() throws {
        for (due, expected) in [("2026-03-29 00:00", "2026-03-29 09:00"), ("2026-10-25 00:00", "2026-10-25 09:00")] {
            var inputs = try ReminderClock.inputs(
                now: "\(due.prefix(10)) 01:00", settings: ReminderClock.only(.practiceDue))
            inputs.morse[.send] = .init(nextPractice: try ReminderClock.at(due))
            #expect(ReminderPlanner.plan(inputs).lines() == ["practice.send @ \(expected)"])
        }
    }

    /// Four hours are real elapsed time: across the change the clock shows one hour more or less.
    @Test(arguments: [
        ("2026-10-25", ["00:30", "04:00"], ["00:30", "04:00"]),
        ("2026-03-29", ["00:30", "04:45"], ["00:30", "05:30"]),
        ("2026-03-29", ["00:30", "05:30"], ["00:30", "05:30"]),
    ])
    func spacingCountsRealHoursAcrossTheChange(day: String, times: [String], expected: [String]) throws {
        var settings = try ReminderClock.only(.daily).withQuietHours(start: "21:00", end: "00:00")
        for (index, time) in times.enumerated() {
            settings = try settings.addingDaily(id: "r\(index)", time: time, weekdays: "sun", category: "focus")
        }
        let plan = ReminderPlanner.plan(try ReminderClock.inputs(now: "\(day) 00:00", settings: settings))
        #expect(plan.map { ReminderClock.text($0.fireAt) } == expected.map { "\(day) \($0)" })
    }

    @Test func quietHoursEndingOnASpringForwardMorningEndAtItsWallClockTime() throws {
        let plan = try everyDay(at: "22:30", now: "2026-03-28 12:00", in: Self.berlin, quiet: ("22:00", "08:00"))
        let first = try #require(plan.first)
        #expect(ReminderClock.text(first.fireAt) == "2026-03-29 08:00")
        #expect(first.fireAt == (try #require(ISO8601DateFormatter().date(from: "2026-03-29T06:00:00Z"))))
        #expect(first.occurrenceID == "daily.d.2026-03-28")
    }
}

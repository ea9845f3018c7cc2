import Foundation
import Testing

@testable import MomentumCore

@Suite("Reminders as an iCalendar feed")
struct ReminderCalendarFeedTests {
    static let tokyo = TimeZone(identifier: "Asia/Tokyo") ?? .gmt

    /// A daily mindfulness reminder at 07:30 on `day`.
    func morningReminder(on day: String, in zone: TimeZone = ReminderClock.berlin) throws -> PlannedReminder {
        PlannedReminder(
            id: "daily.1", plannedDay: try Day(parsing: day), kind: .daily, category: .mindfulness,
            fireAt: try ReminderClock.at("\(day) 07:30", in: zone),
            title: LocalizedText(.reminderDailyTitleMindfulness),
            body: LocalizedText(.reminderDailyBody, ["time": "07:30"]))
    }

    /// Physical lines without their CRLF.
    func lines(of text: String) -> [String] {
        Array(text.components(separatedBy: "\r\n").dropLast())
    }

    @Test func oneReminderInBerlinIsExactlyThisCalendar() throws {
        let feed = ReminderCalendarFeed(
            reminders: [try morningReminder(on: "2026-11-24")], language: .english, timeZone: ReminderClock.berlin,
            now: try ReminderClock.at("2026-11-23 10:00"))
        let expected = [
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//Momentum//Reminders//EN",
            "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH",
            "X-WR-CALNAME:Momentum reminders",
            "X-WR-TIMEZONE:Europe/Berlin",
            "REFRESH-INTERVAL;VALUE=DURATION:PT1H",
            "X-PUBLISHED-TTL:PT1H",
            "BEGIN:VTIMEZONE",
            "TZID:Europe/Berlin",
            "BEGIN:STANDARD",
            "DTSTART:20261025T030000",
            "TZOFFSETFROM:+0200",
            "TZOFFSETTO:+0100",
            "END:STANDARD",
            "END:VTIMEZONE",
            "BEGIN:VEVENT",
            "UID:daily.1.2026-11-24@momentum",
            "DTSTAMP:20261123T090000Z",
            "DTSTART;TZID=Europe/Berlin:20261124T073000",
            "DURATION:PT5M",
            "SUMMARY:Time for a mindful pause",
            "DESCRIPTION:Your 07:30 reminder. Even a few minutes count.",
            "CATEGORIES:Mindfulness",
            "TRANSP:TRANSPARENT",
            "BEGIN:VALARM",
            "ACTION:DISPLAY",
            "TRIGGER:PT0S",
            "DESCRIPTION:Time for a mindful pause",
            "END:VALARM",
            "END:VEVENT",
            "END:VCALENDAR",
        ]
        #expect(feed.text == expected.map { $0 + "\r\n" }.joined())
    }

    @Test func aGermanFeedHasGermanTextsFoldedWithinTheLimit() throws {
        var settings = try ReminderSettings().addingDaily(
            id: "abend", time: "19:00", weekdays: "all", category: "morse")
        settings = try settings.withPreferredTime("09:00")
        var inputs = try ReminderClock.inputs(now: "08:00", settings: settings)
        inputs.morse[.send] = .init(nextPractice: try ReminderClock.at("2026-11-22 10:00"))
        let plan = ReminderPlanner.plan(inputs)
        let text = ReminderCalendarFeed(
            reminders: plan, language: .german, timeZone: ReminderClock.berlin, now: inputs.now
        )
        .text
        #expect(text.contains("X-WR-CALNAME:Momentum-Erinnerungen\r\n"))
        #expect(text.contains("SUMMARY:Morsen: Zeit zum Geben\r\n"))
        #expect(text.contains("CATEGORIES:Morsen\r\n"))
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(lines(of: text).allSatisfy { $0.utf8.count <= ICalendarLines.maximumLineOctets })
        let unfolded = ICalendarLines.unfolded(text)
        #expect(
            unfolded.contains(
                "DESCRIPTION:Dein Gebetraining ist dran. Ein paar ruhige Minuten an der Taste genügen.\r\n"))
        #expect(lines(of: text).filter { $0 == "BEGIN:VEVENT" }.count == plan.count)
    }

    @Test func theCalendarNameIsEscaped() throws {
        let feed = ReminderCalendarFeed(
            reminders: [], language: .english, timeZone: ReminderClock.berlin,
            now: try ReminderClock.at("2026-11-23 10:00"), calendarName: "Anna, Übungen; alle\\")
        #expect(feed.text.contains("\r\nX-WR-CALNAME:Anna\\, Übungen\\; alle\\\\\r\n"))
        #expect(!feed.text.contains("BEGIN:VEVENT"))
        #expect(feed.text.contains("BEGIN:VTIMEZONE"))
    }

    @Test func eventsKeepTheirLocalTimeOnDaylightSavingDays() throws {
        let settings = try ReminderClock.only(.daily).withQuietHours(start: "23:00", end: "01:00")
            .addingDaily(id: "early", time: "02:30", weekdays: "sun", category: "focus")
            .addingDaily(id: "late", time: "09:00", weekdays: "sun", category: "focus")
        for (now, expected) in [
            ("2026-03-28 12:00", ["20260329T030000", "20260329T090000"]),
            ("2026-10-24 12:00", ["20261025T023000", "20261025T090000"]),
        ] {
            let inputs = try ReminderClock.inputs(now: now, settings: settings)
            let text = ReminderCalendarFeed(
                reminders: ReminderPlanner.plan(inputs), language: .english, timeZone: ReminderClock.berlin,
                now: inputs.now
            ).text
            let starts = lines(of: text).filter { $0.hasPrefix("DTSTART;") }
            #expect(starts == expected.map { "DTSTART;TZID=Europe/Berlin:\($0)" })
        }
    }

    @Test func aFeedAcrossTheChangeCarriesBothObservances() throws {
        let reminders = [try morningReminder(on: "2026-03-28"), try morningReminder(on: "2026-03-30")]
        let text = ReminderCalendarFeed(
            reminders: reminders, language: .english, timeZone: ReminderClock.berlin,
            now: try ReminderClock.at("2026-03-27 12:00")
        ).text
        #expect(
            text.contains("BEGIN:STANDARD\r\nDTSTART:20251026T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\n"))
        #expect(
            text.contains("BEGIN:DAYLIGHT\r\nDTSTART:20260329T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n"))
        #expect(text.contains("DTSTART;TZID=Europe/Berlin:20260330T073000\r\n"))
    }

    @Test func newYorkAndTokyoEventsAreInTheirOwnWallClock() throws {
        for (zone, offset) in [(ReminderClock.newYork, "-0500"), (Self.tokyo, "+0900")] {
            let text = ReminderCalendarFeed(
                reminders: [try morningReminder(on: "2026-11-24", in: zone)], language: .english, timeZone: zone,
                now: try ReminderClock.at("2026-11-23 10:00", in: zone)
            ).text
            #expect(text.contains("DTSTART;TZID=\(zone.identifier):20261124T073000\r\n"))
            #expect(text.contains("TZOFFSETTO:\(offset)\r\n"))
        }
    }

    @Test func utcTimesAreWrittenWithZAndNoTimeZoneComponent() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let text = ReminderCalendarFeed(
            reminders: [try morningReminder(on: "2026-11-24", in: utc)], language: .english, timeZone: utc,
            now: try ReminderClock.at("2026-11-23 10:00", in: utc)
        ).text
        #expect(text.contains("DTSTART:20261124T073000Z\r\n"))
        #expect(!text.contains("VTIMEZONE"))
        #expect(!text.contains("TZID"))
    }

    @Test func uidsStayTheSameWhenThePlanIsMadeAgain() throws {
        let settings = try ReminderSettings().addingDaily(id: "1", time: "07:30", weekdays: "all", category: "focus")
        let earlier = try ReminderClock.inputs(now: "2026-11-23 05:00", settings: settings)
        var later = earlier
        later.now = try ReminderClock.at("2026-11-23 06:00")
        func feed(_ inputs: ReminderInputs) -> String {
            ReminderCalendarFeed(
                reminders: ReminderPlanner.plan(inputs), language: .english, timeZone: ReminderClock.berlin,
                now: inputs.now
            ).text
        }
        let uids = lines(of: feed(earlier)).filter { $0.hasPrefix("UID:") }
        #expect(uids.count == 7)
        #expect(uids.first == "UID:daily.1.2026-11-23@momentum")
        #expect(lines(of: feed(later)).filter { $0.hasPrefix("UID:") } == uids)
        let withoutStamps = { (text: String) in self.lines(of: text).filter { !$0.hasPrefix("DTSTAMP:") } }
        #expect(withoutStamps(feed(earlier)) == withoutStamps(feed(later)))
    }

    @Test func aMovedReminderKeepsItsUID() throws {
        let settings = try ReminderClock.only(.daily)
            .addingDaily(id: "night", time: "23:00", weekdays: "all", category: "focus")
        let plan = ReminderPlanner.plan(try ReminderClock.inputs(now: "2026-11-23 12:00", settings: settings))
        let first = try #require(plan.first)
        #expect(first.wasMoved)
        let text = ReminderCalendarFeed(
            reminders: [first], language: .english, timeZone: ReminderClock.berlin, now: try ReminderClock.at("12:00")
        ).text
        #expect(text.contains("UID:daily.night.2026-11-23@momentum\r\nDTSTAMP:20261123T110000Z\r\n"))
        #expect(text.contains("DTSTART;TZID=Europe/Berlin:20261124T080000\r\n"))
    }
}

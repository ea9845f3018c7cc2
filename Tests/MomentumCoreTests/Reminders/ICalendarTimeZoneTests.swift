import Foundation
import Testing

@testable import MomentumCore

/// VTIMEZONEs from Foundation's zones: Berlin changes on 2025-10-26, 2026-03-29 and 2026-10-25,
/// New York on 2026-03-08 and 2026-11-01.
@Suite("VTIMEZONE for a time zone")
struct ICalendarTimeZoneTests {
    /// The observances as `STANDARD 20261025T030000 +0200 → +0100`.
    func observances(_ zone: TimeZone, from start: String, to end: String) throws -> [String] {
        let span = try ReminderClock.at(start, in: zone)...ReminderClock.at(end, in: zone)
        return ICalendarTimeZone(zone: zone, covering: span).observances.map {
            "\($0.isDaylight ? "DAYLIGHT" : "STANDARD") \($0.start) "
                + "\(ICalendarFormat.offset(seconds: $0.offsetFrom)) → \(ICalendarFormat.offset(seconds: $0.offsetTo))"
        }
    }

    @Test func berlinInWinterHasTheStandardObservanceInEffect() throws {
        #expect(
            try observances(ReminderClock.berlin, from: "2026-11-23 08:00", to: "2026-11-30 09:00") == [
                "STANDARD 20261025T030000 +0200 → +0100"
            ])
    }

    @Test func berlinAcrossSpringForwardHasBothObservances() throws {
        #expect(
            try observances(ReminderClock.berlin, from: "2026-03-25 08:00", to: "2026-04-01 09:00") == [
                "STANDARD 20251026T030000 +0200 → +0100", "DAYLIGHT 20260329T020000 +0100 → +0200",
            ])
    }

    @Test func newYorkAcrossFallBackHasBothObservances() throws {
        #expect(
            try observances(ReminderClock.newYork, from: "2026-10-28 08:00", to: "2026-11-04 09:00") == [
                "DAYLIGHT 20260308T020000 -0500 → -0400", "STANDARD 20261101T020000 -0400 → -0500",
            ])
    }

    @Test func aZoneWithoutDaylightSavingTimeHasOneStandardObservance() throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        #expect(
            try observances(tokyo, from: "2026-11-23 08:00", to: "2026-11-30 09:00") == [
                "STANDARD 19700101T000000 +0900 → +0900"
            ])
    }

    @Test func theComponentNamesTheZoneAndWritesEachObservance() throws {
        let span = try ReminderClock.at("2026-11-23 08:00")...ReminderClock.at("2026-11-24 08:00")
        var lines = ICalendarLines()
        ICalendarTimeZone(zone: ReminderClock.berlin, covering: span).add(to: &lines)
        #expect(
            lines.lines == [
                "BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:STANDARD", "DTSTART:20261025T030000",
                "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "END:STANDARD", "END:VTIMEZONE",
            ])
    }
}

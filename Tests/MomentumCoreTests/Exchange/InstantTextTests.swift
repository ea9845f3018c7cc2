import Foundation
import MomentumCore
import Testing

@Suite("Instants in exchange files")
struct InstantTextTests {
    let berlin = LogBuilder.berlin

    @Test func writesLocalTimeWithItsOffsetAndMilliseconds() {
        let instant = Date(timeIntervalSince1970: 1_800_000_000.25)
        #expect(InstantText.format(instant) == "2027-01-15T08:00:00.250Z")
        #expect(InstantText.format(instant, timeZone: berlin) == "2027-01-15T09:00:00.250+01:00")
        let summer = Date(timeIntervalSince1970: 1_815_000_000)
        #expect(InstantText.format(summer, timeZone: berlin) == "2027-07-08T00:40:00.000+02:00")
        let newYork = TimeZone(identifier: "America/New_York") ?? .gmt
        #expect(InstantText.format(instant, timeZone: newYork) == "2027-01-15T03:00:00.250-05:00")
        #expect(InstantText.format(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
    }

    @Test func readsWhatItWritesToTheMillisecond() {
        var generator = SeededGenerator(seed: 11)
        let zones = ["UTC", "Europe/Berlin", "America/St_Johns", "Asia/Kolkata", "Australia/Lord_Howe"]
            .compactMap(TimeZone.init(identifier:))
        for _ in 0..<2000 {
            let milliseconds = Int64.random(in: 0...4_000_000_000_000, using: &generator)
            let instant = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let zone = zones[Int.random(in: 0..<zones.count, using: &generator)]
            let text = InstantText.format(instant, timeZone: zone)
            let read = InstantText.parse(text)
            #expect(read.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } == milliseconds, "\(text)")
        }
    }

    @Test(arguments: [
        "2027-02-30T10:00:00Z", "2027-13-01T10:00Z", "2027-01-01T24:00Z", "2027-01-01T10:60Z",
        "2027-01-01T10:00:61Z", "2027-01-01", "10:00", "", "2027-01-01T10:00:00+25:00", "2027-01-01T10:00:00 Z",
        "2027-1-1T10:00Z", "2027-01-01T10:00:00.Z", "tomorrow", "2027-01-01T10:00:00Zjunk",
    ])
    func refusesTextThatIsNotAnExistingInstant(_ text: String) {
        #expect(InstantText.parse(text, assumedTimeZone: berlin) == nil)
    }

    @Test func withoutAnOffsetTheAssumedZoneDecides() throws {
        #expect(InstantText.parse("2027-01-15 09:00") == nil)
        let winter = try #require(InstantText.parse("2027-01-15 09:00", assumedTimeZone: berlin))
        #expect(winter.timeIntervalSince1970 == 1_800_000_000)
        let summer = try #require(InstantText.parse("2027-07-15T09:00:30", assumedTimeZone: berlin))
        #expect(InstantText.format(summer, timeZone: berlin) == "2027-07-15T09:00:30.000+02:00")
        // 02:30 does not exist on the spring-forward day; it is read as 03:30 summer time.
        let gap = try #require(InstantText.parse("2027-03-28 02:30", assumedTimeZone: berlin))
        #expect(InstantText.format(gap, timeZone: berlin) == "2027-03-28T03:30:00.000+02:00")
    }
}

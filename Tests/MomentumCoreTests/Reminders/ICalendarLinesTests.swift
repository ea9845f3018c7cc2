import Foundation
import Testing

@testable import MomentumCore

@Suite("iCalendar content lines")
struct ICalendarLinesTests {
    @Test func textEscapesBackslashSemicolonCommaAndLineBreaks() {
        #expect(ICalendarLines.escaped(#"C:\tea; milk, sugar"#) == #"C:\\tea\; milk\, sugar"#)
        #expect(ICalendarLines.escaped("one\ntwo\r\nthree\rfour") == #"one\ntwo\nthree\nfour"#)
        #expect(ICalendarLines.escaped("Grüße: nichts zu tun") == "Grüße: nichts zu tun")
    }

    @Test func aParameterValueWithAColonIsQuoted() {
        #expect(ICalendarLines.parameterValue("Europe/Berlin") == "Europe/Berlin")
        #expect(ICalendarLines.parameterValue("Custom:Zone") == "\"Custom:Zone\"")
    }

    @Test func aShortLineIsNotFolded() {
        let line = "SUMMARY:" + String(repeating: "x", count: 67)
        #expect(line.utf8.count == 75)
        #expect(ICalendarLines.folded(line) == line)
    }

    @Test func aFoldNeverSplitsAnUmlaut() {
        // 74 octets, then "ä" (2 octets) would end at octet 76: the fold comes before it.
        let line = "DESCRIPTION:" + String(repeating: "a", count: 62) + "äb"
        #expect(ICalendarLines.folded(line) == "DESCRIPTION:" + String(repeating: "a", count: 62) + "\r\n äb")
    }

    @Test func aLongGermanLineFoldsTo75OctetsAndUnfoldsToItself() {
        let text = String(
            repeating: "Übung für die Ohren: höre ruhig zu, schreibe mit; Grüße aus Köln – über 75 Oktette. ",
            count: 4)
        var lines = ICalendarLines()
        lines.add("DESCRIPTION", text: text)
        let folded = lines.text
        #expect(folded.hasSuffix("\r\n"))
        // "\r\n" is one Character in Swift: split, then drop the empty piece after the last CRLF.
        let physical = folded.components(separatedBy: "\r\n").dropLast()
        #expect(physical.count > 4)
        #expect(physical.allSatisfy { $0.utf8.count <= ICalendarLines.maximumLineOctets })
        #expect(physical.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(ICalendarLines.unfolded(folded) == "DESCRIPTION:" + ICalendarLines.escaped(text) + "\r\n")
    }

    @Test(arguments: [(3600, "+0100"), (-18000, "-0500"), (19800, "+0530"), (0, "+0000"), (3208, "+005328")])
    func offsetsAreHoursAndMinutesWithSecondsOnlyWhenThereAreSome(seconds: Int, text: String) {
        #expect(ICalendarFormat.offset(seconds: seconds) == text)
    }

    @Test func datesAreUTCWithZOrLocalWithout() throws {
        let instant = try ReminderClock.at("2026-11-23 09:05")
        #expect(ICalendarFormat.utc(instant) == "20261123T080500Z")
        #expect(ICalendarFormat.local(instant, in: ReminderClock.berlin) == "20261123T090500")
        #expect(ICalendarFormat.local(instant, in: ReminderClock.newYork) == "20261123T030500")
    }
}

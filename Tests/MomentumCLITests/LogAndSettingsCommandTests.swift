import Foundation
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumCLI

@Suite("momentum log and momentum settings")
struct LogAndSettingsCommandTests {
    @Test func logListsSitsAsATableAndAsJSON() async throws {
        let terminal = try TestTerminal()
        _ = await terminal.run(["meditate", "2", "--countdown", "0"])
        let table = try TestTerminal(sharing: terminal)
        #expect(await table.run(["log"]) == 0)
        #expect(
            table.output.lines == [
                "Date              Time   Practice    Counted",
                "Fri, 15 Jan 2027  09:00  Meditation  2 min",
                "1 session · 2 min counted",
            ])
        let json = try TestTerminal(sharing: terminal)
        #expect(await json.run(["log", "--json"]) == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.output.text.utf8)) as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows.first?["kind"] as? String == "meditation")
        #expect(rows.first?["category"] as? String == "mindfulness")
        #expect(rows.first?["countedSeconds"] as? Int == 120)
        #expect(rows.first?["start"] as? String == "2027-01-15T09:00:00.000+01:00")
    }

    @Test func logListsTimesInThePersonsTimeZoneNotTheSystems() async throws {
        var terminal = try TestTerminal()
        terminal.systemTimeZone = .gmt
        #expect(await terminal.run(["settings", "set", "progress.time-zone", "Europe/Berlin"]) == 0)
        #expect(await terminal.run(["log", "add", "--minutes", "10", "--start", "2027-01-15 00:30"]) == 0)
        var table = try TestTerminal(sharing: terminal)
        table.systemTimeZone = .gmt
        #expect(await table.run(["log"]) == 0)
        #expect(table.output.lines.dropFirst().first == "Fri, 15 Jan 2027  00:30  Meditation  10 min")
        var json = try TestTerminal(sharing: terminal)
        json.systemTimeZone = .gmt
        #expect(await json.run(["log", "--json"]) == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.output.text.utf8)) as? [[String: Any]])
        #expect(rows.first?["day"] as? String == "2027-01-15")
        #expect(rows.first?["start"] as? String == "2027-01-15T00:30:00.000+01:00")
    }

    @Test func logFiltersByKindAndDay() async throws {
        let terminal = try TestTerminal()
        _ = await terminal.run(["meditate", "2", "--countdown", "0"])
        for (arguments, expected) in [
            (["log", "--kind", "breathing", "--json"], 0), (["log", "--since", "2027-01-15", "--json"], 1),
            (["log", "--until", "2027-01-14", "--json"], 0), (["log", "--until", "2027-01-15", "--json"], 1),
        ] {
            let query = try TestTerminal(sharing: terminal)
            #expect(await query.run(arguments) == 0)
            let rows = try JSONSerialization.jsonObject(with: Data(query.output.text.utf8)) as? [Any]
            #expect(rows?.count == expected, "\(arguments)")
        }
    }

    @Test func anEmptyLogSaysHowToBegin() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["log"]) == 0)
        #expect(terminal.output.lines == ["No sessions yet. Start one with: momentum meditate 10"])
    }

    @Test func anIntervalGongAtOrAfterTheEndOfTheSitIsNotSaved() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["settings", "set", "meditation.interval", "5,10"]) == 64)
        #expect(
            terminal.errors.text
                == "momentum: An interval gong at 10 min would sound at or after the end of the 10 min sit; "
                + "choose gongs within the sit, or turn them off.\n")
        let show = try TestTerminal(sharing: terminal)
        #expect(await show.run(["settings", "--json"]) == 0)
        let values = try #require(
            try JSONSerialization.jsonObject(with: Data(show.output.text.utf8)) as? [String: String])
        #expect(values["meditation.interval"] == "off")
    }

    @Test func anEmptyDataDirectoryIsAnErrorNotTheDefault() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["log", "--data", ""]) == 64)
        #expect(terminal.errors.text.contains("--data needs a directory"))
        #expect(!FileManager.default.fileExists(atPath: terminal.directory.file("momentum.sqlite").path))
    }

    @Test func settingsSetStoresAndShowReadsBack() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["settings", "set", "meditation.interval", "2,5,8"]) == 0)
        #expect(terminal.output.lines == ["Saved meditation.interval = 2,5,8."])
        let show = try TestTerminal(sharing: terminal)
        #expect(await show.run(["settings", "--json"]) == 0)
        let values = try #require(
            try JSONSerialization.jsonObject(with: Data(show.output.text.utf8)) as? [String: String])
        #expect(values["meditation.interval"] == "2,5,8")
        #expect(values["meditation.duration"] == "10")
        #expect(Set(values.keys) == Set(SettingKey.allCases.map(\.rawValue)))
    }

    @Test func settingTheLanguageSwitchesEveryLaterMessage() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["settings", "set", "language", "de"]) == 0)
        #expect(terminal.output.lines == ["language = de gespeichert."])
        let log = try TestTerminal(sharing: terminal)
        #expect(await log.run(["log"]) == 0)
        #expect(log.output.lines == ["Noch keine Sitzungen. Starte eine mit: momentum meditate 10"])
    }
}

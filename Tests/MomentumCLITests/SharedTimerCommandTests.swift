import Foundation
import MomentumCore
import Testing

@testable import MomentumCLI
@testable import MomentumServices

/// Issue 38: a timer shared with a person is theirs to see, run and tick in the terminal too, as
/// in the web app — both ask the household which service runs a named timer.
@Suite("A timer shared with Ben: listed, started and ticked with --user Ben")
struct SharedTimerCommandTests {
    @Test func aSharedTimerIsListedStartedAndTickedByThePersonItWasSharedWith() async throws {
        let ada = try TestTerminal()
        #expect(await ada.run(["timer", "add", "Tea", "3", "--item", "kettle"]) == 0, "\(ada.errors.text)")
        #expect(await ada.run(["user", "add", "Ben"]) == 0, "\(ada.errors.text)")
        #expect(await ada.run(["timer", "share", "Tea", "--with", "Ben"]) == 0, "\(ada.errors.text)")

        let list = try TestTerminal(sharing: ada)
        #expect(await list.run(["timer", "list", "--user", "Ben"]) == 0, "\(list.errors.text)")
        #expect(list.output.text.contains("Tea"), "\(list.output.text)")
        #expect(list.output.text.contains("Shared by"), "\(list.output.text)")
        let json = try TestTerminal(sharing: ada)
        #expect(await json.run(["timer", "list", "--user", "Ben", "--json"]) == 0)
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(json.output.text.utf8)) as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(entries.first?["owner"] as? String != nil)

        let start = try TestTerminal(sharing: ada)
        #expect(await start.run(["timer", "start", "tea", "--user", "Ben"]) == 0, "\(start.errors.text)")
        let tick = try TestTerminal(sharing: ada)
        #expect(await tick.run(["timer", "check", "Tea", "kettle", "--user", "Ben"]) == 0, "\(tick.errors.text)")

        // Ada sees what Ben did to her timer.
        let show = try TestTerminal(sharing: ada)
        #expect(await show.run(["timer", "show", "Tea", "--json"]) == 0)
        let timer = try #require(try JSONSerialization.jsonObject(with: Data(show.output.text.utf8)) as? [String: Any])
        #expect(timer["status"] as? String == "running")
        #expect((timer["items"] as? [[String: Any]])?.first?["done"] as? Bool == true)
        // Only the owner deletes it.
        let delete = try TestTerminal(sharing: ada)
        #expect(await delete.run(["timer", "delete", "Tea", "--user", "Ben"]) != 0)
        #expect(delete.errors.text.contains("Tea"), "\(delete.errors.text)")
        let still = try TestTerminal(sharing: ada)
        #expect(await still.run(["timer", "show", "Tea"]) == 0)
    }
}

/// Issue 38: `momentum import` without `--user` acts for the owner when no terminal can be asked
/// (as the README says of every command), and asks on one.
@Suite("import in a household: the owner's without a terminal, asked on one")
struct ImportWhoseTests {
    @Test func withoutATerminalTheOwnersPracticeTakesTheFileOnATerminalItIsAsked() async throws {
        let ada = try TestTerminal()
        #expect(await ada.run(["log", "add", "--minutes", "20"]) == 0)
        #expect(await ada.run(["user", "add", "Ben"]) == 0)
        let file = ada.directory.url.appendingPathComponent("log.csv").path
        #expect(await ada.run(["export", "--format", "csv", "-o", file]) == 0)

        let script = try TestTerminal(sharing: ada)
        #expect(await script.run(["import", file, "--dry-run"], interactive: false) == 0, "\(script.errors.text)")
        #expect(!script.output.text.contains("Whose practice"))
        let asked = try TestTerminal(sharing: ada)
        #expect(await asked.run(["import", file, "--dry-run"], interactive: true, answer: "Ben") == 0)
        #expect(asked.output.text.contains("Whose practice is this file?"))
    }
}

@Suite("Access tokens never start with a dash")
struct TokenShapeTests {
    @Test func tenThousandSecretsNoneStartingWithADashAllOf43Characters() {
        var generator = SeededRandomNumberGenerator(seed: 38)
        let secrets = (0..<10_000).map { _ in AccessTokenService.secret(using: &generator) }
        #expect(!secrets.contains { $0.hasPrefix("-") })
        #expect(secrets.allSatisfy { $0.count == 43 })
        // Every other first character still comes up.
        #expect(Set(secrets.map(\.first)).count == 63)
    }
}

/// Issue 38: `log` with filters that match nothing says so (not "No sessions yet"), a reversed
/// range is refused, and a session after midnight before the day starts shows "+1" beside its
/// time instead of a moment that never was.
@Suite("log: filters that match nothing, reversed ranges, the day-start rule")
struct LogListTests {
    @Test func emptyFiltersReversedRangesAndTimesAfterMidnight() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["settings", "set", "progress.day-start", "4"]) == 0)
        // 15 January 2027 in Berlin: a sit at 01:30 counts on the 14th.
        #expect(await terminal.run(["log", "add", "--minutes", "20", "--start", "2027-01-15 01:30"]) == 0)
        #expect(await terminal.run(["log", "add", "--minutes", "20", "--start", "2027-01-14 20:00"]) == 0)

        let list = try TestTerminal(sharing: terminal)
        #expect(await list.run(["log"]) == 0)
        let late = try #require(list.output.lines.first { $0.contains("01:30") })
        #expect(late.contains("Thu, 14 Jan 2027") && late.contains("01:30 +1"), "\(list.output.text)")
        #expect(list.output.lines.first { $0.contains("20:00") }?.contains("20:00 +1") == false)

        let none = try TestTerminal(sharing: terminal)
        #expect(await none.run(["log", "--kind", "workout"]) == 0)
        #expect(none.output.text == "No sessions match these filters.\n")

        let reversed = try TestTerminal(sharing: terminal)
        #expect(await reversed.run(["log", "--since", "2027-01-15", "--until", "2027-01-14"]) == 64)
        #expect(reversed.errors.text.contains("--since 2027-01-15 is after --until 2027-01-14"))
        let german = try TestTerminal(sharing: terminal)
        #expect(await german.run(["log", "--kind", "workout", "--lang", "de"]) == 0)
        #expect(german.output.text == "Keine Sitzung passt zu diesen Filtern.\n")
    }
}

import Foundation
import Testing

@testable import MomentumCLI

/// `momentum log` for long histories (issue 38): newest first, a screenful in a terminal,
/// `--limit`/`--all`, and the person's pager for what is taller than the screen.
@Suite("momentum log: long histories")
struct LogLongHistoryTests {
    /// Twelve sits of 1 to 12 minutes, one a day from 1 to 12 January 2027 at 07:00.
    private func twelveSits() async throws -> TestTerminal {
        let terminal = try TestTerminal()
        for day in 1...12 {
            let start = String(format: "2027-01-%02d 07:00", day)
            #expect(await terminal.run(["log", "add", "--minutes", "\(day)", "--start", start]) == 0)
        }
        return terminal
    }

    private func dates(_ terminal: TestTerminal) -> [String] {
        terminal.output.lines.filter { $0.contains("Jan 2027") }.map {
            $0.prefix(16).trimmingCharacters(in: .whitespaces)
        }
    }

    @Test func aTerminalListsTheNewestScreenfulNewestFirst() async throws {
        let terminal = try await twelveSits()
        let screen = try TestTerminal(sharing: terminal)
        // 10 rows: header, summary, the "newest" line and the prompt leave 5 for sessions.
        #expect(
            await screen.run(
                ["log"], environment: ["LANG": "en_GB.UTF-8", "PAGER": "cat"], interactive: true, rows: 10) == 0)
        #expect(
            dates(screen) == [
                "Tue, 12 Jan 2027", "Mon, 11 Jan 2027", "Sun, 10 Jan 2027", "Sat, 9 Jan 2027", "Fri, 8 Jan 2027",
            ])
        #expect(
            screen.output.lines.suffix(2) == [
                "12 sessions · 1 h 18 min counted", "The newest 5 are listed; --all lists every one.",
            ])
    }

    @Test func limitAndAllChooseHowMany() async throws {
        let terminal = try await twelveSits()
        let three = try TestTerminal(sharing: terminal)
        #expect(await three.run(["log", "--limit", "3"]) == 0)
        #expect(dates(three) == ["Tue, 12 Jan 2027", "Mon, 11 Jan 2027", "Sun, 10 Jan 2027"])
        #expect(three.output.lines.last == "The newest 3 are listed; --all lists every one.")
        // Piped (not a terminal), every session is listed, newest first, with no "newest" line.
        let piped = try TestTerminal(sharing: terminal)
        #expect(await piped.run(["log"]) == 0)
        #expect(dates(piped).count == 12)
        #expect(dates(piped).first == "Tue, 12 Jan 2027")
        #expect(piped.output.lines.last == "12 sessions · 1 h 18 min counted")
        let all = try TestTerminal(sharing: terminal)
        #expect(
            await all.run(
                ["log", "--all"], environment: ["LANG": "en_GB.UTF-8", "PAGER": "cat"], interactive: true, rows: 10)
                == 0)
        #expect(dates(all).count == 12)
    }

    @Test func jsonListsEverySessionOldestFirstOrTheNewestN() async throws {
        let terminal = try await twelveSits()
        for (arguments, expected) in [
            (["log", "--json"], [60, 120, 180, 240, 300, 360, 420, 480, 540, 600, 660, 720]),
            (["log", "--json", "--limit", "2"], [660, 720]),
        ] {
            let query = try TestTerminal(sharing: terminal)
            #expect(await query.run(arguments, interactive: true, rows: 10) == 0)
            let rows = try #require(
                try JSONSerialization.jsonObject(with: Data(query.output.text.utf8)) as? [[String: Any]])
            #expect(rows.map { $0["countedSeconds"] as? Int } == expected, "\(arguments)")
        }
    }

    @Test func aBadLimitSaysTheRange() async throws {
        let terminal = try await twelveSits()
        for (arguments, message) in [
            (["log", "--limit", "0"], "--limit 0 is not a number of sessions from 1 to 1000000."),
            (["log", "--limit", "ten"], "--limit ten is not a number of sessions from 1 to 1000000."),
            (["log", "--limit", "2", "--all"], "--limit and --all ask for different things: use one of them."),
        ] {
            let bad = try TestTerminal(sharing: terminal)
            #expect(await bad.run(arguments) != 0, "\(arguments)")
            #expect(bad.errors.lines == ["momentum: " + message], "\(arguments)")
            #expect(bad.output.text.isEmpty)
        }
    }

    @Test func whatIsTallerThanTheScreenGoesThroughThePager() async throws {
        let terminal = try await twelveSits()
        let paged = terminal.directory.url.appendingPathComponent("paged.txt")
        let environment = ["LANG": "en_GB.UTF-8", "PAGER": "cat > '\(paged.path)'", "PATH": "/usr/bin:/bin"]
        let tall = try TestTerminal(sharing: terminal)
        #expect(await tall.run(["log", "--all"], environment: environment, interactive: true, rows: 10) == 0)
        #expect(tall.output.text.isEmpty)
        let text = try String(contentsOf: paged, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 14)
        #expect(text.hasSuffix("12 sessions · 1 h 18 min counted\n"))
        // What fits on the screen is written straight out.
        try FileManager.default.removeItem(at: paged)
        let short = try TestTerminal(sharing: terminal)
        #expect(await short.run(["log", "--limit", "3"], environment: environment, interactive: true, rows: 10) == 0)
        #expect(!FileManager.default.fileExists(atPath: paged.path))
        #expect(short.output.lines.count == 6)
    }

    @Test func thePagerIsThePersonsChoice() {
        #expect(Pager.command(environment: ["PAGER": "most -s"]) == "most -s")
        #expect(Pager.command(environment: ["PAGER": ""]) == nil)
        #expect(Pager.command(environment: ["PAGER": "cat"]) == nil)
        #expect(Pager.command(environment: ["PATH": "/nonexistent"]) == nil)
    }
}

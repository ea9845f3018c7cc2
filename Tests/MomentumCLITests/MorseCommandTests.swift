import Foundation
import MomentumComposition
import MomentumCore
import MomentumServices
import MomentumStore
import Testing

@testable import MomentumCLI

@Suite("momentum morse progress and settings")
struct MorseCommandTests {
    /// A finished receive session with `count` answers, all right, stored through the service.
    private func passSession(in terminal: TestTerminal, count: Int = 20) async throws {
        var clockNow = terminal.wallOrigin.addingTimeInterval(-3600)
        let later = terminal.wallOrigin.addingTimeInterval(-3000)
        let services = try await MomentumServices.open(
            dataDirectory: terminal.directory.url, device: "test",
            timeZone: TimeZone(identifier: "Europe/Berlin") ?? .gmt,
            now: { later })
        var session = try await services.morse.startSession(.receive, at: clockNow)
        var generator = SeededRandomNumberGenerator(seed: 3)
        try session.startTraining(at: clockNow)
        for _ in 0..<count {
            clockNow.addTimeInterval(3)  // a minute of training: logged, so the day counts
            let item = try session.nextItem(at: clockNow, using: &generator)
            try session.record(
                MorseAttempt(item: item, answer: item.text, responseTime: .milliseconds(700)), at: clockNow)
        }
        _ = try await services.morse.finish(&session, at: clockNow)
    }

    @Test func aNewCourseStartsAtLevelOneAndIsDue() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["morse", "progress"]) == 0, "\(terminal.errors.text)")
        #expect(
            terminal.output.lines == [
                "No Morse sessions yet: the course starts at level 1 in both directions.",
                "Receive: level 1 of 25 · K M · practice is due",
                "Send: level 1 of 25 · K M · practice is due",
                "Morse streak: 0 days (longest 0 days)",
            ])
    }

    @Test func aPassedSessionShowsTheNewLevelTheNextDateAndTheStreak() async throws {
        let terminal = try TestTerminal()
        try await passSession(in: terminal)
        #expect(await terminal.run(["morse", "progress"]) == 0, "\(terminal.errors.text)")
        let lines = terminal.output.lines
        #expect(
            lines.first
                == "Receive: level 2 of 25 · K M R · next practice Sun 17 Jan at 08:01 · level review Fri 22 Jan at 08:01"
        )
        #expect(lines.last == "Morse streak: 1 day (longest 1 day)")

        let json = try TestTerminal(sharing: terminal)
        #expect(await json.run(["morse", "progress", "--json"]) == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.output.text.utf8)) as? [String: Any])
        let receive = try #require(object["receive"] as? [String: Any])
        #expect(receive["level"] as? Int == 2)
        #expect(receive["characters"] as? [String] == ["K", "M", "R"])
        #expect(receive["nextPractice"] as? String == "2027-01-17T07:01:00Z")
        let statistics = receive["statistics"] as? [[String: Any]] ?? []
        #expect(statistics.reduce(0) { $0 + ($1["attempts"] as? Int ?? 0) } == 20)
    }

    @Test func settingsChangeOnlyWhatIsGivenAndRefuseValuesOutOfBounds() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["morse", "settings", "--wpm", "25", "--length", "3"]) == 0)
        #expect(
            terminal.output.lines.last
                == "Saved. Character speed 25 wpm, effective 13 wpm · tone 600 Hz, rise 5 ms · standard order · sessions of 3 min · no call sign (set one with --call)"
        )
        let refused = try TestTerminal(sharing: terminal)
        #expect(await refused.run(["morse", "settings", "--tone", "2000", "--wpm", "30"]) != 0)
        #expect(refused.errors.text.contains("The tone must be 400–1000 Hz"))
        let refusedLength = try TestTerminal(sharing: terminal)
        #expect(await refusedLength.run(["morse", "settings", "--length", "90"]) != 0)
        #expect(refusedLength.errors.text.contains("A Morse session lasts 1 to 60 minutes, not 90."))

        let shown = try TestTerminal(sharing: terminal)
        #expect(await shown.run(["morse", "settings"]) == 0)
        #expect(shown.output.lines.last?.hasPrefix("Character speed 25 wpm, effective 13 wpm") == true)
    }
}

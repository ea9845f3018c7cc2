import Foundation
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumCLI

@Suite("momentum breathe")
struct BreatheCommandTests {
    @Test func aPresetPlaysEveryPhaseCueOnTimeAndIsLoggedAsBreathing() async throws {
        let terminal = try TestTerminal()
        let events = ScriptedEvents()
        let sound = RecordingCuePlayer(events: events)
        let status = await terminal.run(["breathe", "relaxing", "--rounds", "2"], sound: sound, events: events)
        #expect(status == 0, "\(terminal.errors.text)")
        #expect(sound.played.map(\.sound) == [.inhale, .hold, .exhale, .inhale, .hold, .exhale])
        // Three seconds to get ready, then the first inhale.
        #expect(sound.played.map(\.at) == [3, 7, 14, 22, 26, 33].map { Duration.seconds($0) })
        #expect(
            terminal.output.lines == [
                "Relaxing breath (4-7-8): 4-7-8-0 × 2 (38 s)",
                "Get ready · 3 · Round 1 of 2 · 00:38 left",
                "Breathe in · 4 · Round 1 of 2 · 00:38 left",
                "Hold · 7 · Round 1 of 2 · 00:34 left",
                "Breathe out · 8 · Round 1 of 2 · 00:27 left",
                "Breathe in · 4 · Round 2 of 2 · 00:19 left",
                "Hold · 7 · Round 2 of 2 · 00:15 left",
                "Breathe out · 8 · Round 2 of 2 · 00:08 left",
                "Well done. Take this calm with you.",
                "Logged 38 s of breathing.",
            ])
        let records = try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords()
        #expect(records.map(\.kind) == [.breathing])
        #expect(records.first?.countedSeconds == 38)
        #expect(records.first?.details["preset"] == "Relaxing breath (4-7-8)")
    }

    @Test func minutesEndOnAWholeRoundAndAnEarlyStopAfterAMinuteIsKept() async throws {
        let terminal = try TestTerminal()
        // 5-0-5-0 for 2 minutes is 12 rounds; q after 3 s of getting ready and 70 s of breathing,
        // Enter keeps it.
        let status = await terminal.run(
            ["breathe", "--pattern", "5-0-5-0", "--minutes", "2"], keys: [(.seconds(73), "q"), (.seconds(75), "\n")])
        #expect(status == 0, "\(terminal.errors.text)")
        #expect(terminal.output.lines.first == "Your pattern: 5-0-5-0 × 12 (2 min)")
        #expect(terminal.output.text.contains("Keep this 1 min 10 s session in your log? [Y/n]"))
        let records = try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords()
        #expect(records.first?.countedSeconds == 70)
        #expect(records.first?.details["stoppedEarly"] == "true")
    }

    @Test func planPrintsTheTimelineWithoutBreathing() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["breathe", "box", "--rounds", "1", "--plan"])
        #expect(status == 0, "\(terminal.errors.text)")
        let timeline = try JSONDecoder().decode(Timeline.self, from: Data(terminal.output.text.utf8))
        #expect(timeline.practice == .breathing)
        #expect(timeline.totalDuration == .seconds(3 + 16))
        #expect(timeline.leadIn == BreathingPlan.getReady)
        #expect(try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords().isEmpty)
    }

    @Test func presetsAreManagedFromTheCommandLine() async throws {
        let terminal = try TestTerminal()
        #expect(
            await terminal.run(["breathe", "presets", "add", "Evening", "--pattern", "4-2-6-0", "--rounds", "8"]) == 0)
        #expect(await terminal.run(["breathe", "presets", "edit", "box", "--rounds", "5"]) == 0)
        #expect(await terminal.run(["breathe", "presets", "rename", "evening", "Night"]) == 0)
        #expect(await terminal.run(["breathe", "presets", "duplicate", "night"]) == 0)
        #expect(await terminal.run(["breathe", "presets", "delete", "Night (copy)"]) == 0)
        #expect(
            terminal.output.lines == [
                "Saved “Evening”: 4-2-6-0 × 8.", "Saved “Box breathing (copy)”: 4-4-4-4 × 5.",
                "Saved “Night”: 4-2-6-0 × 8.", "Saved “Night (copy)”: 4-2-6-0 × 8.", "Deleted “Night (copy)”.",
            ])
        let listing = try TestTerminal(sharing: terminal)
        #expect(await listing.run(["breathe", "presets"]) == 0)
        #expect(listing.output.lines.count == 11)
        #expect(listing.output.lines[9].hasPrefix("Night "))
        #expect(listing.output.lines[10].hasPrefix("Box breathing (copy)"))
        #expect(listing.output.lines[0].hasSuffix("built in"))
    }

    @Test(arguments: [
        (["breathe", "--pattern", "4-x-8"], "“4-x-8” is not a breathing pattern"),
        (["breathe", "--pattern", "0-0-0-0"], "Breathing in lasts 1 to 60 seconds."),
        (["breathe", "--pattern", "61-0-1-0"], "Breathing in lasts 1 to 60 seconds."),
        (["breathe", "--pattern", "4-0-4.2-0"], "half-second steps"),
        (["breathe", "--rounds", "100"], "Choose 1 to 99 rounds."),
        (["breathe", "--minutes", "61"], "Choose 1 to 60 minutes."),
        (["breathe", "--rounds", "2", "--minutes", "2"], "cannot be used together"),
        (["breathe", "nowhere"], "There is no breathing preset “nowhere”"),
        (["breathe", "presets", "add", " "], "A preset needs a name."),
        (["breathe", "presets", "add", "Awake"], "There is already a preset called “Awake”"),
        (["breathe", "presets", "delete", "box"], "“Box breathing” is built in"),
        (["breathe", "presets", "edit", "box"], "Say what to change"),
    ])
    func badInputIsRefusedWithAClearMessageAndNothingStored(arguments: [String], message: String) async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(arguments)
        #expect(status != 0)
        #expect(terminal.errors.text.contains(message), "\(terminal.errors.text)")
        let database = try MomentumDatabase.open(directory: terminal.directory.url)
        #expect(try database.breathingPresets().isEmpty)
        #expect(try database.practiceRecords().isEmpty)
    }
}

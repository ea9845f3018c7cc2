import ArgumentParser
import Foundation
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumCLI

@Suite("momentum meditate")
struct MeditateCommandTests {
    @Test func realArgumentListsParseIntoTheCommand() throws {
        let parsed = try MomentumCommand.parseAsRoot([
            "meditate", "20", "--countdown", "5", "--interval", "5,10,15", "--reflection", "3", "--ambient", "rain",
            "--no-sound", "--lang", "de", "--data", "/tmp/x",
        ])
        let command = try #require(parsed as? Meditate)
        #expect(command.options.minutes == "20")
        #expect(command.options.interval == "5,10,15")
        #expect(command.noSound)
        #expect(command.common.data == "/tmp/x")
        let plan = try command.options.plan(from: MeditationPlan(), catalog: .shared(for: .english))
        #expect(plan.duration == .minutes(20))
        #expect(plan.countdown == .seconds(5))
        #expect(plan.intervalGongs == .offsets([.minutes(5), .minutes(10), .minutes(15)]))
        #expect(plan.reflection == .minutes(3))
        #expect(plan.ambientID == "rain")
    }

    @Test func aCompleteSitPlaysEveryGongOnTimeAndIsLoggedOnce() async throws {
        let terminal = try TestTerminal()
        let events = ScriptedEvents()
        let sound = RecordingCuePlayer(events: events)
        let status = await terminal.run(
            ["meditate", "3", "--countdown", "10", "--interval", "1", "--reflection", "1"], sound: sound, events: events
        )
        #expect(status == 0, "\(terminal.errors.text)")
        #expect(sound.played.map(\.sound) == [.startGong, .intervalGong, .intervalGong, .phaseGong, .endGong])
        #expect(sound.played.map(\.at) == [.seconds(10), .seconds(70), .seconds(130), .seconds(190), .seconds(250)])
        #expect(
            terminal.output.lines == [
                "Settling in · 00:10 left · Arrive. There is nowhere else to be.",
                "Meditating · 03:00 left · Rest in this breath.",
                "Reflection · 01:00 left · Rest in this breath.",
                "Well done. Take this calm with you.",
                "Logged 3 min of meditation.",
            ])
        let records = try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords()
        #expect(records.count == 1)
        #expect(records.first?.countedSeconds == 180)
        #expect(records.first?.start == terminal.wallOrigin)
        #expect(records.first?.end == terminal.wallOrigin.addingTimeInterval(250))
    }

    @Test func pausingMovesEveryLaterGongByThePause() async throws {
        let terminal = try TestTerminal()
        let events = ScriptedEvents(keys: [(.seconds(30), " "), (.seconds(100), " ")])
        let sound = RecordingCuePlayer(events: events)
        let status = await terminal.run(
            ["meditate", "2", "--countdown", "0", "--interval", "1"], sound: sound, events: events)
        #expect(status == 0)
        #expect(sound.played.map(\.at) == [.zero, .seconds(130), .seconds(190)])
        #expect(terminal.output.text.contains("Paused — take your time."))
        #expect(
            try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords().first?.countedSeconds == 120)
    }

    @Test func theAmbientBedStartsWithTheCountdownFadesOnPauseAndStopsAfterTheEndGong() async throws {
        let terminal = try TestTerminal()
        let events = ScriptedEvents(keys: [(.seconds(30), " "), (.seconds(100), " ")])
        let sound = RecordingCuePlayer(events: events)
        let status = await terminal.run(
            ["meditate", "2", "--countdown", "5", "--ambient", "ocean", "--volume", "0.3"], sound: sound,
            events: events)
        #expect(status == 0, "\(terminal.errors.text)")
        #expect(sound.ambientMadeFor?.0 == .ocean && sound.ambientMadeFor?.1 == 0.3)
        #expect(sound.ambient.map(\.event) == ["start", "pause", "resume", "stop"])
        #expect(sound.ambient.map(\.at) == [.zero, .seconds(30), .seconds(100), .seconds(195)])
        // The end gong sounds first; the bed fades out under it.
        #expect(sound.played.last?.sound == .endGong && sound.played.last?.at == .seconds(195))
    }

    @Test func anEarlyStopFadesTheBedOutAndASilentSitHasNone() async throws {
        let terminal = try TestTerminal()
        let events = ScriptedEvents(keys: [(.seconds(20), "q")])
        let sound = RecordingCuePlayer(events: events)
        #expect(await terminal.run(["meditate", "5", "--ambient", "rain"], sound: sound, events: events) == 0)
        #expect(sound.ambient.map(\.event) == ["start", "stop"])
        #expect(sound.ambient.last?.at == .seconds(20))

        let quiet = try TestTerminal()
        let silentEvents = ScriptedEvents()
        let silentSound = RecordingCuePlayer(events: silentEvents)
        let status = await quiet.run(
            ["meditate", "1", "--countdown", "0", "--ambient", "silent"], sound: silentSound, events: silentEvents)
        #expect(status == 0)
        #expect(silentSound.ambientMadeFor == nil && silentSound.ambient.isEmpty)
    }

    @Test func anEarlyStopAfterAMinuteAsksAndIsKeptOnYes() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(
            ["meditate", "10", "--countdown", "15"], keys: [(.seconds(15 + 200), "q"), (.seconds(216), "y")])
        #expect(status == 0)
        #expect(terminal.output.text.contains("Keep this 3 min 20 s sit in your log? [Y/n] y"))
        let records = try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords()
        #expect(records.map(\.countedSeconds) == [200])
        #expect(records.first?.details["stoppedEarly"] == "true")
    }

    @Test func anEarlyStopCanBeDiscarded() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["meditate", "10"], keys: [(.seconds(300), "q"), (.seconds(301), "n")])
        #expect(status == 0)
        #expect(terminal.output.lines.last == "Not logged.")
        #expect(try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords().isEmpty)
    }

    @Test func aThirtySecondStopLogsNothing() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["meditate", "10", "--countdown", "0"], keys: [(.seconds(30), "q")])
        #expect(status == 0)
        #expect(terminal.output.lines.last == "Stopped after 30 s — under a minute, so nothing was logged.")
        #expect(try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords().isEmpty)
    }

    @Test func anOpenEndedSitEndsWithTheEndGongWhenStopped() async throws {
        let terminal = try TestTerminal()
        let events = ScriptedEvents(keys: [(.seconds(5 + 1800), "q")])
        let sound = RecordingCuePlayer(events: events)
        let status = await terminal.run(
            ["meditate", "--open", "--countdown", "5", "--interval", "10"], sound: sound, events: events)
        #expect(status == 0)
        #expect(sound.played.map(\.sound) == [.startGong, .intervalGong, .intervalGong, .endGong])
        #expect(sound.played.map(\.at) == [.seconds(5), .seconds(605), .seconds(1205), .seconds(1805)])
        #expect(terminal.output.lines.last == "Logged 30 min of meditation.")
    }

    @Test func theSitSpeaksGermanWhenAskedTo() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["meditate", "1", "--countdown", "0", "--lang", "de"])
        #expect(status == 0)
        #expect(
            terminal.output.lines == [
                "Meditation · 01:00 · Ruhe in diesem Atemzug.".replacingOccurrences(of: "01:00", with: "noch 01:00"),
                "Gut gemacht. Nimm diese Ruhe mit.", "1 Min. Meditation protokolliert.",
            ])
    }

    @Test(arguments: [["20", "--interval", "5,10,20"], ["20", "--interval", "25"], ["5", "--interval", "5"]])
    func intervalGongsAtOrAfterTheEndAreRefused(arguments: [String]) async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["meditate"] + arguments + ["--plan"])
        #expect(status == 64)
        #expect(terminal.errors.text.contains("at or after the end of the"))
        #expect(terminal.output.text.isEmpty)
    }

    @Test func planPrintsTheTimelineAsJSONAndSitsNothing() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["meditate", "20", "--countdown", "0", "--interval", "5,10,15", "--plan"])
        #expect(status == 0)
        let timeline = try JSONDecoder().decode(Timeline.self, from: Data(terminal.output.text.utf8))
        #expect(timeline.cues.map(\.offset) == [.zero, .minutes(5), .minutes(10), .minutes(15), .minutes(20)])
        #expect(timeline.cues.map(\.sound) == [.startGong, .intervalGong, .intervalGong, .intervalGong, .endGong])
        let database = try MomentumDatabase.open(directory: terminal.directory.url)
        #expect(try database.practiceRecords().isEmpty)
        #expect(try database.settingValues().isEmpty)
    }

    @Test func optionsBecomeTheDefaultsForTheNextSit() async throws {
        let terminal = try TestTerminal()
        _ = await terminal.run(["meditate", "1", "--countdown", "0", "--interval", "off", "--ambient", "ocean"])
        _ = await terminal.run(["meditate", "--plan"])
        let timeline = try JSONDecoder().decode(
            Timeline.self, from: Data(terminal.output.text.drop { $0 != "{" }.utf8))
        #expect(timeline.totalDuration == .minutes(1))
        #expect(timeline.ambient?.id == "ocean")
    }
}

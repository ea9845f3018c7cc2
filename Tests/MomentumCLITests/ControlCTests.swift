import Foundation
import MomentumCore
import Testing

@testable import MomentumCLI
@testable import MomentumServices
@testable import MomentumStore

/// Ctrl-C arrives as byte 3 while a player reads raw keys. It ends the practice the way SIGINT
/// would — no more questions — after saving what counts, and the command exits with 130.
@Suite("Ctrl-C in a player: saved, then exit 130")
struct ControlCTests {
    static let controlC = Character(UnicodeScalar(3))

    @Test func aSitStoppedWithControlCIsKeptWithoutAskingAndExits130() async throws {
        let terminal = try TestTerminal()
        // The "n" after Ctrl-C would discard the sit if anything still asked.
        let status = await terminal.run(
            ["meditate", "10", "--countdown", "0"], keys: [(.seconds(200), Self.controlC), (.seconds(201), "n")])
        #expect(status == 130, "\(terminal.errors.text)")
        #expect(terminal.output.lines.last == "Logged 3 min 20 s of meditation.")
        let records = try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords()
        #expect(records.map(\.countedSeconds) == [200])
    }

    @Test func aWorkoutStoppedWithControlCUnderAMinuteLogsNothingAndExits130() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["workout", "tabata"], keys: [(.seconds(30), Self.controlC)])
        #expect(status == 130, "\(terminal.errors.text)")
        #expect(terminal.output.lines.last?.contains("nothing was logged") == true)
        #expect(try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords().isEmpty)
    }

    @Test func qStillExitsZero() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["breathe", "box"], keys: [(.seconds(70), "q"), (.seconds(71), "y")])
        #expect(status == 0, "\(terminal.errors.text)")
        #expect(try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords().count == 1)
    }
}

/// A closed terminal, a dropped SSH connection or `kill` (SIGHUP, SIGTERM, SIGINT) ends a live
/// practice as Ctrl-C does (issue 38): what counts is saved and the command exits 128 + the
/// signal. The signals are handed to the command's own watch (`SignalWatch.deliver`), since the
/// process runs other tests' practices too; `scripts/terminal-signals.py` sends real ones.
@Suite("SIGHUP, SIGTERM and SIGINT end a practice as Ctrl-C does, and it is saved")
struct PracticeSignalTests {
    static let practices: [[String]] = [
        ["meditate", "2", "--countdown", "0"], ["breathe", "box", "--rounds", "20"], ["workout", "tabata"],
    ]

    @Test(arguments: [(SIGHUP, 129), (SIGTERM, 143), (SIGINT, 130)] as [(Int32, Int32)])
    func aSignalAfter65SecondsSavesThePracticeAsStoppedEarly(signal: Int32, status: Int32) async throws {
        for practice in Self.practices {
            let terminal = try TestTerminal()
            // The "n" after the signal would discard the practice if anything still asked.
            let events = ScriptedEvents(keys: [(.seconds(66), "n")], signals: [(.seconds(65), signal)])
            #expect(await terminal.run(practice, events: events) == status, "\(practice): \(terminal.errors.text)")
            #expect(events.delivered == [signal], "\(practice): no watch heard the signal")
            let records = try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords()
            #expect(records.count == 1, "\(practice)")
            #expect(records.first.map { (60...65).contains($0.countedSeconds) } == true, "\(practice): \(records)")
        }
    }

    @Test func afterThePracticeTheSignalsDoWhatTheyDidBefore() async throws {
        let terminal = try TestTerminal()
        let events = ScriptedEvents(keys: [(.seconds(5), "q"), (.seconds(6), "y")])
        _ = await terminal.run(["meditate", "1", "--countdown", "0"], events: events)
        #expect(!SignalWatch.deliver(SIGTERM, to: events))
    }
}

/// Issue 38: an audio player that is there but cannot play (no audio device; here a file that
/// is no program) falls back to the bell, and the practice's ending says so once.
@Suite("A failing audio player: the bell, and one sentence after the practice")
struct FailingSoundTests {
    @Test func aPlayerThatFailsRingsTheBellAndIsMarkedFailed() async throws {
        let terminal = try TestTerminal()
        let player = terminal.directory.url.appendingPathComponent("paplay")
        #expect(
            FileManager.default.createFile(
                atPath: player.path, contents: Data([0, 1, 2]), attributes: [.posixPermissions: 0o755]))
        let bell = CapturedOutput()
        let failure = FailureFlag()
        let cues = SystemCuePlayer(
            command: .init(executable: player.path, arguments: []),
            cache: CueSoundCache(dataDirectory: terminal.directory.url), fallback: BellCuePlayer(output: bell),
            failure: failure)
        cues.play(.startGong)
        // The player process fails on its own time: waited for (at most 10 s), not slept on.
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while !failure.hasFailed, ContinuousClock.now < deadline { await Task.yield() }
        #expect(failure.hasFailed)
        #expect(bell.text.contains("\u{07}"))
        // Once failed, every later cue rings the bell without trying the player again.
        cues.play(.endGong)
        #expect(bell.text.filter { $0 == "\u{07}" }.count == 2)
    }

    @Test func theEndingSaysItOnceInThePersonsLanguage() async throws {
        for (language, start) in [(Language.english, "The audio player failed"), (.german, "Der Audioplayer")] {
            let errors = CapturedOutput()
            let context = CommandContext(
                environment: [:], homeDirectory: "/", output: CapturedOutput(), errors: errors, isInteractive: false,
                now: { Date() }, makeID: { UUID() }, timeZone: .gmt, device: "test", makeEvents: { ScriptedEvents() })
            context.soundFailure.markFailed()
            context.reportEnding(
                PracticeEnding(kind: .meditation, outcome: .tooShortToLog, practiced: .seconds(20), record: nil),
                catalog: .shared(for: language))
            #expect(errors.lines.filter { $0.hasPrefix(start) }.count == 1, "\(errors.text)")
        }
    }
}

import Foundation
import MomentumComposition
import MomentumCore
import MomentumServices
import MomentumStore
import Testing

@testable import MomentumCLI

@Suite("momentum timer")
struct TimerCommandTests {
    @Test func aTimerStartedInOneShellShowsItsRemainingTimeInAnother() async throws {
        let first = try TestTerminal()
        #expect(await first.run(["timer", "add", "Morning pages", "25", "--item", "water", "--item", "notebook"]) == 0)
        #expect(await first.run(["timer", "start", "morning"]) == 0)
        #expect(await first.run(["timer", "check", "Morning pages", "water"]) == 0)
        #expect(
            first.output.lines == [
                "Added “Morning pages”: 25 min.", "“Morning pages” is running: 25:00 left.", "[x] 1. water",
                "[ ] 2. notebook",
            ])
        // Another shell, ten minutes later (its own clock and process state).
        let second = try TestTerminal(sharing: first)
        let later = ScriptedEvents()
        _ = await later.next(until: later.now.advanced(by: .seconds(600)))
        #expect(await second.run(["timer", "list"], events: later) == 0)
        #expect(second.output.lines == ["1  Morning pages  running  15:00 left  ☑ 1/2"])
    }

    @Test func jsonIsTheHTTPTimerViewInMillisecondsWithSortOrderAndPosition() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["timer", "add", "Tea", "3m", "--item", "kettle"]) == 0)
        #expect(await terminal.run(["timer", "start", "tea"]) == 0)
        let listing = try TestTerminal(sharing: terminal)
        #expect(await listing.run(["timer", "list", "--json"]) == 0)
        let timers = try #require(
            try JSONSerialization.jsonObject(with: Data(listing.output.text.utf8)) as? [[String: Any]])
        let tea = try #require(timers.first)
        #expect(tea["durationMs"] as? Int == 180_000)
        #expect(tea["remainingMs"] as? Int == 180_000)
        #expect(tea["elapsedMs"] as? Int == 0)
        #expect(tea["sortOrder"] as? Int == 0)
        #expect(tea["position"] as? Int == 1)
        #expect(tea["status"] as? String == "running")
        #expect(tea["startedAt"] as? String == "2027-01-15T08:00:00Z")
        #expect(tea["durationSeconds"] == nil)
        #expect((tea["items"] as? [[String: Any]])?.first?["text"] as? String == "kettle")
    }

    @Test func runCountsDownSoundsTheEndGongAndLogsFocusOnce() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["timer", "add", "Tea", "3m"]) == 0)
        let events = ScriptedEvents()
        let sound = RecordingCuePlayer(events: events)
        #expect(await terminal.run(["timer", "run", "tea"], sound: sound, events: events) == 0)
        #expect(sound.played.map(\.sound) == [.endGong])
        #expect(sound.played.map(\.at) == [.seconds(180)])
        #expect(
            terminal.output.lines.suffix(3) == [
                "Tea · running · 03:00 left", "Tea · done · 00:00 left", "“Tea” is done — 3 min of focus logged.",
            ])
        let listing = try TestTerminal(sharing: terminal)
        #expect(await listing.run(["timer", "list"]) == 0)
        let records = try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords()
        #expect(records.map(\.kind) == [.focus])
        #expect(records.first?.countedSeconds == 180)
    }

    @Test func spacePausesTheStoredTimerAndQLeavesItRunning() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["timer", "add", "Reading", "10"]) == 0)
        let status = await terminal.run(
            ["timer", "run", "Reading", "--no-sound"],
            keys: [(.seconds(60), " "), (.seconds(120), " "), (.seconds(150), "q")])
        #expect(status == 0, "\(terminal.errors.text)")
        #expect(terminal.output.lines.last == "“Reading” keeps running: 08:30 left. See: momentum timer list")
        let timers = try MomentumDatabase.open(directory: terminal.directory.url).focusTimers()
        #expect(timers.first?.run.status == .running)
        #expect(try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords().isEmpty)
    }

    @Test func planPrintsTheFocusTimeline() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["timer", "add", "Reading", "90s"]) == 0)
        let plan = try TestTerminal(sharing: terminal)
        #expect(await plan.run(["timer", "run", "Reading", "--plan"]) == 0)
        let timeline = try JSONDecoder().decode(Timeline.self, from: Data(plan.output.text.utf8))
        #expect(timeline.practice == .focus)
        #expect(timeline.totalDuration == .seconds(90))
    }

    @Test(arguments: [
        (["timer", "add", "  ", "25"], "A timer needs a name."),
        (["timer", "add", "Zero", "0s"], "A timer lasts 1 second to 24 hours."),
        (["timer", "add", "Long", "25h"], "A timer lasts 1 second to 24 hours."),
        (["timer", "add", "Words", "soon"], "“soon” is not a number of minutes."),
        (["timer", "add", "Blank item", "5", "--item", " "], "A checklist item needs text."),
        (["timer", "add", "Colour", "5", "--color", "red"], "“red” is not a colour"),
        (["timer", "add", "Icon", "5", "--icon", "Big Icon"], "“Big Icon” is not an icon name"),
        (["timer", "start", "nothing"], "There is no timer “nothing”;"),
        (["timer", "show", "nothing"], "There is no timer “nothing”;"),
        (["timer", "delete", "nothing"], "There is no timer “nothing”;"),
        (["timer", "pause"], "No timer is running."),
    ])
    func badInputIsRefusedWithAClearMessageAndNothingStored(arguments: [String], message: String) async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(arguments)
        #expect(status != 0)
        #expect(terminal.errors.text.contains(message), "\(terminal.errors.text)")
        #expect(try MomentumDatabase.open(directory: terminal.directory.url).focusTimers().isEmpty)
    }

    @Test func badChangesToAnExistingTimerLeaveItAsItWas() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["timer", "add", "Reading", "20", "--item", "book"]) == 0)
        let before = try MomentumDatabase.open(directory: terminal.directory.url).focusTimers()
        for (arguments, message) in [
            (["timer", "check", "Reading", "lamp"], "“lamp” is not on the checklist"),
            (["timer", "edit", "Reading"], "Say what to change"),
            (["timer", "edit", "Reading", "--duration", "0"], "A timer lasts 1 second to 24 hours."),
            (["timer", "edit", "Reading", "--name", ""], "A timer needs a name."),
            (["timer", "move", "Reading", "2"], "Place 2 does not exist: choose 1 to 1."),
            (["timer", "resume", "Reading"], "“Reading” is not paused."),
        ] {
            let attempt = try TestTerminal(sharing: terminal)
            #expect(await attempt.run(arguments) != 0)
            #expect(attempt.errors.text.contains(message), "\(arguments): \(attempt.errors.text)")
        }
        #expect(try MomentumDatabase.open(directory: terminal.directory.url).focusTimers() == before)
    }

    /// Issue 38: `timer run` follows what other shells, the web app and synced devices do to the
    /// stored timer — a pause, a resume, a finish are on screen within half a second — and a key
    /// on a timer finished elsewhere does not start it again.
    @Test func runFollowsChangesMadeElsewhereAndAKeyNeverRestartsAFinishedTimer() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["timer", "add", "Reading", "10"]) == 0)
        let (directory, origin) = (terminal.directory.url, terminal.wallOrigin)
        let clock = ScriptedClockBox()
        // Another shell on the same data directory, at the scripted clock's time.
        let elsewhere = { @Sendable (act: @Sendable (FocusTimerService) async throws -> Void) in
            let services = try? await MomentumServices.open(
                dataDirectory: directory, device: "other-shell", timeZone: .gmt,
                now: { origin.addingTimeInterval(clock.elapsed.inSeconds) }, makeID: { UUID() })
            if let services { try? await act(services.focusTimers) }
        }
        // Paused, resumed and paused elsewhere; then finished elsewhere just as space is pressed
        // here, on a screen that still says "paused" — which used to start the timer again.
        let events = ScriptedEvents(
            keys: [(.seconds(150), " ")],
            actions: [
                (.seconds(30), { await elsewhere { _ = try await $0.pause(named: "Reading") } }),
                (.seconds(90), { await elsewhere { _ = try await $0.resume(named: "Reading") } }),
                (.seconds(120), { await elsewhere { _ = try await $0.pause(named: "Reading") } }),
                (.seconds(150), { await elsewhere { _ = try await $0.complete(named: "Reading") } }),
            ])
        clock.events = events
        let sound = RecordingCuePlayer(events: events)
        #expect(await terminal.run(["timer", "run", "Reading"], sound: sound, events: events) == 0)
        let lines = terminal.output.lines
        #expect(lines.contains("Reading · paused · 09:30 left"), "\(lines)")
        #expect(lines.contains("Reading · paused · 09:00 left"), "\(lines)")
        #expect(lines.last?.hasPrefix("“Reading” is done") == true, "\(lines)")
        // The screen heard of the finish within half a second of it.
        #expect(sound.played.map(\.sound) == [.endGong])
        #expect(sound.played.first.map { $0.at >= .seconds(150) && $0.at <= .milliseconds(150_500) } == true)
        let timers = try MomentumDatabase.open(directory: directory).focusTimers()
        #expect(timers.first?.run.status == .completed)
        #expect(try MomentumDatabase.open(directory: directory).practiceRecords().count == 1)
    }
}

/// The scripted clock, for an action that runs as another shell would.
final class ScriptedClockBox: @unchecked Sendable {
    var events: ScriptedEvents?
    var elapsed: Duration { events?.elapsed ?? .zero }
}

import Foundation
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumCLI

@Suite("momentum workout")
struct WorkoutCommandTests {
    @Test func tabataPlaysItsBeepsOnTimeAndIsLoggedWithEnergy() async throws {
        let terminal = try TestTerminal()
        let events = ScriptedEvents()
        let sound = RecordingCuePlayer(events: events)
        let status = await terminal.run(["workout", "tabata"], sound: sound, events: events)
        #expect(status == 0, "\(terminal.errors.text)")
        #expect(events.elapsed == .seconds(240))
        #expect(sound.played.first?.sound == .leadIn)
        #expect(sound.played.last.map { ($0.sound, $0.at) } ?? (.leadIn, .zero) == (.finish, .seconds(240)))
        // Get ready ends at 10 s: three short beeps and a long one.
        let firstChange = sound.played.filter { $0.at >= .seconds(7) && $0.at <= .seconds(10) }
        #expect(firstChange.map(\.sound) == [.shortBeep, .shortBeep, .shortBeep, .longBeep])
        #expect(firstChange.map(\.at) == [7, 8, 9, 10].map { Duration.seconds($0) })
        #expect(sound.played.filter { $0.sound == .halfway }.map(\.at).first == .seconds(20))
        #expect(terminal.output.lines.first == "Tabata: 20 s work, 10 s rest × 8 — 4 min")
        #expect(terminal.output.lines[1] == "GET READY · 00:10 · Next: Work · 04:00 left in all")
        #expect(terminal.output.lines[2] == "WORK · 00:20 · Round 1 of 8 · Next: Rest · 03:50 left in all")
        #expect(terminal.output.lines.suffix(3) == ["DONE", "Logged 4 min of workout.", "About 48 kcal."])
        let records = try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords()
        #expect(records.map(\.kind) == [.workout])
        #expect(records.first?.energyKilocalories == 48)
    }

    @Test func optionsMakeAWorkoutOfYourOwnAndPlanPrintsIt() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run([
            "workout", "--work", "40", "--rest", "20", "--rounds", "3", "--sets", "3", "--set-rest", "60",
            "--get-ready",
            "10", "--plan",
        ])
        #expect(status == 0, "\(terminal.errors.text)")
        let timeline = try JSONDecoder().decode(Timeline.self, from: Data(terminal.output.text.utf8))
        #expect(timeline.practice == .workout)
        #expect(timeline.totalDuration == .seconds(10 + 3 * (3 * 40 + 2 * 20) + 2 * 60))
        #expect(timeline.segments.filter { $0.kind == .setRest }.count == 2)
    }

    @Test func programsAreManagedFromTheCommandLine() async throws {
        let terminal = try TestTerminal()
        #expect(
            await terminal.run(["workout", "programs", "add", "Legs", "--work", "45", "--rest", "15", "--rounds", "6"])
                == 0)
        #expect(
            await terminal.run(["workout", "programs", "edit", "legs", "--exercise", "Squats", "--exercise", "Lunges"])
                == 0)
        #expect(await terminal.run(["workout", "programs", "edit", "beginner", "--rounds", "4"]) == 0)
        #expect(await terminal.run(["workout", "programs", "delete", "Beginner (copy)"]) == 0)
        #expect(
            terminal.output.lines == [
                "Saved “Legs”: 45 s work, 15 s rest × 6.", "Saved “Legs”: 45 s work, 15 s rest × 6.",
                "Saved “Beginner (copy)”: 30 s work, 30 s rest × 4.", "Deleted “Beginner (copy)”.",
            ])
        let run = try TestTerminal(sharing: terminal)
        #expect(await run.run(["workout", "legs", "--no-sound"]) == 0)
        #expect(run.output.lines[2].hasPrefix("WORK · Squats · 00:45"))
    }

    @Test(arguments: [
        (["workout", "--rounds", "0"], "Choose 1 to 200 rounds."),
        (["workout", "--rounds", "201"], "Choose 1 to 200 rounds."),
        (["workout", "--work", "0"], "Work lasts 1 to 600 seconds."),
        (["workout", "--work", "601"], "Work lasts 1 to 600 seconds."),
        (["workout", "--rest", "-1"], "“-1” is negative"),
        (["workout", "--sets", "21"], "Choose 1 to 20 sets."),
        (["workout", "--get-ready", "61"], "Get ready lasts 0 to 60 seconds."),
        (["workout", "--warm-up", "31"], "The warm-up lasts 0 to 30 minutes."),
        (["workout", "--work", "1.5"], "Workout times are whole seconds."),
        (["workout", "--exercise", " "], "An exercise needs a name."),
        (["workout", "--activity", "dance"], "“dance” is not an activity"),
        (["workout", "zumba"], "There is no workout program “zumba”"),
        (["workout", "programs", "add", "Tabata"], "There is already a program called “Tabata”"),
        (["workout", "programs", "delete", "tabata"], "“Tabata” is built in"),
        (["workout", "programs", "edit", "tabata"], "Say what to change"),
    ])
    func badInputIsRefusedWithAClearMessageAndNothingStored(arguments: [String], message: String) async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(arguments)
        #expect(status != 0)
        #expect(terminal.errors.text.contains(message), "\(terminal.errors.text)")
        let database = try MomentumDatabase.open(directory: terminal.directory.url)
        #expect(try database.workoutPrograms().isEmpty)
        #expect(try database.practiceRecords().isEmpty)
    }
}

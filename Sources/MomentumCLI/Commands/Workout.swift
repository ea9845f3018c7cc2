import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices
import MomentumStoreContract

/// `momentum workout`: interval workouts, and their programs.
struct Workout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Interval workouts (HIIT, EMOM, circuits) with a board and beeps.",
        usage: """
            momentum workout [<program>] [--work <s>] [--rest <s>] [--rounds <n>] [--sets <n>] [--set-rest <s>] …
              momentum workout programs [list | add | edit | delete]
            """,
        discussion: "Every option of a workout: momentum workout session --help",
        subcommands: [Session.self, WorkoutPrograms.self],
        defaultSubcommand: Session.self
    )
}

/// The plan options `workout`, `workout programs add` and `edit` share.
struct WorkoutOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Work interval, 1–600 seconds (or 1m).", valueName: "seconds"))
    var work: String?

    @Option(help: ArgumentHelp("Rest after each round, 0–600 seconds.", valueName: "seconds"))
    var rest: String?

    @Option(help: ArgumentHelp("Rounds per set, 1–200.", valueName: "rounds"))
    var rounds: String?

    @Option(help: ArgumentHelp("Sets, 1–20.", valueName: "sets"))
    var sets: String?

    @Option(
        name: .customLong("set-rest"), help: ArgumentHelp("Rest between sets, 0–600 seconds.", valueName: "seconds"))
    var setRest: String?

    @Option(
        name: .customLong("get-ready"), help: ArgumentHelp("Time to get ready, 0–60 seconds.", valueName: "seconds"))
    var getReady: String?

    @Option(name: .customLong("warm-up"), help: ArgumentHelp("Warm-up, 0–30 minutes (or 90s).", valueName: "minutes"))
    var warmUp: String?

    @Option(
        name: .customLong("cool-down"), help: ArgumentHelp("Cool-down, 0–30 minutes (or 90s).", valueName: "minutes"))
    var coolDown: String?

    @Option(
        name: .customLong("exercise"),
        help: ArgumentHelp("An exercise name, one per round, repeating (give several).", valueName: "name"))
    var exercises: [String] = []

    @Option(help: ArgumentHelp("hiit, yoga or other (for the energy estimate).", valueName: "activity"))
    var activity: String?

    var isEmpty: Bool {
        [work, rest, rounds, sets, setRest, getReady, warmUp, coolDown, activity].allSatisfy { $0 == nil }
            && exercises.isEmpty
    }

    /// `plan` with these options applied, checked.
    func apply(to plan: WorkoutPlan, catalog: StringCatalog) throws -> WorkoutPlan {
        var plan = plan
        func time(_ text: String, _ unit: DurationText.Unit) throws -> Duration {
            try CommandInput.duration(text, unit: unit, catalog: catalog)
        }
        if let work { plan.work = try time(work, .seconds) }
        if let rest { plan.rest = try time(rest, .seconds) }
        if let rounds { plan.rounds = try CommandInput.whole(rounds, unit: .rounds, catalog: catalog) }
        if let sets { plan.sets = try CommandInput.whole(sets, unit: .sets, catalog: catalog) }
        if let setRest { plan.setRest = try time(setRest, .seconds) }
        if let getReady { plan.getReady = try time(getReady, .seconds) }
        if let warmUp { plan.warmUp = try time(warmUp, .minutes) }
        if let coolDown { plan.coolDown = try time(coolDown, .minutes) }
        if !exercises.isEmpty { plan.exerciseNames = exercises }
        if let activity {
            guard let value = WorkoutActivity(rawValue: activity.lowercased()) else {
                throw CommandFailure(catalog.format(.errorWorkoutActivity, ["value": activity]))
            }
            plan.activity = value
        }
        try plan.validate()
        return plan
    }
}

extension Workout {
    /// `momentum workout [PROGRAM]`: a workout in the terminal.
    struct Session: ContextualCommand {
        static let configuration = CommandConfiguration(
            commandName: "session",
            abstract: "Do a program or a workout of your own (the default: `momentum workout tabata`).",
            discussion: """
                Without a program: 30 s work, 10 s rest × 10 after 10 s to get ready, changed by the options. \
                Space pauses and resumes, q stops (an early stop of a minute or more may be kept in the log).
                """
        )

        @Argument(help: ArgumentHelp("A program's name or id (see `workout programs`).", valueName: "program"))
        var program: String?

        @OptionGroup var options: WorkoutOptions

        @Flag(name: .customLong("no-sound"), help: "No sounds, not even the terminal bell.")
        var noSound = false

        @Flag(name: .customLong("plan"), help: "Print the workout's timeline as JSON and exit without starting.")
        var printPlan = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let base =
                    if let program {
                        try await session.services.workouts.program(named: program).plan(catalog: catalog)
                    } else {
                        nil as WorkoutPlan?
                    }
                let plan = try options.apply(to: base ?? WorkoutPlan(), catalog: catalog)
                let timeline = try plan.timeline()
                if printPlan {
                    context.output.write(try TimelineJSON.text(timeline))
                    return
                }
                context.output.write(
                    catalog.format(
                        .workoutStarting,
                        [
                            "name": plan.programName ?? catalog[.workoutOwnPlan],
                            "summary": plan.summary(catalog: catalog),
                            "duration": DurationFormatting.words(plan.totalDuration, language: catalog.language),
                        ]) + "\n")
                let events = context.makeEvents()
                defer { events.restore() }
                var player = PracticePlayer(
                    run: TimelineRun(timeline: timeline), screen: WorkoutScreen(timeline: timeline, catalog: catalog),
                    display: LiveDisplay(output: context.output, isLive: context.isInteractive),
                    sound: context.cuePlayer(soundOn: session.settings.isSoundOn && !noSound, session: session),
                    events: events, catalog: catalog)
                let startedAt = context.now()
                let played = try await player.play()
                let ending = try await session.services.workouts.finishSession(
                    plan: plan, outcome: played.outcome, startedAt: startedAt, keep: played.keep)
                context.reportEnding(ending, catalog: catalog)
                if let energy = ending.record?.energyKilocalories {
                    context.output.write(catalog.format(.workoutEnergy, ["kcal": "\(Int(energy.rounded()))"]) + "\n")
                }
            }
        }
    }
}

/// The workout board in the terminal: what the core's ``WorkoutBoard`` says, big enough to read.
struct WorkoutScreen: PracticeScreen {
    let timeline: Timeline
    let catalog: StringCatalog

    func lines(for state: RunState, isLive: Bool) -> [String] {
        let board = WorkoutBoard(timeline: timeline, state: state).lines(catalog)
        if state.status == .completed || state.status == .stopped { return [board.title.uppercased()] }
        let title = board.exercise.map { "\(board.title.uppercased()) · \($0)" } ?? board.title.uppercased()
        var lines = ["\(title) · \(board.remainingInSegment)"]
        let position = [board.round, board.set].compactMap { $0 }
        if !position.isEmpty { lines.append(position.joined(separator: " · ")) }
        let total = catalog.format(.workoutLeftTotal, ["time": board.remaining])
        // Live, each part has its own line and every line fits a 40-column terminal; the
        // transcript keeps one line per segment.
        guard isLive else {
            lines.append([board.next, total].compactMap { $0 }.joined(separator: " · "))
            return lines
        }
        lines += [board.next, total].compactMap { $0 }
        return lines.flatMap { $0.wrapped() }
    }

    func transcriptKey(for state: RunState) -> String {
        state.status == .running || state.status == .paused ? "\(state.segmentIndex)" : state.status.rawValue
    }
}

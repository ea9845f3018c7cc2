import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices
import MomentumStoreContract

/// `momentum breathe`: guided breathing, and its presets.
struct Breathe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Breathe with a preset or your own pattern: inhale, hold, exhale, hold.",
        usage: """
            momentum breathe [<preset>] [--pattern <pattern>] [--rounds <rounds> | --minutes <minutes>]
              momentum breathe presets [list | add | edit | rename | duplicate | delete]
            """,
        discussion: "Every option of a session: momentum breathe session --help",
        subcommands: [Session.self, BreathePresets.self],
        defaultSubcommand: Session.self
    )
}

/// `momentum breathe [PRESET]`: a breathing session in the terminal.
extension Breathe {
    struct Session: ContextualCommand {
        static let configuration = CommandConfiguration(
            commandName: "session",
            abstract: "Breathe a preset or a pattern of your own (the default: `momentum breathe box`).",
            discussion: """
                Without a preset, box breathing (4-4-4-4 × 10). Space pauses and resumes, q stops (an early \
                stop of a minute or more may be kept in the log).
                """
        )

        @OptionGroup var options: BreathingOptions

        @Flag(name: .customLong("no-sound"), help: "No sounds, not even the terminal bell.")
        var noSound = false

        @Flag(name: .customLong("plan"), help: "Print the session's timeline as JSON and exit without breathing.")
        var printPlan = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let plan = try await options.plan(session: session)
                if printPlan {
                    context.output.write(try TimelineJSON.text(try plan.timeline()))
                    return
                }
                try await breathe(plan: plan, session: session, context: context)
            }
        }

        private func breathe(plan: BreathingPlan, session: CommandContext.Session, context: CommandContext) async throws
        {
            let catalog = session.catalog
            let timeline = try plan.timeline()
            let name = plan.presetName ?? catalog[.breathingOwnPattern]
            context.output.write(
                catalog.format(
                    .breathingStarting,
                    [
                        "name": name, "pattern": plan.pattern.text, "rounds": "\(plan.rounds)",
                        "duration": DurationFormatting.words(plan.totalDuration, language: catalog.language),
                    ]) + "\n")
            let events = context.makeEvents()
            defer { events.restore() }
            var player = PracticePlayer(
                run: TimelineRun(timeline: timeline), screen: BreathingScreen(plan: plan, catalog: catalog),
                display: LiveDisplay(output: context.output, isLive: context.isInteractive),
                sound: context.cuePlayer(soundOn: session.settings.isSoundOn && !noSound, session: session),
                events: events, catalog: catalog, refresh: .milliseconds(100))
            let startedAt = context.now()
            let played = try await player.play()
            let ending = try await session.services.breathing.finishSession(
                plan: plan, outcome: played.outcome, startedAt: startedAt, keep: played.keep)
            context.reportEnding(ending, catalog: catalog)
        }
    }
}

/// Which breathing: a preset, a pattern, rounds or minutes. Shared by `breathe` and `render breathing`.
struct BreathingOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("A preset's name or id (see `breathe presets`).", valueName: "preset"))
    var preset: String?

    @Option(
        help: ArgumentHelp(
            "Inhale-hold-exhale-hold in seconds (half seconds allowed), e.g. 4-7-8-0.", valueName: "pattern"))
    var pattern: String?

    @Option(help: ArgumentHelp("How many rounds, 1–99.", valueName: "rounds"))
    var rounds: String?

    @Option(help: ArgumentHelp("How long in minutes, 1–60 (ends on a whole round).", valueName: "minutes"))
    var minutes: String?

    static let defaultPresetID = "box"

    /// The chosen preset with this command line's options applied, checked.
    func plan(session: CommandContext.Session) async throws -> BreathingPlan {
        let catalog = session.catalog
        let base = try await session.services.breathing.preset(named: preset ?? Self.defaultPresetID)
        var plan = base.plan(catalog: catalog)
        if let pattern {
            plan.pattern = try BreathingPattern(parsing: pattern)
            if preset == nil { plan.presetName = nil }
        }
        if let rounds, let minutes {
            throw CommandFailure(
                catalog.format(
                    .errorConflictingOptions, ["first": "--rounds \(rounds)", "second": "--minutes \(minutes)"]))
        }
        if let rounds { plan.length = .rounds(try CommandInput.whole(rounds, unit: .rounds, catalog: catalog)) }
        if let minutes {
            plan.length = .minutes(try CommandInput.whole(minutes, unit: .minutes, catalog: catalog))
        }
        try plan.validate()
        return plan
    }
}

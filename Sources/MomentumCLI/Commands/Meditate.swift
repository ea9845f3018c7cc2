import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices
import MomentumStoreContract

/// `momentum meditate`: a sit, and the saved sits.
struct MeditateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meditate",
        abstract: "Sit with a timer: a countdown, gongs, an optional reflection, logged when done.",
        usage: """
            momentum meditate [<minutes> | <saved-sit>] [--countdown <seconds>] [--interval <minutes>] \
            [--reflection <minutes>] [--ambient <id>] [--volume <volume>] [--open]
              momentum meditate presets [list | add | edit | rename | delete]
            """,
        discussion: "Every option of a sit: momentum meditate sit --help",
        subcommands: [Meditate.self, MeditatePresets.self],
        defaultSubcommand: Meditate.self
    )
}

/// `momentum meditate [MINUTES | SAVED-SIT]`: a sit in the terminal.
struct Meditate: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "sit",
        abstract: "Sit with a timer, or a saved sit by its name (the default: `momentum meditate 20`).",
        discussion: """
            Options you give become your defaults for the next sit; with a saved sit's name they change \
            this sit only, not the saved one, and a saved sit never changes your defaults. A new length \
            leaves out remembered interval gongs that no longer fit. Space pauses and resumes, q stops \
            (an early stop of a minute or more may be kept in the log).
            """
    )

    @OptionGroup var options: MeditationOptions

    @Flag(name: .customLong("no-sound"), help: "No sounds, not even the terminal bell.")
    var noSound = false

    @Flag(name: .customLong("plan"), help: "Print the sit's timeline as JSON and exit without sitting.")
    var printPlan = false

    @OptionGroup var common: CommonOptions

    func run(in context: CommandContext) async throws {
        try await context.withSession(common) { session in
            let (plan, preset) = try await sitPlan(session: session)
            if printPlan {
                context.output.write(try TimelineJSON.text(try plan.timeline()))
                return
            }
            if let preset {
                context.output.write(
                    session.catalog.format(
                        .meditationPresetStarting, ["name": preset.name, "summary": plan.summary(session.catalog)])
                        + "\n")
            }
            try await sit(plan: plan, preset: preset, session: session, context: context)
        }
    }

    /// The sit to run: a saved sit when the first word is a saved sit's name rather than a
    /// length (with this command line's options applied), otherwise the last sit with them.
    private func sitPlan(session: CommandContext.Session) async throws -> (MeditationPlan, MeditationPreset?) {
        let catalog = session.catalog
        guard let word = options.minutes, DurationText.parse(word, defaultUnit: .minutes) == nil else {
            return (try options.plan(from: session.settings.meditation, catalog: catalog), nil)
        }
        let presets = session.services.meditationPresets
        let found: MeditationPreset?
        do {
            found = try await presets.preset(named: word)
        } catch {
            // Only "no sit of that name" means the word may be a length; a store error is said.
            guard case .invalid(.unknownPreset) = error else { throw error }
            found = nil
        }
        guard let preset = found else {
            // Neither a length nor a saved sit: the length's own error, and the closest saved sit if any.
            do {
                return (try options.plan(from: session.settings.meditation, catalog: catalog), nil)
            } catch let failure as CommandFailure {
                // try?: the names are read only for the hint; without them the error stands alone.
                let names = ((try? await presets.presets()) ?? []).map(\.name)
                guard failure.hint == nil, let closest = NameSuggestion.closest(to: word, among: names) else {
                    throw failure
                }
                throw CommandFailure(
                    failure.message, hint: catalog.format(.didYouMean, ["suggestion": "momentum meditate \(closest)"]))
            }
        }
        var options = options
        options.minutes = nil
        return (try options.plan(from: preset.plan, catalog: catalog), preset)
    }

    private func sit(
        plan: MeditationPlan, preset: MeditationPreset?, session: CommandContext.Session, context: CommandContext
    ) async throws {
        let (services, catalog) = (session.services, session.catalog)
        let prepared = try await services.meditation.startSit(
            plan: plan, fromSavedSit: preset != nil, language: catalog.language)
        let soundOn = session.settings.isSoundOn && !noSound
        let cuePlayer = context.cuePlayer(soundOn: soundOn, session: session)
        let events = context.makeEvents()
        defer { events.restore() }
        var player = MeditationPlayer(
            sit: try MeditationSit(plan: prepared.plan, affirmations: prepared.affirmations),
            screen: MeditationScreen(output: context.output, isLive: context.isInteractive, catalog: catalog),
            sound: cuePlayer,
            ambient: context.ambientPlayer(for: try prepared.plan.timeline(), soundOn: soundOn, catalog: catalog),
            events: events, catalog: catalog)
        let startedAt = context.now()
        let played = try await player.play()
        let ending = try await services.meditation.finishSit(
            plan: prepared.plan, outcome: played.outcome, startedAt: startedAt, keep: played.keep, preset: preset)
        context.reportEnding(ending, catalog: catalog)
    }
}

/// What a sit is: length, countdown, gongs, reflection and ambient. Shared by `meditate` and
/// `render meditation`.
struct MeditationOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp("Length in minutes, 1–600 (also 90s or 1.5h). Default: your last sit.", valueName: "minutes")
    )
    var minutes: String?

    @Option(help: ArgumentHelp("Settling-in time before the start gong, 0–60 seconds.", valueName: "seconds"))
    var countdown: String?

    @Option(
        help: ArgumentHelp(
            "Interval gongs: every N minutes (1–60), minutes like 25,30,55, or off.", valueName: "minutes"))
    var interval: String?

    @Option(
        help: ArgumentHelp(
            "Reflection after the sit, opened by a three-strike gong, 0–60 minutes.", valueName: "minutes"))
    var reflection: String?

    @Option(help: ArgumentHelp("Ambient sound: silent, rain, ocean, stream or brown.", valueName: "id"))
    var ambient: String?

    @Option(help: ArgumentHelp("Ambient volume, 0–1.", valueName: "volume"))
    var volume: String?

    @Flag(help: "No set length: sit until you stop.")
    var open = false

    /// Whether any option of the sit was given (what `meditate presets edit` needs at least one of).
    var changesAnything: Bool {
        minutes != nil || open || countdown != nil || interval != nil || reflection != nil || ambient != nil
            || volume != nil
    }

    /// The saved plan with this command line's options applied, checked.
    func plan(from saved: MeditationPlan, catalog: StringCatalog) throws -> MeditationPlan {
        var plan = saved
        func duration(_ text: String, unit: DurationText.Unit) throws -> Duration {
            try CommandInput.duration(text, unit: unit, catalog: catalog)
        }
        if let minutes {
            if open {
                throw CommandFailure(catalog.format(.errorConflictingOptions, ["first": minutes, "second": "--open"]))
            }
            plan = plan.withLength(try duration(minutes, unit: .minutes), gongsChosenToo: interval != nil)
        }
        if open { plan.isOpenEnded = true }
        if let countdown { plan.countdown = try duration(countdown, unit: .seconds) }
        if let reflection { plan.reflection = try duration(reflection, unit: .minutes) }
        if let interval {
            guard let gongs = IntervalGongs(parsing: interval) else {
                throw CommandFailure(catalog.format(.errorIntervalList, ["value": interval]))
            }
            plan.intervalGongs = gongs
        }
        if let ambient {
            plan.ambientID = ambient
            if let sound = AmbientCatalog.builtIn.sound(id: ambient), volume == nil {
                plan.ambientVolume = sound.defaultVolume
            }
        }
        if let volume {
            guard let value = Double(volume) else {
                throw CommandFailure(catalog.format(.errorNotANumber, ["value": volume, "unit": "0–1"]))
            }
            plan.ambientVolume = value
        }
        try plan.validate()
        return plan
    }
}

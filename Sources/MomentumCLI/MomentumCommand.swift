import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices
import MomentumStoreContract

/// `momentum`: the root of the command tree.
public struct MomentumCommand: AsyncParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "momentum",
        abstract: "A calm practice companion: meditation, breathing, workouts, focus timers and a practice log.",
        discussion: """
            Data lives in $MOMENTUM_HOME, else $XDG_DATA_HOME/momentum, else ~/.local/share/momentum \
            (override with --data DIR). A server can hold several people, each with their own \
            practice (momentum user): --user NAME (or $MOMENTUM_USER) says whose, the owner's by default.

            In a player (meditate, breathe, workout, timer run, morse learn, morse qso) Ctrl-C ends \
            the practice, saves what counts without asking, and exits with status 130. \
            Tab completion: momentum completions bash|zsh|fish.
            """,
        version: version,
        subcommands: [
            MeditateCommand.self, Breathe.self, Workout.self, TimerCommand.self, Log.self, StreakCommand.self,
            Stats.self,
            CalendarCommand.self,
            ChartCommand.self,
            Render.self, MorseCommand.self, LibraryCommand.self,
            Export.self, Import.self,
            SettingsCommand.self, RemindCommand.self,
            Serve.self, DoctorCommand.self, UserCommand.self, PairCommand.self, TokenCommand.self, PushCommand.self,
            TrackCommand.self,
            SyncCommand.self,
            AboutCommand.self,
            Completions.self,
        ]
    )

    public init() {}
}

/// A command that runs against an injected ``CommandContext``.
protocol ContextualCommand: AsyncParsableCommand {
    func run(in context: CommandContext) async throws
}

extension ContextualCommand {
    func run() async throws { try await run(in: .live()) }
}

/// Options every command that touches data shares.
struct CommonOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Data directory (default: $MOMENTUM_HOME, $XDG_DATA_HOME/momentum, ~/.local/share/momentum).",
            valueName: "dir"))
    var data: String?

    @Option(
        name: .long, help: ArgumentHelp("Language: en or de (default: your setting, else $LANG).", valueName: "lang"))
    var lang: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Whose practice: a person of this server's household (default: $MOMENTUM_USER, else the owner).",
            valueName: "name"))
    var user: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A PostgreSQL database for several servers, postgres://USER@HOST[:PORT]/DATABASE, with "
                + "?sslmode=require|verify-ca|verify-full&sslrootcert=PEM for TLS "
                + "(default: $MOMENTUM_DATABASE_URL; without one, SQLite in the data directory).",
            valueName: "url"))
    var database: String?

    /// The `--lang` value, checked.
    func language() throws -> Language? {
        guard let lang else { return nil }
        guard let language = Language(rawValue: lang.lowercased()) else {
            let catalog = StringCatalog.shared(for: .english)
            throw CommandFailure(catalog.format(.errorUnknownLanguage, ["value": lang]))
        }
        return language
    }
}

/// Runs the command line `arguments` (without the program name) and returns the exit status.
///
/// Errors become one line on standard error: the problem, named. Help and version go to
/// standard output.
public enum MomentumCLI {
    public static func main(arguments: [String], context: CommandContext) async -> Int32 {
        // Ctrl-C in a player ends the practice (saving what counts), then the command exits 130.
        let interruption = Interruption()
        defer { interruption.stopWatching() }
        var context = context
        let makeEvents = context.makeEvents
        context.makeEvents = {
            let source = makeEvents()
            interruption.watchSignals(for: source)
            return InterruptibleEvents(source: source, interruption: interruption)
        }
        if arguments.first == CompletionScripts.command {
            return await Completions.answer(Array(arguments.dropFirst()), context: context)
        }
        let fallbackCatalog = UsageErrors.catalog(arguments: arguments, environment: context.environment)
        if let negative = negativeValue(in: arguments) {
            context.errors.write("momentum: " + fallbackCatalog.format(.errorNegativeValue, ["value": negative]) + "\n")
            return CommandExit.usage.rawValue
        }
        if let unknown = unknownHelpTopic(arguments) {
            // `momentum help nonexist` printed the overview and succeeded.
            context.errors.write(
                "momentum: " + fallbackCatalog.format(.errorUsageUnexpectedArgument, ["value": unknown]) + "\n")
            if let hint = DidYouMean.subcommandHint(for: Array(arguments.dropFirst()), catalog: fallbackCatalog) {
                context.errors.write("momentum: \(hint)\n")
            }
            return CommandExit.usage.rawValue
        }
        let command: any ParsableCommand
        do {
            command = try MomentumCommand.parseAsRoot(arguments)
        } catch {
            let code = MomentumCommand.exitCode(for: error)
            if code == .success {
                context.output.write(MomentumCommand.fullMessage(for: error) + "\n")
                return 0
            }
            let message =
                MomentumCommand.message(for: error)
                .split(separator: "\n").first.map(String.init) ?? "\(error)"
            // A first word that names no command is the mistake, whatever else the parser tripped on
            // (`momentum medtate --lang de` is not about --lang).
            let unknown = arguments.first.flatMap { first in
                first.hasPrefix("-") || CompletionNode.momentum.subcommand(named: first) != nil ? nil : first
            }
            let said =
                unknown.map { fallbackCatalog.format(.errorUsageUnexpectedArgument, ["value": $0]) }
                ?? UsageErrors.message(message, catalog: fallbackCatalog)
            context.errors.write("momentum: \(said)\n")
            if let hint = DidYouMean.subcommandHint(for: arguments, catalog: fallbackCatalog) {
                context.errors.write("momentum: \(hint)\n")
            }
            return code.rawValue
        }
        do {
            if let contextual = command as? any ContextualCommand {
                try await contextual.run(in: context)
            } else if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                // `momentum help …`, handled by the argument parser itself.
                var plainCommand = command
                try plainCommand.run()
            }
            return interruption.happened ? interruption.exitStatus : 0
        } catch let error as ExitCode {
            return error.rawValue
        } catch  where MomentumCommand.exitCode(for: error) == .success {
            // Help and version requests, which the parser reports as errors.
            context.output.write(MomentumCommand.fullMessage(for: error) + "\n")
            return 0
        } catch {
            let catalog = (error as? LocalizedFailure)?.catalog ?? fallbackCatalog
            let underlying = (error as? LocalizedFailure)?.underlying ?? error
            context.errors.write("momentum: " + ErrorMessages.commandMessage(for: underlying, catalog: catalog) + "\n")
            let hint = (error as? LocalizedFailure)?.hint ?? (error as? CommandFailure)?.hint
            if let hint { context.errors.write("momentum: \(hint)\n") }
            if context.environment["MOMENTUM_LOG_LEVEL"] == "debug" {
                // The detail people may pass on when reporting a problem; never shown otherwise.
                context.errors.write("momentum: debug: \(String(reflecting: underlying))\n")
            }
            return CommandExit.of(error).rawValue
        }
    }

    /// In `momentum help WORDS…`, the first word that names no command where it stands.
    static func unknownHelpTopic(_ arguments: [String]) -> String? {
        guard arguments.first == "help" else { return nil }
        var node = CompletionNode.momentum
        for word in arguments.dropFirst() where !word.hasPrefix("-") {
            guard let next = node.subcommand(named: word) else { return word }
            node = next
        }
        return nil
    }

    /// `-5`, `-0.5`: values, not options, and never valid in Momentum…
    static func isNegativeNumber(_ argument: String) -> Bool {
        argument.wholeMatch(of: /-[0-9]+(\.[0-9]+)?/) != nil
    }

    /// …except as the value of an option that is a ratio in decibels (`--snr -3`).
    static let signedOptions: Set<String> = ["--snr"]

    /// The first negative number that is not the value of one of ``signedOptions``.
    static func negativeValue(in arguments: [String]) -> String? {
        for (index, argument) in arguments.enumerated() where isNegativeNumber(argument) {
            if index > 0, signedOptions.contains(arguments[index - 1]) { continue }
            return argument
        }
        return nil
    }
}

/// An error with the language it should be reported in (known once settings are read).
struct LocalizedFailure: Error {
    var underlying: any Error
    var catalog: StringCatalog
    /// A second line that helps ("Did you mean …?"), if any.
    var hint: String?
}

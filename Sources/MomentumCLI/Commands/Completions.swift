import ArgumentParser
import Foundation
import MomentumStore

/// `momentum completions bash|zsh|fish`: the shell completion script, generated from the command
/// tree (the same as `momentum --generate-completion-script SHELL`).
struct Completions: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "completions",
        abstract: "Print the tab-completion script for bash, zsh or fish.",
        discussion: """
            bash: momentum completions bash > ~/.local/share/bash-completion/completions/momentum
            zsh:  momentum completions zsh > "${fpath[1]}/_momentum"
            fish: momentum completions fish > ~/.config/fish/completions/momentum.fish
            """
    )

    @Argument(help: ArgumentHelp("The shell: bash, zsh or fish.", valueName: "shell"))
    var shell: Shell

    enum Shell: String, ExpressibleByArgument, CaseIterable {
        case bash, zsh, fish
    }

    func run(in context: CommandContext) async throws {
        context.output.write(CompletionScripts.script(for: shell))
    }

    /// `momentum __complete WORDS…`, what the scripts call at each Tab: the candidates, one a line.
    static func answer(_ words: [String], context: CommandContext) async -> Int32 {
        let engine = CompletionEngine { kind, typed in await context.completionNames(kind, typed: typed) }
        switch await engine.complete(words.isEmpty ? [""] : words) {
        case .files: context.output.write(":files\n")
        case .directories: context.output.write(":directories\n")
        case .words(let words): context.output.write(words.map { $0 + "\n" }.joined())
        }
        return 0
    }
}

extension CommandContext {
    /// The names of `kind` in the data directory and for the person the typed words choose
    /// (`--data`, `--user`, else the environment's); none when there is no database there yet
    /// (completion never creates one) or the household is on PostgreSQL.
    ///
    /// Tab prints candidates only, into the shell's own line: anything that cannot be read offers
    /// none, and the command the person then runs reports why.
    func completionNames(_ kind: CompletionNames, typed: [String]) async -> [String] {
        func value(of option: String) -> String? { UsageErrors.value(of: option, in: typed) }
        // try?: no candidates is the answer when a name list cannot be read (see above).
        func names(_ read: () async throws -> [String]) async -> [String] { (try? await read()) ?? [] }
        guard value(of: "--database") == nil, (environment["MOMENTUM_DATABASE_URL"] ?? "").isEmpty,
            // try?: no data directory to be found: no candidates (see above).
            let directory = try? DataDirectory.resolve(
                explicit: value(of: "--data"), environment: environment, homeDirectory: homeDirectory),
            FileManager.default.fileExists(atPath: directory.appendingPathComponent(MomentumDatabase.fileName).path)
        else { return [] }
        let arguments = ["--data", directory.path] + (value(of: "--user").map { ["--user", $0] } ?? [])
        // try?: an unknown `--user` or a database that will not open: no candidates (see above).
        guard let common = try? CommonOptions.parse(arguments), let session = try? await openSession(common) else {
            return []
        }
        let services = session.services
        switch kind {
        case .timers:
            let own = await names { try await services.focusTimers.timers().map(\.name) }
            let shared = await names {
                try await session.household.timersShared(with: session.person).map(\.timer.name)
            }
            return own + shared
        case .savedSits: return await names { try await services.meditationPresets.presets().map(\.name) }
        case .breathingPresets:
            return await names { try await services.breathing.presets().map { $0.isBuiltIn ? $0.id : $0.name } }
        case .workoutPrograms:
            return await names { try await services.workouts.programs().map { $0.isBuiltIn ? $0.id : $0.name } }
        case .people: return await names { try await session.household.people().map(\.name) }
        }
    }
}

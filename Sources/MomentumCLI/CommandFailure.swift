import ArgumentParser
import MomentumCore
import MomentumServices

/// A command that cannot go on, with the one line the person reads.
public struct CommandFailure: Error, Equatable {
    public var message: String
    /// A second line that helps ("Did you mean “box”?"), if any.
    public var hint: String?
    /// How the command ends (``CommandExit``): most failures a command finds itself are about
    /// what was typed.
    var status: CommandExit
    init(_ message: String, hint: String? = nil, status: CommandExit = .usage) {
        self.message = message
        self.hint = hint
        self.status = status
    }
}

/// "Did you mean …?" for a mistyped subcommand, preset, program or setting key: the rule is the
/// core's ``NameSuggestion``; this finds the names to compare with.
enum DidYouMean {
    /// The hint for a command line the parser refused because of an unknown subcommand: the
    /// first word that names no subcommand where one was expected, compared with those there.
    static func subcommandHint(for arguments: [String], catalog: StringCatalog) -> String? {
        var node = CompletionNode.momentum
        var path = ["momentum"]
        for argument in arguments {
            if argument.hasPrefix("-") || node.subcommands.isEmpty { return nil }
            if let next = node.subcommand(named: argument) {
                node = next
                path.append(argument)
                continue
            }
            let known = Set(node.subcommands.map(\.name) + ["help"]).sorted()
            guard let closest = NameSuggestion.closest(to: argument, among: known) else { return nil }
            return catalog.format(.didYouMean, ["suggestion": (path + [closest]).joined(separator: " ")])
        }
        return nil
    }

    /// The hint for an error a command reported: an unknown preset, program or setting key.
    ///
    /// The names to suggest from are read only for the hint: when they cannot be read, the
    /// error itself is still reported, without a "did you mean".
    static func hint(for error: any Error, session: CommandContext.Session) async -> String? {
        let catalog = session.catalog
        let typed: String
        let names: [String]
        switch error {
        case let failure as CommandFailure:
            return failure.hint
        case BreathingServiceError.invalid(.unknownPreset(let name)):
            typed = name
            // try?: no names, no hint; the error is reported all the same.
            names = ((try? await session.services.breathing.presets()) ?? []).flatMap {
                [$0.id, $0.displayName(catalog)]
            }
        case MeditationPresetServiceError.invalid(.unknownPreset(let name)):
            typed = name
            // try?: no names, no hint; the error is reported all the same.
            names = ((try? await session.services.meditationPresets.presets()) ?? []).flatMap { [$0.id, $0.name] }
        case WorkoutServiceError.invalid(.unknownProgram(let name)):
            typed = name
            // try?: no names, no hint; the error is reported all the same.
            names = ((try? await session.services.workouts.programs()) ?? []).flatMap {
                [$0.id, $0.displayName(catalog)]
            }
        default:
            return nil
        }
        return NameSuggestion.closest(to: typed.trimmingCharacters(in: .whitespaces), among: names).map {
            catalog.format(.didYouMean, ["suggestion": $0])
        }
    }
}

extension ErrorMessages {
    /// The one line a command prints for any error: its own failures, typed errors, audio errors,
    /// and for anything else one general sentence (the detail goes to the debug log).
    static func commandMessage(for error: any Error, catalog: StringCatalog) -> String {
        if let failure = error as? CommandFailure { return failure.message }
        return message(describing: error, catalog: catalog) ?? audioMessage(for: error, catalog: catalog)
            ?? catalog[.errorUnexpected]
    }
}

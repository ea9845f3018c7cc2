import ArgumentParser
import Foundation

/// One command as tab completion sees it: its subcommands, options and positional arguments,
/// read from ArgumentParser's own description of the command tree (so a new option completes
/// without a list kept in step).
struct CompletionNode: Sendable, Equatable {
    var name: String
    var aliases: [String] = []
    var isShown = true
    /// The subcommand that runs when none is named (`meditate 20` is `meditate sit 20`).
    var defaultSubcommand: String?
    var subcommands: [CompletionNode] = []
    var options: [CompletionOption] = []
    var positionals: [CompletionPositional] = []

    func subcommand(named word: String) -> CompletionNode? {
        subcommands.first { $0.name == word || $0.aliases.contains(word) }
    }

    /// The default subcommand's node, when this command has one.
    var defaultNode: CompletionNode? { defaultSubcommand.flatMap { subcommand(named: $0) } }
}

/// An option: every spelling (`--output`, `-o`), whether a value follows, and what that value is.
struct CompletionOption: Sendable, Equatable {
    /// The long name without dashes (`ambient`), else the short one: what ``CompletionValues``
    /// looks up.
    var key: String
    var spellings: [String]
    var takesValue: Bool
    var isRepeating = false
    var isShown = true
    /// The values ArgumentParser knows (an enumeration's cases).
    var fixedValues: [String]?
    var wantsFile = false
    var wantsDirectory = false
}

/// A positional argument, by its value name (`name`, `file`, `saved-sit`).
struct CompletionPositional: Sendable, Equatable {
    var valueName: String
    var isRepeating = false
    var fixedValues: [String]?
    var wantsFile = false
}

extension CompletionNode {
    /// Momentum's whole command tree.
    static let momentum: CompletionNode = {
        let dump = Data(MomentumCommand._dumpHelp().utf8)
        // try?: ArgumentParser's dump of our own tree; EveryCommandErrorTests.everyCommandHasACase
        // walks the tree read from it, so a dump this cannot read fails it, and Tab then offers no words.
        guard let tool = try? JSONDecoder().decode(DumpedTool.self, from: dump) else {
            return CompletionNode(name: "momentum")
        }
        return CompletionNode(tool.command, type: MomentumCommand.self)
    }()

    /// `type`'s default subcommand comes from its configuration: the dump leaves some out.
    private init(_ command: DumpedCommand, type: (any ParsableCommand.Type)?) {
        name = command.commandName
        aliases = command.aliases ?? []
        isShown = command.shouldDisplay ?? true
        let configuration = type?.configuration
        defaultSubcommand = configuration?.defaultSubcommand?._commandName ?? command.defaultSubcommand
        let types = configuration?.subcommands ?? []
        subcommands = (command.subcommands ?? []).map { child in
            CompletionNode(child, type: types.first { $0._commandName == child.commandName })
        }
        for argument in command.arguments ?? [] {
            let completion = argument.completionKind.map { Set($0.keys) } ?? []
            let values = argument.allValues ?? argument.completionKind?["list"]?.values
            switch argument.kind {
            case "positional":
                positionals.append(
                    CompletionPositional(
                        valueName: argument.valueName ?? "", isRepeating: argument.isRepeating ?? false,
                        fixedValues: values, wantsFile: completion.contains("file")))
            default:
                let names = argument.names ?? []
                let spellings = names.map { ($0.kind == "short" ? "-" : "--") + $0.name }
                guard let key = (names.first { $0.kind != "short" } ?? names.first)?.name else { continue }
                options.append(
                    CompletionOption(
                        key: key, spellings: spellings, takesValue: argument.kind == "option",
                        isRepeating: argument.isRepeating ?? false, isShown: argument.shouldDisplay ?? true,
                        fixedValues: values, wantsFile: completion.contains("file"),
                        wantsDirectory: completion.contains("directory")))
            }
        }
    }
}

// ArgumentParser's JSON help dump (`--experimental-dump-help`), the parts completion needs.
private struct DumpedTool: Decodable {
    var command: DumpedCommand
}

private struct DumpedCommand: Decodable {
    var commandName: String
    var aliases: [String]?
    var shouldDisplay: Bool?
    var defaultSubcommand: String?
    var subcommands: [DumpedCommand]?
    var arguments: [DumpedArgument]?
}

private struct DumpedArgument: Decodable {
    struct Name: Decodable {
        var kind: String
        var name: String
    }
    struct CompletionDetail: Decodable { var values: [String]? }
    var kind: String
    var names: [Name]?
    var valueName: String?
    var isRepeating: Bool?
    var shouldDisplay: Bool?
    var allValues: [String]?
    var completionKind: [String: CompletionDetail]?
}

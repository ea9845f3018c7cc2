import ArgumentParser

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

        var completionShell: CompletionShell {
            switch self {
            case .bash: .bash
            case .zsh: .zsh
            case .fish: .fish
            }
        }
    }

    func run(in context: CommandContext) async throws {
        let script = MomentumCommand.completionScript(for: shell.completionShell)
        context.output.write(script.hasSuffix("\n") ? script : script + "\n")
    }
}

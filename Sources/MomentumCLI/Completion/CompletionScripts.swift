/// The shells' completion scripts: each hands the words typed so far to `momentum __complete`
/// and offers what it prints, one candidate a line — or the shell's own file or directory names
/// when it prints `:files` or `:directories`.
enum CompletionScripts {
    /// The hidden command the scripts call.
    static let command = "__complete"

    static func script(for shell: Completions.Shell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    static let bash = #"""
        # momentum tab completion for bash: `momentum __complete` answers from the program itself.
        _momentum() {
            local cur=${COMP_WORDS[COMP_CWORD]}
            local program=${COMP_WORDS[0]}
            [[ $program == "~/"* ]] && program=$HOME/${program#\~/}
            local answer line
            answer=$("$program" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return 0
            COMPREPLY=()
            case $answer in
            :files)
                compopt -o filenames 2>/dev/null
                while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen -f -- "$cur")
                ;;
            :directories)
                compopt -o filenames 2>/dev/null
                while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen -d -- "$cur")
                ;;
            *)
                while IFS= read -r line; do
                    [[ -n $line ]] && COMPREPLY+=("$(printf '%q' "$line")")
                done <<<"$answer"
                ;;
            esac
        }
        complete -F _momentum momentum

        """#

    static let zsh = #"""
        #compdef momentum
        # momentum tab completion for zsh: `momentum __complete` answers from the program itself.
        _momentum() {
            local -a answer
            answer=("${(@f)$(${~words[1]} __complete "${(@Q)words[2,CURRENT]}" 2>/dev/null)}")
            case $answer[1] in
            :files) _files ;;
            :directories) _files -/ ;;
            *) [[ -n $answer[1] ]] && compadd -- "${answer[@]}" ;;
            esac
        }
        if [[ $funcstack[1] == _momentum ]]; then
            _momentum "$@"
        else
            compdef _momentum momentum
        fi

        """#

    static let fish = #"""
        # momentum tab completion for fish: `momentum __complete` answers from the program itself.
        function __momentum_complete
            set -l typed (commandline -opc)
            set -l current (commandline -ct)
            set -l answer ($typed[1] __complete $typed[2..-1] "$current" 2>/dev/null)
            switch "$answer[1]"
                case :files
                    __fish_complete_path "$current"
                case :directories
                    __fish_complete_directories "$current"
                case '*'
                    printf '%s\n' $answer
            end
        end
        complete -c momentum -f -a '(__momentum_complete)'

        """#
}

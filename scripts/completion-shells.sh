#!/usr/bin/env bash
# Tab completion in bash, zsh and fish (issue 38): each shell loads the script `momentum
# completions SHELL` prints and completes `meditate --am`, `meditate --ambient `, `timer start `
# (the person's timers, one with a space in its name) and `import ` (files), with the real
# `momentum` answering on PATH. fish runs its own completion (`complete --do-complete`); bash and
# zsh call the completion function as the shell does at Tab, with the words and cursor set
# (zsh's `compadd`/`_files` print what they are given, as no terminal is there to show a menu).
# Usage: scripts/completion-shells.sh PATH/TO/momentum
set -euo pipefail
momentum=$(realpath "$1")
for shell in zsh fish; do
    command -v "$shell" >/dev/null || { apt-get update -qq && apt-get install -y -qq "$shell" >/dev/null; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/files"
ln -s "$momentum" "$work/bin/momentum"
export PATH="$work/bin:$PATH" MOMENTUM_HOME="$work/home" LANG=C.UTF-8
momentum timer add "Morning pages" 25 >/dev/null
momentum timer add Tea 5 >/dev/null
touch "$work/files/backup.json" "$work/files/log.csv"
cd "$work/files"
for shell in bash zsh fish; do momentum completions "$shell" >"$work/momentum.$shell"; done

complete_bash() { # words… (the last is the one being completed)
    bash -c 'source "$1"; shift; COMP_WORDS=(momentum "$@"); COMP_CWORD=$#; _momentum; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$work/momentum.bash" "$@"
}
complete_zsh() {
    zsh -f -c 'compadd() { [[ $1 == -- ]] && shift; print -l -- "$@"; }
        _files() { print -l -- *(N); }
        compdef() { :; }
        source "$1"; shift
        words=(momentum "$@"); CURRENT=$#words
        _momentum' _ "$work/momentum.zsh" "$@"
}
complete_fish() {
    local line="momentum"
    for word in "$@"; do line+=" $word"; done
    fish --no-config -c "source '$work/momentum.fish'; complete --do-complete '$line'" | cut -f1
}

failures=0
expect() { # shell, what must be offered, words…
    local shell=$1 wanted=$2; shift 2
    local offered
    offered=$("complete_$shell" "$@" 2>&1 || true)
    if grep -qxF -- "$wanted" <<<"$offered"; then
        echo "  ok   $shell: momentum $* <TAB> offers $wanted"
    else
        echo "  FAIL $shell: momentum $* <TAB> should offer $wanted; offered: $(tr '\n' ' ' <<<"$offered")"
        failures=$((failures + 1))
    fi
}
for shell in bash zsh fish; do
    echo "== $shell"
    expect "$shell" --ambient meditate --am
    expect "$shell" rain meditate --ambient ""
    expect "$shell" Tea timer start ""
    case $shell in
    # bash gets the name escaped, as it is inserted; zsh and fish escape it when inserting.
    bash) expect "$shell" 'Morning\ pages' timer start "" ;;
    *) expect "$shell" 'Morning pages' timer start "" ;;
    esac
    expect "$shell" backup.json import ""
    expect "$shell" log.csv import ""
done
[ "$failures" -eq 0 ] && echo "completion in bash, zsh and fish: ok" || { echo "completion: $failures failures"; exit 1; }

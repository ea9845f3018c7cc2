#!/usr/bin/env python3
"""Writes momentum.1, the man page, from the program's own help (issue 40).

The source is what `momentum --experimental-dump-help` prints (swift-argument-parser's
description of every command, argument and text), so the page says what `--help` says and is
never edited by hand. swift-argument-parser's own generate-manual plugin drops every character
outside ASCII ("1–600" became "1600") and leaves blank lines in its output, hence this script.

Usage: momentum --experimental-dump-help | manpage.py VERSION DATE > momentum.1
"""
import json
import sys


def roff(text: str) -> str:
    """Text for a roff text line: backslashes, minus signs and anything outside ASCII escaped."""
    out = []
    for character in text:
        if character == "\\":
            out.append("\\e")
        elif character == "-":
            out.append("\\-")  # a minus one can copy, not a typographic hyphen
        elif ord(character) > 127:
            out.append(f"\\[u{ord(character):04X}]")
        else:
            out.append(character)
    line = "".join(out)
    # A line starting with a dot or an apostrophe would be read as a request.
    return "\\&" + line if line[:1] in (".", "'") else line


def paragraphs(text: str) -> list[str]:
    """Lines of roff for help text: its blank lines become paragraph breaks."""
    lines = []
    for line in text.strip("\n").split("\n"):
        if line.strip():
            lines.append(roff(line))
        elif lines and lines[-1] != ".PP":
            lines.append(".PP")
    return lines


def discussion_text(discussion) -> str:
    """An argument's discussion: plain text, or a preamble with a list of values."""
    if isinstance(discussion, str):
        return discussion
    if isinstance(discussion, dict):
        if "staticText" in discussion:
            return discussion["staticText"]
        if "enumerated" in discussion:
            enumerated = discussion["enumerated"]
            values = [f"{v['value']}: {v['description']}" for v in enumerated.get("values", [])]
            return "\n".join([enumerated.get("preamble", "")] + values)
    return ""


def argument_label(argument: dict) -> str:
    value = f"\\fI<{roff(argument.get('valueName', ''))}>\\fR"
    if argument["kind"] == "positional":
        return value
    dashes = {"short": "-", "long": "--", "longWithSingleDash": "-"}
    names = ", ".join(f"\\fB{roff(dashes[n['kind']] + n['name'])}\\fR" for n in argument.get("names", []))
    return names if argument["kind"] == "flag" else f"{names} {value}"


def argument_lines(argument: dict) -> list[str]:
    lines = [".TP", argument_label(argument)]
    text = argument.get("abstract", "")
    if argument.get("allValues"):
        text += f" (values: {', '.join(argument['allValues'])})"
    if argument.get("defaultValue") is not None and argument["kind"] != "flag":
        text += f" (default: {argument['defaultValue']})"
    lines += paragraphs(text) if text.strip() else []
    discussion = discussion_text(argument.get("discussion"))
    if discussion.strip():
        lines += [".IP"] + paragraphs(discussion)
    return lines


def shown(items: list[dict], skip_names: tuple[str, ...] = ()) -> list[dict]:
    return [i for i in items if i.get("shouldDisplay", True) and i.get("commandName") not in skip_names]


def command_lines(command: dict, path: list[str]) -> list[str]:
    """A subsection for a command and, after it, one for each of its subcommands."""
    name = " ".join(path)
    lines = [f'.SS "{roff(name)}"']
    default = command.get("defaultSubcommand")
    if command.get("abstract"):
        lines += paragraphs(command["abstract"])
    if command.get("discussion"):
        lines += [".PP"] + paragraphs(command["discussion"])
    if default:
        lines += [".PP", roff(f"Without a subcommand: {name} {default}.")]
    # --help and --version are the same everywhere; the top of the page has them.
    arguments = [
        a for a in shown(command.get("arguments", []))
        if a.get("preferredName", {}).get("name") not in ("help", "version")
    ]
    for argument in arguments:
        lines += argument_lines(argument)
    for sub in shown(command.get("subcommands", []), ("help",)):
        lines += command_lines(sub, path + [sub["commandName"]])
    return lines


def main() -> None:
    version, date = sys.argv[1:3]
    root = json.load(sys.stdin)["command"]
    name = root["commandName"]
    subcommands = shown(root.get("subcommands", []), ("help",))
    lines = [
        '.\\" Made by packaging/manpage.py from `momentum --experimental-dump-help`; do not edit.',
        f'.TH {name.upper()} 1 "{date}" "{name} {version}" "User Commands"',
        ".nh",  # paths and commands are never split by hyphenation
        ".SH NAME",
        f"{name} \\- {roff(root.get('abstract', ''))}",
        ".SH SYNOPSIS",
        f"\\fB{name}\\fR \\fIsubcommand\\fR [\\fIoptions\\fR]",
        ".br",
        f"\\fB{name} \\-\\-version\\fR",
        ".br",
        f"\\fB{name}\\fR [\\fIsubcommand\\fR] \\fB\\-\\-help\\fR",
        ".SH DESCRIPTION",
    ]
    lines += paragraphs(root.get("abstract", ""))
    if root.get("discussion"):
        lines += [".PP"] + paragraphs(root["discussion"])
    lines += [".SH OPTIONS"]
    for argument in shown(root.get("arguments", [])):
        lines += argument_lines(argument)
    lines += [".SH COMMANDS"]
    for sub in subcommands:
        lines += [".TP", f"\\fB{roff(sub['commandName'])}\\fR"] + paragraphs(sub.get("abstract", ""))
    lines += [".PP", roff(f"Each command in full, as `{name} COMMAND --help` shows it:")]
    for sub in subcommands:
        lines += command_lines(sub, [name, sub["commandName"]])
    print("\n".join(lines))


if __name__ == "__main__":
    main()

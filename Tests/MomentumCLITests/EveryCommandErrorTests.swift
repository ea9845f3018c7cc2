import Foundation
import MomentumCore
import Testing

@testable import MomentumCLI

/// Every command, given bad input, in English and in German: one sentence of ours (a second line
/// only for "Did you mean …?"), no backticks, no type, framework or OS text, and the exit status
/// the README's rule gives it (``CommandExit``).
@Suite("Every command's bad input: one sentence of ours, in the person's language, the documented status")
struct EveryCommandErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var status: CommandExit
        var testDescription: String { arguments.joined(separator: " ") }
    }

    /// At least one case for each command the parser knows (a test below keeps it so).
    static let cases: [Case] = [
        Case(arguments: ["meditate", "sit", "10000000000"], status: .usage),
        Case(arguments: ["meditate", "0"], status: .usage),
        Case(arguments: ["meditate", "5", "--ambient", "thunder"], status: .usage),
        Case(arguments: ["meditate", "Nowhere"], status: .usage),
        Case(arguments: ["meditate", "presets", "list", "--bogus"], status: .usage),
        Case(arguments: ["meditate", "presets", "add", "Evening", "--minutes", "0"], status: .usage),
        Case(arguments: ["meditate", "presets", "edit", "Nowhere", "--minutes", "5"], status: .usage),
        Case(arguments: ["meditate", "presets", "rename", "Nowhere", "Else"], status: .usage),
        Case(arguments: ["meditate", "presets", "move", "Nowhere", "1"], status: .usage),
        Case(arguments: ["meditate", "presets", "move", "Nowhere", "first"], status: .usage),
        Case(arguments: ["meditate", "presets", "delete", "Nowhere", "--yes"], status: .usage),
        Case(arguments: ["breathe", "session", "nowhere"], status: .usage),
        Case(arguments: ["breathe", "box", "--rounds", "0"], status: .usage),
        Case(arguments: ["breathe", "box", "--rounds", "many"], status: .usage),
        Case(arguments: ["breathe", "presets", "list", "--bogus"], status: .usage),
        Case(arguments: ["breathe", "presets", "add", "Calm", "--pattern", "4-x"], status: .usage),
        Case(arguments: ["breathe", "presets", "edit", "Nowhere", "--rounds", "5"], status: .usage),
        Case(arguments: ["breathe", "presets", "rename", "Nowhere", "Else"], status: .usage),
        Case(arguments: ["breathe", "presets", "duplicate", "Nowhere"], status: .usage),
        Case(arguments: ["breathe", "presets", "delete", "Nowhere", "--yes"], status: .usage),
        Case(arguments: ["workout", "session", "nowhere"], status: .usage),
        Case(arguments: ["workout", "tabata", "--sets", "99999999999999999999999"], status: .usage),
        Case(arguments: ["workout", "programs", "list", "--bogus"], status: .usage),
        Case(arguments: ["workout", "programs", "add", "Legs", "--rounds", "0"], status: .usage),
        Case(arguments: ["workout", "programs", "edit", "Nowhere", "--rounds", "5"], status: .usage),
        Case(arguments: ["workout", "programs", "delete", "Nowhere", "--yes"], status: .usage),
        Case(arguments: ["timer", "add", "Tea\u{9}Time", "5"], status: .usage),
        Case(arguments: ["timer", "add", "Tea", "soon"], status: .usage),
        Case(arguments: ["timer", "list", "--bogus"], status: .usage),
        Case(arguments: ["timer", "show", "Nowhere"], status: .usage),
        Case(arguments: ["timer", "start", "Nowhere"], status: .usage),
        Case(arguments: ["timer", "pause", "Nowhere"], status: .usage),
        Case(arguments: ["timer", "resume", "Nowhere"], status: .usage),
        Case(arguments: ["timer", "reset", "Nowhere"], status: .usage),
        Case(arguments: ["timer", "complete", "Nowhere"], status: .usage),
        Case(arguments: ["timer", "check", "Nowhere", "1"], status: .usage),
        Case(arguments: ["timer", "uncheck", "Nowhere", "1"], status: .usage),
        Case(arguments: ["timer", "edit", "Nowhere", "--minutes", "5"], status: .usage),
        Case(arguments: ["timer", "move", "Nowhere", "1"], status: .usage),
        Case(arguments: ["timer", "delete", "Nowhere", "--yes"], status: .usage),
        Case(arguments: ["timer", "share", "Nowhere", "--with", "Ben"], status: .usage),
        Case(arguments: ["timer", "run", "Nowhere"], status: .usage),
        Case(arguments: ["log", "list", "--limit", "0"], status: .usage),
        Case(arguments: ["log", "--since", "2026-12-05", "--until", "2026-12-01"], status: .usage),
        Case(arguments: ["log", "add", "--minutes", "10", "--start", "2099-01-01 08:00"], status: .usage),
        Case(arguments: ["log", "add", "--minutes", "10", "--kind", "nap"], status: .usage),
        Case(arguments: ["log", "edit", "00000000", "--minutes", "5"], status: .usage),
        Case(arguments: ["log", "delete", "00000000", "--yes"], status: .usage),
        Case(arguments: ["streak", "--bogus"], status: .usage),
        Case(arguments: ["stats", "--week", "--month"], status: .usage),
        Case(arguments: ["calendar", "--month", "2026-13"], status: .usage),
        Case(arguments: ["chart", "streak"], status: .usage),
        Case(arguments: ["render", "meditation", "0", "-o", "-"], status: .usage),
        Case(
            arguments: ["render", "meditation", "5", "-o", "/nonexistent-folder/sit.wav"], status: .ioError
        ),
        Case(arguments: ["render", "breathing", "nowhere", "-o", "-"], status: .usage),
        Case(arguments: ["render", "workout", "nowhere", "-o", "-"], status: .usage),
        Case(arguments: ["render", "timer", "Nowhere", "-o", "-"], status: .usage),
        Case(arguments: ["morse", "learn", "receive", "--minutes", "0"], status: .usage),
        Case(arguments: ["morse", "learn", "send", "--minutes", "999"], status: .usage),
        Case(arguments: ["morse", "qso", "--call", "X"], status: .usage),
        Case(arguments: ["morse", "progress", "--bogus"], status: .usage),
        Case(arguments: ["morse", "settings", "--wpm", "99"], status: .usage),
        Case(arguments: ["morse", "render", "CQ"], status: .usage),
        Case(arguments: ["morse", "hands-free", "--content", "poems", "-o", "x.wav"], status: .usage),
        Case(arguments: ["library", "import", "/nonexistent-folder/talk.mp3"], status: .dataError),
        Case(arguments: ["library", "list", "--bogus"], status: .usage),
        Case(arguments: ["library", "show", "00000000"], status: .usage),
        Case(arguments: ["library", "edit", "00000000", "--name", "Talk"], status: .usage),
        Case(arguments: ["library", "delete", "00000000", "--yes"], status: .usage),
        Case(arguments: ["export", "-o", "/nonexistent-folder/backup.zip"], status: .ioError),
        Case(arguments: ["export", "--format", "pdf"], status: .usage),
        Case(arguments: ["import", "/nonexistent-folder/backup.zip"], status: .ioError),
        Case(arguments: ["import", "{{file}}"], status: .dataError),
        Case(arguments: ["settings", "show", "--bogus"], status: .usage),
        Case(arguments: ["settings", "set", "meditation.countdown", "soon"], status: .usage),
        Case(arguments: ["settings", "set", "no.such.key", "1"], status: .usage),
        Case(arguments: ["remind", "plan", "--days", "0"], status: .usage),
        Case(arguments: ["remind", "settings", "--quiet", "late"], status: .usage),
        Case(arguments: ["serve", "--port", "70000"], status: .usage),
        Case(arguments: ["user", "add", "Ben\u{7}"], status: .usage),
        Case(arguments: ["user", "list", "--bogus"], status: .usage),
        Case(arguments: ["user", "rename", "Nobody", "Else"], status: .usage),
        Case(arguments: ["user", "role", "Nobody", "owner"], status: .usage),
        Case(arguments: ["user", "pin", "Nobody", "1234"], status: .usage),
        Case(arguments: ["user", "remove", "Nobody", "--yes"], status: .usage),
        Case(arguments: ["pair", "--address", "not an address"], status: .usage),
        Case(arguments: ["token", "create", "--scope", "everything"], status: .usage),
        Case(arguments: ["token", "list", "--bogus"], status: .usage),
        Case(arguments: ["token", "revoke", "nothing-like-this"], status: .usage),
        Case(arguments: ["push", "list", "--bogus"], status: .usage),
        Case(arguments: ["push", "test", "--bogus"], status: .usage),
        Case(arguments: ["push", "remove", "nothing-like-this"], status: .usage),
        Case(arguments: ["track", "list", "--bogus"], status: .usage),
        Case(arguments: ["track", "add", "Tea", "--ask", "25:00"], status: .usage),
        Case(arguments: ["track", "add", "Tea", "--ask", "20:00", "--about", "tomorrow"], status: .usage),
        Case(arguments: ["track", "rename", "Nowhere", "Else"], status: .usage),
        Case(arguments: ["track", "change", "Nowhere", "--ask", "7:00"], status: .usage),
        Case(arguments: ["track", "delete", "Nowhere"], status: .usage),
        Case(arguments: ["track", "yes", "Nowhere"], status: .usage),
        Case(arguments: ["track", "no", "Nowhere", "--day", "yesterday-ish"], status: .usage),
        Case(arguments: ["track", "clear", "Nowhere"], status: .usage),
        Case(arguments: ["sync", "--server", "http://127.0.0.1:9"], status: .unavailable),
        Case(arguments: ["sync", "--server", "not a url"], status: .usage),
        Case(arguments: ["about", "--bogus"], status: .usage),
        Case(arguments: ["doctor", "--url", "not a url"], status: .usage),
        Case(arguments: ["completions", "tcsh"], status: .usage),
        Case(arguments: ["help", "nonexist"], status: .usage),
        Case(arguments: ["medtate", "5"], status: .usage),
        Case(arguments: ["meditate", "-5"], status: .usage),
    ]

    /// Text that is not ours: a type or framework name, an OS error, the parser's own words.
    static func foreign(_ text: String) -> Bool {
        text.firstMatch(
            of:
                /[A-Z][a-z]+[A-Z][A-Za-z]*(Error|Failure|Exception)|NSError|NSCocoa|NSPOSIX|NSURL|Domain=|Swift\.|ArgumentParser|GRDB|SQLite error|errno|Error:|Usage:|USAGE:|Help:|[^.]\.\.$|\(null\)|Optional\(/
        ) != nil
    }

    @Test func everyCommandHasACase() {
        var leaves: [String] = []
        func walk(_ node: CompletionNode, _ path: [String]) {
            if node.subcommands.isEmpty { leaves.append(path.joined(separator: " ")) }
            for child in node.subcommands where child.isShown { walk(child, path + [child.name]) }
        }
        walk(CompletionNode.momentum, [])
        let covered = Set(Self.cases.map { Self.commandPath($0.arguments) })
        #expect(leaves.count > 70)
        #expect(leaves.filter { !covered.contains($0) } == [])
    }

    /// The command a case runs, default subcommands named (`meditate 0` is `meditate sit`).
    static func commandPath(_ arguments: [String]) -> String {
        var node = CompletionNode.momentum
        var path: [String] = []
        var words = arguments[...]
        while !node.subcommands.isEmpty {
            if let word = words.first, let next = node.subcommand(named: word) {
                path.append(next.name)
                node = next
                words = words.dropFirst()
            } else if let next = node.defaultNode {
                path.append(next.name)
                node = next
            } else {
                break
            }
        }
        return path.joined(separator: " ")
    }

    @Test(arguments: cases)
    func badInputIsOneSentenceOfOursInBothLanguagesWithItsStatus(_ testCase: Case) async throws {
        var said: [Language: String] = [:]
        for language in Language.allCases {
            let terminal = try TestTerminal()
            let file = terminal.directory.file("not-a-backup.json")
            try Data("{\"format\":\"shopping-list\"}".utf8).write(to: file)
            let arguments = testCase.arguments.map { $0 == "{{file}}" ? file.path : $0 }
            let environment = ["LANG": language == .german ? "de_DE.UTF-8" : "en_GB.UTF-8"]
            let status = await terminal.run(arguments, environment: environment)
            let lines = terminal.errors.lines
            let shown = "\(language): \(lines)"
            #expect(status == testCase.status.rawValue, "\(shown)")
            #expect((1...2).contains(lines.count), "\(shown)")
            if lines.count == 2 {
                #expect(lines[1].contains("Did you mean") || lines[1].contains("Meintest du"), "\(shown)")
            }
            let first = lines.first ?? ""
            #expect(first.hasPrefix("momentum: "), "\(shown)")
            #expect(!first.contains("`"), "\(shown)")
            #expect(!Self.foreign(first), "\(shown)")
            #expect(first.last.map { ".?!)”“".contains($0) } == true, "ends as a sentence: \(shown)")
            said[language] = first
        }
        #expect(said[.english] != said[.german], "the German is German: \(said)")
    }
}

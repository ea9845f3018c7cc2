import Foundation
import MomentumCore
import MomentumStoreContract
import MomentumTestSupport
import Testing

@testable import MomentumCLI

/// Issue 38: `docs/json.md` is checked against what each `--json` command really prints — every
/// field a command prints, at any depth, is named in its row of the table, so the page cannot
/// drift from the output again.
@Suite("docs/json.md names every field each --json command prints")
struct JSONDocsTests {
    /// The table of docs/json.md: each command's row → the `names` written in backticks.
    static func documented() throws -> [String: Set<String>] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/json.md"), encoding: .utf8)
        var rows: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 3 else { continue }
            let command = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            rows[command] = Set(Self.names(in: cells[2...].joined(separator: "|")))
        }
        return rows
    }

    /// Every word in the text that could be a field name: backticked names, and the names inside
    /// backticked or braced shapes (`{hidden, jokersEnabled, …}`).
    static func names(in text: String) -> [String] {
        var names: [String] = []
        var word = ""
        for character in text + " " {
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
            } else {
                if let first = word.first, first.isLetter { names.append(word) }
                word = ""
            }
        }
        return names
    }

    /// Objects whose keys are data, not fields: a record's details, a day's minutes by category.
    static let keyedByData: Set<String> = [
        "details", "minutes", "fill", "streak", "byCategory", "byKind", "added", "kept", "renamed", "counts",
        "arguments",
    ]

    /// The fields a JSON document prints, at every depth: the keys of every object in it (the
    /// elements of lists included), except inside objects keyed by data.
    static func fields(_ text: String) throws -> Set<String> {
        func keys(_ value: Any) -> Set<String> {
            if let list = value as? [Any] { return list.reduce(into: []) { $0.formUnion(keys($1)) } }
            guard let object = value as? [String: Any] else { return [] }
            var found = Set(object.keys)
            for (key, inner) in object where !keyedByData.contains(key) { found.formUnion(keys(inner)) }
            return found
        }
        return keys(try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]))
    }

    @Test func everyFieldPrintedIsNamedInItsRow() async throws {
        let rows = try Self.documented()
        let terminal = try TestTerminal()
        // Something of everything, so listings are not empty.
        for setup in [
            ["log", "add", "--minutes", "20", "--note", "hello"], ["timer", "add", "Tea", "3", "--item", "kettle"],
            ["meditate", "presets", "add", "Evening", "20"], ["token", "create", "--name", "phone"],
            ["remind", "settings", "--add-daily", "07:30 all mindfulness"],
        ] {
            _ = await terminal.run(setup)
        }
        let csv = terminal.directory.file("log.csv")
        try Data(
            """
            id,kind,start,end,counted_seconds,energy_kcal,details,device
            ,meditation,2026-01-10T07:00:00Z,2026-01-10T07:20:00Z,1200,,,

            """.utf8
        ).write(to: csv)
        _ = await terminal.run(["library", "import", SharedAudioFixtures.url("id3v24-utf8.mp3").path])
        let library = try TestTerminal(sharing: terminal)
        _ = await library.run(["library", "list", "--json"])
        let item = try #require(
            ((try JSONSerialization.jsonObject(with: Data(library.output.text.utf8)) as? [String: Any])?["groups"]
                as? [[String: Any]])?.first?["items"] as? [[String: Any]])
        let itemID = try #require(item.first?["id"] as? String)
        let backup = terminal.directory.file("backup.json")
        _ = await terminal.run(["export", "-o", backup.path])
        let commands: [(row: String, arguments: [String])] = [
            ("log --json", ["log", "--json"]),
            ("streak --json", ["streak", "--json"]),
            ("calendar --json", ["calendar", "--json"]),
            ("calendar --year Y --json", ["calendar", "--year", "2027", "--json"]),
            ("chart … --json", ["chart", "minutes", "--json"]),
            ("timer list --json", ["timer", "list", "--json"]),
            ("timer show NAME --json", ["timer", "show", "Tea", "--json"]),
            ("breathe presets --json", ["breathe", "presets", "--json"]),
            ("meditate presets list --json", ["meditate", "presets", "list", "--json"]),
            ("workout programs --json", ["workout", "programs", "--json"]),
            ("about --json", ["about", "--json"]),
            ("morse settings --json", ["morse", "settings", "--json"]),
            ("remind --json", ["remind", "--json"]),
            ("remind settings --json", ["remind", "settings", "--json"]),
            ("sync --status --json", ["sync", "--status", "--json"]),
            ("token list --json", ["token", "list", "--json"]),
            ("stats --json", ["stats", "--json"]),
            ("morse progress --json", ["morse", "progress", "--json"]),
            ("library list --json", ["library", "list", "--json"]),
            ("library show ID --json", ["library", "show", itemID, "--json"]),
            ("meditate … --plan", ["meditate", "5", "--interval", "2", "--ambient", "rain", "--plan"]),
            ("meditate … --plan", ["meditate", "--open", "--interval", "5", "--plan"]),
            ("meditate … --plan", ["breathe", "box", "--plan"]),
            ("meditate … --plan", ["workout", "tabata", "--plan"]),
            ("meditate … --plan", ["timer", "run", "Tea", "--plan"]),
            ("import FILE --json", ["import", csv.path, "--json"]),
            ("import FILE --json", ["import", backup.path, "--json", "--dry-run"]),
        ]
        for (row, arguments) in commands {
            let documented = try #require(rows[row], "docs/json.md has no row for \(row)")
            let run = try TestTerminal(sharing: terminal)
            #expect(await run.run(arguments) == 0, "\(arguments): \(run.errors.text)")
            #expect(!run.output.text.isEmpty, "\(arguments) printed nothing")
            let printed = try Self.fields(run.output.text)
            #expect(!printed.isEmpty, "\(arguments) printed no fields")
            let missing = printed.subtracting(documented).sorted()
            #expect(missing.isEmpty, "docs/json.md's row for \(row) does not name \(missing)")
        }
        // `settings --json` is keyed by the settings themselves.
        #expect(rows["settings --json"] != nil)
        let settings = try TestTerminal(sharing: terminal)
        #expect(await settings.run(["settings", "--json"]) == 0)
        let keys = try Self.fields(settings.output.text)
        #expect(!keys.isEmpty && keys.isSubset(of: Set(SettingKey.allCases.map(\.rawValue))), "\(keys)")
    }
}

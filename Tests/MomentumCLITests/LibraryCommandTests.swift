import Foundation
import MomentumCore
import MomentumTestSupport
import Testing

@testable import MomentumCLI

@Suite("momentum library")
struct LibraryCommandTests {
    func fixture(_ name: String) -> String { SharedAudioFixtures.url(name).path }

    /// The library as `library list --json` prints it.
    func list(_ terminal: TestTerminal) async throws -> LibraryListJSON {
        let listing = try TestTerminal(sharing: terminal)
        #expect(await listing.run(["library", "list", "--json"]) == 0)
        return try JSONDecoder().decode(LibraryListJSON.self, from: Data(listing.output.text.utf8))
    }

    @Test func importingTheFixturesReportsEachAndASummaryAndFailsForTheBadOnes() async throws {
        let terminal = try TestTerminal()
        let entries = SharedAudioFixtures.entries
        #expect(entries.count >= 10)
        let status = await terminal.run(["library", "import"] + entries.map { fixture($0.file) })
        #expect(status == 65)
        let good = entries.filter { !$0.isRejected }
        let bad = entries.filter(\.isRejected)
        #expect(terminal.output.lines.count == good.count + 1)
        #expect(terminal.output.lines.contains { $0.hasPrefix("Imported “Body Scan” by Mara Lindqvist (00:03) as ") })
        #expect(terminal.output.lines.last == "imported \(good.count), skipped 0, failed \(bad.count)")
        #expect(terminal.errors.lines.count == bad.count)
        for entry in bad {
            #expect(terminal.errors.lines.contains { $0.hasPrefix("momentum: failed: “\(entry.file)”") })
        }
        // Every good fixture is listed with its teacher, name and duration as the manifest says.
        let library = try await list(terminal)
        #expect(library.count == good.count)
        let items = library.groups.flatMap(\.items)
        for entry in good {
            let item = try #require(items.first { $0.originalFileName == entry.file })
            #expect(item.teacher == entry.artist)
            #expect(item.name == entry.title ?? String(entry.file.dropLast(4)))
            #expect(item.album == entry.album)
            #expect(abs(Double(item.durationMs) / 1000 - (entry.duration ?? 0)) <= 0.1)
        }
        #expect(library.groups.last?.teacher == nil)
        #expect(library.groups.last?.teacherLabel == "Unknown teacher")
    }

    @Test func theSameFileTwiceIsSkippedWithItsReason() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["library", "import", fixture("tagged.m4a"), fixture("tagged.m4a")])
        #expect(status == 0)
        #expect(terminal.output.lines.last == "imported 1, skipped 1, failed 0")
        #expect(terminal.errors.lines.count == 1)
        #expect(
            terminal.errors.lines.first?.hasPrefix("skipped: “tagged.m4a” is already in the library as “Morning Sit” (")
                == true)
    }

    @Test func theListIsGroupedByTeacherInGerman() async throws {
        let terminal = try TestTerminal()
        let files = ["id3v23-latin1.mp3", "id3v24-utf8.mp3", "vbr-xing.mp3", "no-tags.mp3"].map(fixture)
        #expect(await terminal.run(["library", "import"] + files) == 0)
        let listing = try TestTerminal(sharing: terminal)
        #expect(await listing.run(["library", "list", "--lang", "de"], environment: ["LANG": "de_DE.UTF-8"]) == 0)
        let lines = listing.output.lines
        #expect(lines.count == 7)
        #expect(lines[0] == "Jürgen Weiß")
        #expect(lines[1].contains("Atemraum – Ankommen"))
        #expect(lines[2] == "Mara Lindqvist")
        #expect(lines[3].contains("Body Scan") && lines[4].contains("Walking Practice"))
        #expect(lines[5] == "Unbekannte Lehrperson")
        #expect(lines[6].contains("no-tags"))
    }

    @Test func editShowAndDeleteAnItemByAPrefixOfItsID() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["library", "import", fixture("id3v23-latin1.mp3")]) == 0)
        let id = try #require(try await list(terminal).groups.first?.items.first?.id)
        let prefix = String(id.prefix(6))

        let edit = try TestTerminal(sharing: terminal)
        #expect(
            await edit.run(["library", "edit", prefix, "--teacher", "Mara L.", "--name", "Evening", "--ambient", "on"])
                == 0)
        #expect(edit.output.lines == ["Saved \(id.prefix(8)): Mara L. – “Evening”."])

        let show = try TestTerminal(sharing: terminal)
        #expect(await show.run(["library", "show", prefix]) == 0)
        #expect(show.output.lines.contains { $0.hasPrefix("Name") && $0.hasSuffix("Evening (original: Body Scan)") })
        #expect(show.output.lines.contains { $0.hasPrefix("Ambient bed") && $0.hasSuffix("yes") })

        let json = try TestTerminal(sharing: terminal)
        #expect(await json.run(["library", "show", prefix, "--json"]) == 0)
        let item = try JSONDecoder().decode(LibraryItemJSON.self, from: Data(json.output.text.utf8))
        #expect(item.teacher == "Mara L." && item.originalTeacher == "Mara Lindqvist" && item.isAmbientBed)

        let clear = try TestTerminal(sharing: terminal)
        #expect(await clear.run(["library", "edit", prefix, "--clear-teacher", "--name", ""]) == 0)
        #expect(clear.output.lines == ["Saved \(id.prefix(8)): Mara Lindqvist – “Body Scan”."])

        let delete = try TestTerminal(sharing: terminal)
        #expect(await delete.run(["library", "delete", prefix]) == 0)
        #expect(delete.output.lines == ["Deleted “Body Scan” (\(id.prefix(8))) and its file."])
        #expect(try await list(terminal).count == 0)
        let folder = terminal.directory.url.appendingPathComponent("library")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func badEditsAreClearErrorsAndChangeNothing() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["library", "import", fixture("tagged.m4a")]) == 0)
        let id = try #require(try await list(terminal).groups.first?.items.first?.id)
        let cases: [([String], String)] = [
            (
                ["--teacher", String(repeating: "x", count: 10_000)],
                "momentum: The teacher is 10000 characters long; at most 200 are allowed. Nothing was changed."
            ),
            (
                ["--name", "two\nlines"],
                "momentum: The name must not contain line breaks, tabs or other control characters. Nothing was changed."
            ),
            ([], "momentum: Say what to change: --teacher, --name, --clear-teacher, --clear-name or --ambient."),
            (["--teacher", "A", "--clear-teacher"], "momentum: Give --teacher or --clear-teacher, not both."),
        ]
        for (options, message) in cases {
            let edit = try TestTerminal(sharing: terminal)
            #expect(await edit.run(["library", "edit", id] + options) == 64)
            #expect(edit.errors.lines == [message])
        }
        let unknown = try TestTerminal(sharing: terminal)
        #expect(await unknown.run(["library", "show", "ffffffff"]) == 64)
        #expect(
            unknown.errors.lines == ["momentum: There is no library item “ffffffff”; momentum library list lists them."]
        )
        let item = try #require(try await list(terminal).groups.first?.items.first)
        #expect(item.teacher == "Aiko Tanaka" && item.name == "Morning Sit" && item.editedName == nil)
    }

    @Test func anEmptyLibrarySaysHowToFillIt() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["library", "list"]) == 0)
        #expect(
            terminal.output.lines == [
                "The library is empty. Add guided meditations with: momentum library import FILE…"
            ])
    }

    @Test func theSortLocaleComesFromTheEnvironment() {
        #expect(LibraryCommand.locale(environment: ["LANG": "sv_SE.UTF-8"], language: .english).identifier == "sv_SE")
        #expect(
            LibraryCommand.locale(environment: ["LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE"], language: .english)
                .identifier == "fr_FR")
        #expect(LibraryCommand.locale(environment: ["LANG": "C"], language: .german).identifier == "de_DE")
        // With no collation in the environment, the language's one locale (``Language/locale``).
        #expect(LibraryCommand.locale(environment: [:], language: .english).identifier == "en_GB")
    }
}

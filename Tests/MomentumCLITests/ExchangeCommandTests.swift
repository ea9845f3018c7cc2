import Foundation
import MomentumCore
import Testing

@testable import MomentumCLI

@Suite("momentum export and momentum import")
struct ExchangeCommandTests {
    @Test func exportToAFileThenImportElsewhereRestoresTheSameLog() async throws {
        let source = try TestTerminal()
        #expect(await source.run(["log", "add", "--minutes", "20", "--start", "2027-01-14 07:30"]) == 0)
        #expect(await source.run(["log", "add", "--kind", "workout", "--minutes", "15", "--kcal", "90"]) == 0)
        let backup = source.directory.file("backup.json").path
        let export = try TestTerminal(sharing: source)
        #expect(await export.run(["export", "-o", backup]) == 0)
        #expect(export.output.lines == ["Wrote a backup to \(backup) — practice log: 2."])

        let target = try TestTerminal()
        #expect(await target.run(["import", backup, "--dry-run"]) == 0)
        #expect(
            target.output.lines == [
                "\(backup) holds practice log: 2.",
                "Restoring would add practice log: 2, and keep what is already here: nothing. Nothing was changed.",
            ])
        let real = try TestTerminal(sharing: target)
        #expect(await real.run(["import", backup]) == 0)
        #expect(real.output.lines.last == "Restored. Added practice log: 2. Kept, as they were already here: nothing.")
        let again = try TestTerminal(sharing: target)
        #expect(await again.run(["import", backup, "--json"]) == 0)
        #expect(again.output.text.contains("\"practiceLog\" : 2"))

        let first = try TestTerminal(sharing: source)
        let second = try TestTerminal(sharing: target)
        #expect(await first.run(["export", "--format", "csv"]) == 0)
        #expect(await second.run(["export", "--format", "csv"]) == 0)
        #expect(first.output.text == second.output.text)
        #expect(first.output.text.hasPrefix("id,kind,start,end,counted_seconds,energy_kcal,details,device\r\n"))
    }

    @Test func anArchiveRoundTripsAndATruncatedOneIsRefusedInTheTerminal() async throws {
        let source = try TestTerminal()
        #expect(await source.run(["breathe", "presets", "add", "Evening calm", "--pattern", "4-2-6-0"]) == 0)
        #expect(await source.run(["timer", "add", "Tea", "3m", "--item", "cup"]) == 0)
        let archive = source.directory.file("backup.zip")
        let export = try TestTerminal(sharing: source)
        #expect(await export.run(["export", "-o", archive.path]) == 0)
        #expect(
            export.output.lines == [
                "Wrote a backup to \(archive.path) — breathing presets: 1, focus timers: 1, checklist items: 1."
            ])

        let truncated = source.directory.file("truncated.zip")
        try Data(try Data(contentsOf: archive).prefix(200)).write(to: truncated)
        let refused = try TestTerminal()
        #expect(await refused.run(["import", truncated.path]) == 65)
        #expect(
            refused.errors.text.contains(
                "\(truncated.path) is damaged or incomplete (a ZIP archive that does not read to its end). Nothing was changed."
            ))

        let target = try TestTerminal()
        #expect(await target.run(["import", archive.path]) == 0)
        let listing = try TestTerminal(sharing: target)
        #expect(await listing.run(["timer", "list", "--json"]) == 0)
        let original = try TestTerminal(sharing: source)
        #expect(await original.run(["timer", "list", "--json"]) == 0)
        #expect(listing.output.text == original.output.text)

        let noFile = try TestTerminal(sharing: source)
        #expect(await noFile.run(["export", "--format", "archive"]) == 64)
        #expect(noFile.errors.text.contains("A ZIP archive is written to a file: add -o FILE.zip."))
    }

    @Test func aFileWithBadRowsNamesEachAndImportsNothing() async throws {
        let terminal = try TestTerminal()
        let file = terminal.directory.file("log.csv")
        try """
        id,kind,start,end,counted_seconds,energy_kcal,details,device
        ,meditation,2027-01-10T07:00:00Z,2027-01-10T07:20:00Z,1200,,,
        ,yoga,2027-01-11T07:00:00Z,2027-01-11T07:20:00Z,1200,,,
        ,meditation,2027-02-29T07:00:00Z,2027-02-29T07:20:00Z,1200,,,

        """.write(to: file, atomically: true, encoding: .utf8)
        #expect(await terminal.run(["import", file.path]) == 65)
        #expect(
            terminal.errors.lines == [
                "momentum: \(file.path): 2 rows cannot be imported, so nothing was imported:",
                "  line 3, kind: “yoga” is not a kind of practice (meditation, guided, breathing, workout, morse, focus)",
                "  line 4, start: “2027-02-29T07:00:00Z” is not a date and time that exists (like 2027-01-15T09:00:00+01:00)",
                "  line 4, end: “2027-02-29T07:20:00Z” is not a date and time that exists (like 2027-01-15T09:00:00+01:00)",
            ])
        let log = try TestTerminal(sharing: terminal)
        #expect(await log.run(["log"]) == 0)
        #expect(log.output.lines == ["No sessions yet. Start one with: momentum meditate 10"])
    }

    @Test func wrongColumnsAndUnknownFormatsAreRefusedInTheChosenLanguage() async throws {
        let terminal = try TestTerminal()
        let file = terminal.directory.file("other.csv")
        try "date,minutes\n2027-01-01,20\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(await terminal.run(["import", file.path, "--lang", "de"]) == 65)
        #expect(terminal.errors.text.hasPrefix("momentum: \(file.path) hat die Spalten „date,minutes“"))
        let format = try TestTerminal(sharing: terminal)
        #expect(await format.run(["export", "--format", "xml"]) == 64)
    }
}

import Foundation
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumCLI

@Suite("Bad input: one clear line, a non-zero status, nothing changed")
struct BadInputTests {
    @Test(arguments: [
        (["meditate", "0"], "A sit must last at least 1 second."),
        (["meditate", "-5"], "“-5” is negative; Momentum's times and counts are never below zero."),
        (["meditate", "601"], "A sit can last at most 10 hours (600 minutes)."),
        (["meditate", "abc"], "“abc” is not a number of minutes."),
        (["meditate", "--interval", "0"], "Interval gongs need at least 1 minute between them."),
        (
            ["meditate", "--interval", "5,x"],
            "“5,x” is not an interval: give minutes (5) or a list of minutes (25,30,55)."
        ),
        (["meditate", "--countdown", "99"], "The countdown can be at most 60 seconds."),
        (
            ["meditate", "--ambient", "thunder"],
            "There is no ambient sound “thunder”. Choose one of: silent, rain, ocean, stream, brown."
        ),
        (["meditate", "--volume", "loud"], "“loud” is not a number of 0–1."),
        (["meditate", "5", "--open"], "5 and --open cannot be used together."),
        (["meditate", "--lang", "fr"], "“fr” is not a language Momentum speaks: use en or de."),
        (["meditate", "--bogus"], "There is no option --bogus here; add --help to see the options."),
        (
            ["log", "--kind", "nap"],
            "“nap” is not a kind of practice: use meditation, guided, breathing, workout, morse, focus."
        ),
        (["log", "--since", "2026-02-30"], "“2026-02-30” is not a date: use YYYY-MM-DD."),
        (
            ["settings", "set", "meditation.countdown", "soon"],
            "“soon” is not a valid value for meditation.countdown (seconds, 0–60)."
        ),
        // Issue 22.6: what should not be stored.
        (
            ["log", "add", "--minutes", "10", "--start", "2027-01-16 09:01"],
            "The start (2027-01-16T08:01:00Z) is too late: the latest accepted instant is 2027-01-16T08:00:00Z."
        ),
        (
            ["log", "add", "--kind", "workout", "--minutes", "10", "--kcal", "10001"],
            "Energy must be between 0 and 10000 kcal."
        ),
        (
            ["breathe", "presets", "add", String(repeating: "n", count: 101)],
            "A name can be at most 100 characters; shorten it."
        ),
        (
            ["workout", "programs", "add", String(repeating: "n", count: 101)],
            "A name can be at most 100 characters; shorten it."
        ),
        (
            ["meditate", "12", "--interval", "12"],
            "An interval gong at 12 min would sound at or after the end of the 12 min sit; "
                + "choose gongs within the sit, or turn them off."
        ),
        (
            ["timer", "add", "Read", "5", "--icon", "rocket"],
            "“rocket” is not an icon name. Choose one of: " + FocusTimer.icons.joined(separator: ", ") + "."
        ),
        (
            ["log", "--data", ""],
            "--data needs a directory; an empty path is not the default directory (leave --data out for that)."
        ),
    ])
    func badArgumentsGiveOneLineAndChangeNothing(arguments: [String], message: String) async throws {
        let terminal = try TestTerminal()
        _ = await terminal.run(["settings", "set", "meditation.duration", "12"])
        let database = try MomentumDatabase.open(directory: terminal.directory.url)
        let before = try database.settingValues()

        let status = await terminal.run(arguments)

        #expect(status != 0)
        #expect(terminal.errors.lines == ["momentum: " + message])
        #expect(try database.settingValues() == before)
        #expect(try database.practiceRecords().isEmpty)
    }

    @Test func aDataDirectoryThatCannotBeCreatedIsNamed() async throws {
        let terminal = try TestTerminal()
        let blocker = terminal.directory.file("plain-file")
        _ = FileManager.default.createFile(atPath: blocker.path, contents: Data("x".utf8))
        let context = terminal
        let status = await context.run(["meditate", "--plan", "--data", blocker.appendingPathComponent("data").path])
        #expect(status == 74)
        #expect(
            terminal.errors.lines == [
                "momentum: The data directory \(blocker.path)/data cannot be used: it cannot be created"
            ])
    }

    @Test func aDatabaseFileThatIsNotSQLiteIsNamedAndLeftAlone() async throws {
        let terminal = try TestTerminal()
        let file = terminal.directory.file(MomentumDatabase.fileName)
        let contents = Data("my shopping list\n".utf8)
        _ = FileManager.default.createFile(atPath: file.path, contents: contents)
        let status = await terminal.run(["meditate", "10"])
        #expect(status == 65)
        #expect(
            terminal.errors.lines == [
                "momentum: \(file.path) is not a Momentum database (not an SQLite file); it was left untouched."
            ])
        #expect(FileManager.default.contents(atPath: file.path) == contents)
    }

    @Test func errorsSpeakGermanWhenTheEnvironmentDoes() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["meditate", "601"], environment: ["LANG": "de_DE.UTF-8"])
        #expect(status == 64)
        #expect(terminal.errors.lines == ["momentum: Eine Sitzung kann höchstens 10 Stunden (600 Minuten) dauern."])
    }

    @Test func helpAndVersionGoToStandardOutputAndSucceed() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["meditate", "--help"]) == 0)
        #expect(terminal.output.text.contains("--interval <minutes>"))
        #expect(terminal.errors.text.isEmpty)
        let version = try TestTerminal()
        #expect(await version.run(["--version"]) == 0)
        #expect(version.output.text == MomentumCommand.version + "\n")
    }
}

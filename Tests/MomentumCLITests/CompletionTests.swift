import Foundation
import Testing

@testable import MomentumCLI

/// Tab completion from the program's own knowledge (issue 38). The shells themselves are driven
/// by scripts/completion-shells.sh.
@Suite("Tab completion")
struct CompletionTests {
    private let engine = CompletionEngine { kind, _ in
        switch kind {
        case .timers: ["Morning pages", "Tea"]
        case .savedSits: ["Zazen"]
        case .breathingPresets: ["box", "Evening"]
        case .workoutPrograms: ["tabata"]
        case .people: ["Ada", "Ben"]
        }
    }

    private func words(_ typed: [String]) async -> [String] {
        guard case .words(let words) = await engine.complete(typed) else { return [] }
        return words
    }

    @Test func aDefaultSubcommandsOptionsCompleteOnItsGroup() async {
        await #expect(words(["meditate", "--am"]) == ["--ambient"])
        await #expect(words(["meditate", "20", "--re"]) == ["--reflection"])
        await #expect(words(["breathe", "--pat"]) == ["--pattern"])
        await #expect(words(["log", "--li"]) == ["--limit"])
        // An option already given is not offered again.
        await #expect(!words(["meditate", "--ambient", "rain", "--"]).contains("--ambient"))
        await #expect(words(["meditate", "--ambient", "rain", "--"]).contains("--volume"))
    }

    @Test func optionValuesComeFromTheCoresLists() async {
        await #expect(words(["meditate", "--ambient", ""]) == ["silent", "rain", "ocean", "stream", "brown"])
        await #expect(words(["meditate", "--ambient", "r"]) == ["rain"])
        await #expect(words(["log", "--kind", "b"]) == ["breathing"])
        await #expect(words(["stats", "--lang", ""]) == ["en", "de"])
        await #expect(
            words(["morse", "qso", "--style", ""]) == ["first-contact", "signal-report", "contest", "rag-chew"])
        await #expect(words(["settings", "set", "progress."]).contains("progress.day-start"))
        await #expect(words(["log", "--user", ""]) == ["Ada", "Ben"])
    }

    @Test func namesComeFromTheDataDirectory() async {
        await #expect(words(["timer", "start", ""]) == ["Morning pages", "Tea"])
        await #expect(words(["timer", "run", "T"]) == ["Tea"])
        await #expect(words(["render", "timer", ""]) == ["Morning pages", "Tea"])
        await #expect(words(["meditate", "Z"]) == ["Zazen"])
        await #expect(words(["meditate", ""]) == ["sit", "presets", "Zazen"])
        await #expect(words(["meditate", "presets", "delete", ""]) == ["Zazen"])
        await #expect(words(["breathe", "E"]) == ["Evening"])
        await #expect(words(["workout", "programs", "delete", ""]) == ["tabata"])
        await #expect(words(["user", "pin", ""]) == ["Ada", "Ben"])
        // A new name has nothing to complete.
        await #expect(words(["timer", "add", ""]).isEmpty)
    }

    @Test func filesWhereAFileGoes() async {
        await #expect(engine.complete(["import", ""]) == .files)
        await #expect(engine.complete(["library", "import", "a"]) == .files)
        await #expect(engine.complete(["export", "-o", ""]) == .files)
        await #expect(engine.complete(["chart", "streak", "--output", ""]) == .files)
        await #expect(engine.complete(["log", "--data", ""]) == .directories)
    }

    @Test func subcommandsAndTheRoot() async {
        await #expect(words(["ti"]) == ["timer"])
        await #expect(words(["timer", "st"]) == ["start"])
        await #expect(words(["-"]) == ["--version", "--help"])
        await #expect(!words([""]).contains("__complete"))
    }

    @Test func theHiddenCommandAnswersFromTheRealDataDirectory() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["timer", "add", "Morning pages", "25"]) == 0)
        #expect(await terminal.run(["meditate", "presets", "add", "Zazen", "40"]) == 0)
        let data = terminal.directory.url.path
        for (typed, expected) in [
            (["timer", "start", "--data", data, ""], ["Morning pages"]),
            (["meditate", "--data", data, "Z"], ["Zazen"]),
            (["import", ""], [":files"]),
            // No database there: nothing, and none is made.
            (["timer", "start", "--data", data + "/nothing", ""], []),
        ] {
            let completion = try TestTerminal(sharing: terminal)
            #expect(await completion.run(["__complete"] + typed, addingData: false) == 0)
            #expect(completion.output.text == expected.map { $0 + "\n" }.joined(), "\(typed)")
        }
        #expect(!FileManager.default.fileExists(atPath: data + "/nothing"))
    }

    @Test func everyShellsScriptAsksTheProgram() async throws {
        for shell in ["bash", "zsh", "fish"] {
            let terminal = try TestTerminal()
            #expect(await terminal.run(["completions", shell], addingData: false) == 0)
            #expect(terminal.output.text.contains("__complete"), "\(shell)")
        }
    }
}

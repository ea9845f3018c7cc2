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

    private func words(_ typed: [String]) -> [String] {
        guard case .words(let words) = engine.complete(typed) else { return [] }
        return words
    }

    @Test func aDefaultSubcommandsOptionsCompleteOnItsGroup() {
        #expect(words(["meditate", "--am"]) == ["--ambient"])
        #expect(words(["meditate", "20", "--re"]) == ["--reflection"])
        #expect(words(["breathe", "--pat"]) == ["--pattern"])
        #expect(words(["log", "--li"]) == ["--limit"])
        // An option already given is not offered again.
        #expect(!words(["meditate", "--ambient", "rain", "--"]).contains("--ambient"))
        #expect(words(["meditate", "--ambient", "rain", "--"]).contains("--volume"))
    }

    @Test func optionValuesComeFromTheCoresLists() {
        #expect(words(["meditate", "--ambient", ""]) == ["silent", "rain", "ocean", "stream", "brown"])
        #expect(words(["meditate", "--ambient", "r"]) == ["rain"])
        #expect(words(["log", "--kind", "b"]) == ["breathing"])
        #expect(words(["stats", "--lang", ""]) == ["en", "de"])
        #expect(words(["morse", "qso", "--style", ""]) == ["first-contact", "signal-report", "contest", "rag-chew"])
        #expect(words(["settings", "set", "progress."]).contains("progress.day-start"))
        #expect(words(["log", "--user", ""]) == ["Ada", "Ben"])
    }

    @Test func namesComeFromTheDataDirectory() {
        #expect(words(["timer", "start", ""]) == ["Morning pages", "Tea"])
        #expect(words(["timer", "run", "T"]) == ["Tea"])
        #expect(words(["render", "timer", ""]) == ["Morning pages", "Tea"])
        #expect(words(["meditate", "Z"]) == ["Zazen"])
        #expect(words(["meditate", ""]) == ["sit", "presets", "Zazen"])
        #expect(words(["meditate", "presets", "delete", ""]) == ["Zazen"])
        #expect(words(["breathe", "E"]) == ["Evening"])
        #expect(words(["workout", "programs", "delete", ""]) == ["tabata"])
        #expect(words(["user", "pin", ""]) == ["Ada", "Ben"])
        // A new name has nothing to complete.
        #expect(words(["timer", "add", ""]).isEmpty)
    }

    @Test func filesWhereAFileGoes() {
        #expect(engine.complete(["import", ""]) == .files)
        #expect(engine.complete(["library", "import", "a"]) == .files)
        #expect(engine.complete(["export", "-o", ""]) == .files)
        #expect(engine.complete(["chart", "streak", "--output", ""]) == .files)
        #expect(engine.complete(["log", "--data", ""]) == .directories)
    }

    @Test func subcommandsAndTheRoot() {
        #expect(words(["ti"]) == ["timer"])
        #expect(words(["timer", "st"]) == ["start"])
        #expect(words(["-"]) == ["--version", "--help"])
        #expect(!words([""]).contains("__complete"))
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

import Foundation
import MomentumCore
import Testing

@testable import MomentumCLI

/// The terminal as a view: hints that say what a key does now, no hint left behind when a player
/// ends, screens that fit 40 columns, "did you mean", shell completions.
@Suite("The terminal as a view")
struct TerminalViewTests {
    /// The output with its cursor and erase sequences taken out, line by line.
    static func plainLines(_ text: String) -> [String] {
        text.replacing(/\u{1B}\[[0-9;]*[A-Za-z]/, with: "").components(separatedBy: "\n")
    }

    /// The lines of the last live frame drawn (each frame ends by erasing what is below it).
    static func lastFrame(_ text: String) -> String {
        let frames = text.components(separatedBy: "\u{1B}[J")
        return frames.count >= 2 ? frames[frames.count - 2] : ""
    }

    @Test func whilePausedTheHintSaysSpaceResumes() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(
            ["breathe", "box", "--no-sound"], keys: [(.seconds(5), " "), (.seconds(8), "q")], interactive: true)
        #expect(status == 0, "\(terminal.errors.text)")
        let lines = Self.plainLines(terminal.output.text)
        #expect(lines.contains("space: pause · q: stop"))
        #expect(lines.contains("paused · space: resume · q: stop"))

        let sit = try TestTerminal()
        let sat = await sit.run(
            ["meditate", "10", "--countdown", "0", "--no-sound", "--lang", "de"],
            keys: [(.seconds(5), " "), (.seconds(8), "q")], interactive: true)
        #expect(sat == 0, "\(sit.errors.text)")
        let sitLines = Self.plainLines(sit.output.text)
        #expect(sitLines.contains("Leertaste: Pause · q: Ende"))
        #expect(sitLines.contains("Leertaste: weiter · q: Ende"))
    }

    @Test(arguments: [["breathe", "box", "--no-sound"], ["workout", "tabata", "--no-sound"]])
    func noHintIsLeftOnScreenWhenAPlayerEnds(arguments: [String]) async throws {
        let stopped = try TestTerminal()
        #expect(await stopped.run(arguments, keys: [(.seconds(20), "q")], interactive: true) == 0)
        #expect(!Self.lastFrame(stopped.output.text).contains("q: stop"), "\(stopped.output.text)")
        #expect(stopped.output.text.contains("q: stop"))

        let completed = try TestTerminal()
        #expect(await completed.run(arguments + ["--rounds", "1"], interactive: true) == 0)
        #expect(!Self.lastFrame(completed.output.text).contains("q: stop"), "\(completed.output.text)")
    }

    @Test func theWorkoutBoardFitsFortyColumns() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(
            [
                "workout", "--work", "20", "--rest", "10", "--rounds", "2", "--no-sound",
                "--exercise", "Bulgarian split squats with a long name", "--exercise", "Plank",
            ], interactive: true)
        #expect(status == 0, "\(terminal.errors.text)")
        let lines = Self.plainLines(terminal.output.text)
        #expect(lines.contains { $0.contains("Bulgarian") })
        // The board, after the one line that says what starts.
        let tooWide = lines.dropFirst().filter { $0.terminalWidth > 40 }
        #expect(tooWide.isEmpty)
    }

    @Test func theQSOLiveLineShowsTheEndOfALongLineWithinFortyColumns() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["morse", "settings", "--call", "k1abc"]) == 0)
        let typed = "CQ CQ CQ DE K1ABC K1ABC K1ABC PSE K CQ CQ CQ"
        var keys: [(at: Duration, key: Character)] = typed.enumerated().map {
            (.milliseconds(1000 + 10 * $0.offset), $0.element)
        }
        keys.append((.seconds(5), Character(UnicodeScalar(27))))
        let contact = try TestTerminal(sharing: terminal)
        let status = await contact.run(
            ["morse", "qso", "--seed", "5", "--no-sound"], keys: keys, interactive: true)
        #expect(status == 0, "\(contact.errors.text)")
        let live = Self.plainLines(contact.output.text).filter { $0.hasPrefix("you send:") }
        #expect(live.contains("you send: CQ▏"))
        #expect(live.last?.hasSuffix("PSE K CQ CQ CQ▏") == true)
        #expect(live.last?.contains("you send: …") == true)
        let tooWide = live.filter { $0.terminalWidth > 40 }
        #expect(tooWide.isEmpty)
    }

    @Test func wrappingBreaksAtSpacesAndCutsOnlyWordsWiderThanALine() {
        #expect("short".wrapped() == ["short"])
        #expect(
            "Enter on an empty line shows what the station sent".wrapped() == [
                "Enter on an empty line shows what the", "station sent",
            ])
        #expect("abcdefghij".wrapped(toColumns: 4) == ["abcd", "efgh", "ij"])
        #expect("東東東 a".wrapped(toColumns: 4) == ["東東", "東 a"])
        #expect("".wrapped(toColumns: 4) == [""])
    }

    @Test func aMistypedSubcommandPresetProgramOrSettingGetsADidYouMean() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["medtate"]) != 0)
        #expect(terminal.errors.lines.last == "momentum: Did you mean “momentum meditate”?")

        let nested = try TestTerminal()
        #expect(await nested.run(["morse", "lern"]) != 0)
        #expect(nested.errors.lines.last == "momentum: Did you mean “momentum morse learn”?")

        let preset = try TestTerminal()
        #expect(await preset.run(["breathe", "bx", "--plan"]) == 64)
        #expect(preset.errors.lines.last == "momentum: Did you mean “box”?")

        let program = try TestTerminal()
        #expect(await program.run(["workout", "tabta", "--plan"]) == 64)
        #expect(program.errors.lines.last == "momentum: Did you mean “tabata”?")

        let setting = try TestTerminal()
        #expect(await setting.run(["settings", "set", "sond", "off", "--lang", "de"]) == 64)
        #expect(setting.errors.lines.last == "momentum: Meintest du „sound“?")

        let far = try TestTerminal()
        #expect(await far.run(["breathe", "nothing-like-it", "--plan"]) == 64)
        #expect(far.errors.lines.count == 1)
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsPrintTheShellsScript(shell: String) async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["completions", shell], addingData: false) == 0, "\(terminal.errors.text)")
        // The script asks the program at each Tab (CompletionTests, scripts/completion-shells.sh).
        #expect(terminal.output.text.contains("__complete"))
        #expect(terminal.output.text.contains("momentum"))
    }

    @Test func completionsRefuseAnUnknownShell() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["completions", "tcsh"], addingData: false) != 0)
    }

    @Test func aLiveLineWiderThanFortyColumnsIsBrokenAndRedrawnInPlace() {
        let output = CapturedOutput()
        var display = LiveDisplay(output: output, isLive: true)
        let hint = "type what you hear, then Enter · space: pause · q or Esc: end"
        #expect(hint.terminalWidth > 40)
        for typed in ["K", "KM", "KMR"] {
            display.draw(["your answer: \(typed)", hint], key: "answer") { "" }
        }
        let frames = output.text.components(separatedBy: "\u{1B}[J")
        // Each frame after the first moves up over every row the last one drew: three, not two.
        #expect(frames.dropFirst().dropLast().allSatisfy { $0.hasPrefix("\u{1B}[3F") }, "\(frames)")
        let rows = Self.plainLines(frames[frames.count - 2]).filter { !$0.isEmpty }
        #expect(rows.count == 3)
        #expect(rows.allSatisfy { $0.terminalWidth <= 40 }, "\(rows)")
    }
}

import Foundation
import Testing

@testable import MomentumCLI

/// The argument parser's usage errors said in our words, in English and German (issue 38): one
/// sentence, no parser text, exit status 64.
@Suite("Usage errors in the person's language")
struct UsageErrorTests {
    @Test(arguments: [
        (["medtate"], "“medtate” means nothing here; momentum --help lists the commands."),
        (["meditate", "--bogus"], "There is no option --bogus here; add --help to see the options."),
        (["stats", "--year", "--all"], "--year and --all ask for different things: use one of them."),
        (["timer", "start"], "The name is missing; add --help to see what goes here."),
        (["meditate", "--ambient"], "--ambient needs a value after it."),
        (["chart", "nothing", "-o", "x.svg"], "“nothing” is not a valid chart; add --help to see the choices."),
    ])
    func inEnglish(arguments: [String], message: String) async throws {
        let terminal = try TestTerminal()
        // Without --data, as typed: an unknown subcommand is the first thing the parser finds.
        #expect(await terminal.run(arguments, addingData: false) == 64)
        #expect(terminal.errors.lines.first == "momentum: " + message)
        #expect(terminal.output.text.isEmpty)
    }

    @Test(arguments: [
        (["medtate", "--lang", "de"], "„medtate“ bedeutet hier nichts; momentum --help listet die Befehle."),
        (["meditate", "--bogus", "--lang", "de"], "Hier gibt es keine Option --bogus; --help zeigt die Optionen."),
        (
            ["stats", "--year", "--all", "--lang=de"],
            "--year und --all verlangen Verschiedenes: nutze eines von beiden."
        ),
        (
            ["meditate", "-5", "--lang", "de"],
            "„-5“ ist negativ; Zeiten und Anzahlen in Momentum sind nie kleiner als null."
        ),
    ])
    func inGerman(arguments: [String], message: String) async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(arguments, addingData: false) == 64)
        #expect(terminal.errors.lines.first == "momentum: " + message)
    }

    @Test func theEnvironmentsLanguageWhenNoLangIsGiven() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["medtate"], environment: ["LANG": "de_DE.UTF-8"], addingData: false) == 64)
        #expect(
            terminal.errors.lines == [
                "momentum: „medtate“ bedeutet hier nichts; momentum --help listet die Befehle.",
                "momentum: Meintest du „momentum meditate“?",
            ])
    }
}

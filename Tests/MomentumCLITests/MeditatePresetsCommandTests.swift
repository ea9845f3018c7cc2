import Foundation
import MomentumCore
import MomentumStore
import MomentumStoreContract
import Testing

@testable import MomentumCLI

@Suite("momentum meditate presets, and momentum meditate NAME")
struct MeditatePresetsCommandTests {
    @Test func aSavedSitIsMovedToAnotherPlaceCountedFromOne() async throws {
        let terminal = try TestTerminal()
        for name in ["Morning", "Zazen", "Evening"] {
            #expect(await terminal.run(["meditate", "presets", "add", name, "10"]) == 0, "\(terminal.errors.text)")
        }
        let move = try TestTerminal(sharing: terminal)
        #expect(await move.run(["meditate", "presets", "move", "zazen", "1"]) == 0, "\(move.errors.text)")
        #expect(move.output.lines.first == "“Zazen” is now number 1 of 3.")
        #expect(
            move.output.lines.dropFirst().map { $0.split(separator: " ").first.map(String.init) } == [
                "Zazen", "Morning", "Evening",
            ])
        let german = try TestTerminal(sharing: terminal)
        #expect(await german.run(["meditate", "presets", "move", "Zazen", "9", "--lang", "de"]) == 0)
        #expect(german.output.lines.first == "„Zazen“ ist jetzt Nummer 3 von 3.")
        let refused = try TestTerminal(sharing: terminal)
        #expect(await refused.run(["meditate", "presets", "move", "Zazen", "0"]) != 0)
        #expect(refused.errors.text.contains("There is no such place among your saved sits"))
        let listing = try TestTerminal(sharing: terminal)
        #expect(await listing.run(["meditate", "presets", "list", "--json"]) == 0)
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(listing.output.text.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["name"] as? String } == ["Morning", "Evening", "Zazen"])
    }

    @Test func savedSitsAreAddedListedEditedRenamedAndDeletedFromTheCommandLine() async throws {
        let terminal = try TestTerminal()
        #expect(
            await terminal.run(["meditate", "presets", "add", "Evening", "20", "--interval", "5", "--ambient", "rain"])
                == 0, "\(terminal.errors.text)")
        #expect(await terminal.run(["meditate", "presets", "edit", "evening", "--interval", "25,30", "40"]) == 0)
        #expect(await terminal.run(["meditate", "presets", "add", "Open", "--open", "--countdown", "0"]) == 0)
        #expect(await terminal.run(["meditate", "presets", "rename", "open", "Open sky"]) == 0)
        #expect(
            terminal.output.lines == [
                "Saved “Evening”: 20 min · gongs every 5 min · Soft rain.",
                "Saved “Evening”: 40 min · gongs at 25, 30 min · Soft rain.",
                "Saved “Open”: open-ended.",
                "Saved “Open sky”: open-ended.",
            ])

        let listing = try TestTerminal(sharing: terminal)
        #expect(await listing.run(["meditate", "presets", "list", "--json"]) == 0)
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(listing.output.text.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["name"] as? String } == ["Evening", "Open sky"])
        #expect(entries.first?["summary"] as? String == "40 min · gongs at 25, 30 min · Soft rain")
        #expect((entries.first?["plan"] as? [String: Any])?["durationMs"] as? Int == 2_400_000)
        #expect(entries.first?["id"] as? String != nil)

        let table = try TestTerminal(sharing: terminal)
        #expect(await table.run(["meditate", "presets", "--lang", "de"]) == 0)
        #expect(table.output.lines.count == 2)
        #expect(table.output.lines[1].hasPrefix("Open sky"))
        #expect(table.output.lines[1].hasSuffix("ohne festes Ende"))

        let refused = try TestTerminal(sharing: terminal)
        #expect(await refused.run(["meditate", "presets", "delete", "open sky"]) != 0)
        #expect(refused.errors.text.contains("add --yes"))
        let deleting = try TestTerminal(sharing: terminal)
        #expect(await deleting.run(["meditate", "presets", "delete", "open sky", "--yes"]) == 0)
        #expect(deleting.output.lines == ["Deleted “Open sky”."])
        let database = try MomentumDatabase.open(directory: terminal.directory.url)
        #expect(try database.meditationPresets().map(\.name) == ["Evening"])
    }

    @Test func anEmptyListSaysHowToSaveOne() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["meditate", "presets"]) == 0)
        #expect(terminal.output.lines.first?.hasPrefix("No saved sits yet.") == true)
        let json = try TestTerminal(sharing: terminal)
        #expect(await json.run(["meditate", "presets", "list", "--json"]) == 0)
        #expect(json.output.text == "[\n\n]\n" || json.output.text == "[]\n")
    }

    @Test func meditateWithASavedSitsNamePlaysThatSit() async throws {
        let terminal = try TestTerminal()
        #expect(
            await terminal.run(["meditate", "presets", "add", "Short", "2", "--countdown", "5", "--interval", "1"]) == 0
        )
        let sitting = try TestTerminal(sharing: terminal)
        let events = ScriptedEvents()
        let sound = RecordingCuePlayer(events: events)
        let status = await sitting.run(["meditate", "short"], sound: sound, events: events)
        #expect(status == 0, "\(sitting.errors.text)")
        #expect(sitting.output.lines.first == "“Short”: 2 min · gongs every 1 min")
        #expect(sound.played.map(\.sound) == [.startGong, .intervalGong, .endGong])
        #expect(sound.played.map(\.at) == [.seconds(5), .seconds(65), .seconds(125)])
        let records = try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords()
        #expect(records.map(\.countedSeconds) == [120])
    }

    @Test func optionsChangeASavedSitForThisSitOnly() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["meditate", "presets", "add", "Evening", "20", "--interval", "5"]) == 0)
        let planned = try TestTerminal(sharing: terminal)
        #expect(
            await planned.run(["meditate", "Evening", "--countdown", "0", "--plan"]) == 0, "\(planned.errors.text)")
        let timeline = try JSONDecoder().decode(Timeline.self, from: Data(planned.output.text.utf8))
        #expect(timeline.totalDuration == .minutes(20))
        let database = try MomentumDatabase.open(directory: terminal.directory.url)
        #expect(try database.meditationPresets().first?.plan.countdown == MeditationPlan.defaultCountdown)
    }

    @Test(arguments: [
        (["meditate", "presets", "add", " "], "A saved sit needs a name."),
        (["meditate", "presets", "add", "Evening"], "There is already a saved sit called “Evening”"),
        (["meditate", "presets", "add", "Late", "20", "--interval", "20"], "at or after"),
        (["meditate", "presets", "edit", "evening"], "Say what to change"),
        (["meditate", "presets", "rename", "nowhere", "x"], "There is no saved sit “nowhere”"),
        (["meditate", "evenin"], "“evenin” is not a number of minutes."),
    ])
    func badInputIsRefusedWithAClearMessageAndNothingChanged(arguments: [String], message: String) async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["meditate", "presets", "add", "Evening", "20"]) == 0)
        let refused = try TestTerminal(sharing: terminal)
        #expect(await refused.run(arguments) != 0)
        #expect(refused.errors.text.contains(message), "\(refused.errors.text)")
        let database = try MomentumDatabase.open(directory: terminal.directory.url)
        #expect(try database.meditationPresets().map(\.name) == ["Evening"])
        #expect(try database.practiceRecords().isEmpty)
    }

    @Test func aMistypedSavedSitGetsADidYouMean() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["meditate", "presets", "add", "Evening", "20"]) == 0)
        let typo = try TestTerminal(sharing: terminal)
        #expect(await typo.run(["meditate", "evenin"]) != 0)
        #expect(typo.errors.text.contains("momentum meditate Evening"), "\(typo.errors.text)")
        let renaming = try TestTerminal(sharing: terminal)
        #expect(await renaming.run(["meditate", "presets", "delete", "Evenin", "--yes"]) != 0)
        #expect(renaming.errors.text.contains("Evening"), "\(renaming.errors.text)")
    }

    /// Issue 38: a saved sit leaves "your last sit" as it was, and a length typed now never
    /// inherits remembered gongs that no longer fit — only gongs typed with it can refuse it.
    @Test func aSavedSitNeverRewritesTheDefaultsAndANewLengthDropsGongsThatNoLongerFit() async throws {
        let terminal = try TestTerminal()
        #expect(
            await terminal.run(["meditate", "12", "--countdown", "0", "--interval", "4"], keys: [(.seconds(1), "q")])
                == 0)
        #expect(await terminal.run(["meditate", "presets", "add", "Zazen", "40", "--interval", "25,30"]) == 0)
        #expect(await terminal.run(["meditate", "Zazen", "--countdown", "0"], keys: [(.seconds(1), "q")]) == 0)
        let settings = MomentumSettings(
            storedValues: try MomentumDatabase.open(directory: terminal.directory.url).settingValues())
        #expect(settings.meditation.duration == .minutes(12))
        #expect(settings.meditation.intervalGongs == .every(minutes: 4))

        // The quick sit remembered gongs every 4 minutes: a 3-minute sit has none, and runs.
        let short = try TestTerminal(sharing: terminal)
        #expect(await short.run(["meditate", "3", "--countdown", "0", "--plan"]) == 0, "\(short.errors.text)")
        #expect(!short.output.text.contains("intervalGong"))
        // Gongs typed with the length are checked as they are, and the message says how to change them.
        let typed = try TestTerminal(sharing: terminal)
        #expect(await typed.run(["meditate", "3", "--interval", "25"]) != 0)
        #expect(
            typed.errors.text.contains("An interval gong at 25 min would sound at or after the end of the 3 min sit"))
    }
}

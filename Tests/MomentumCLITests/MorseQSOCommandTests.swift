import Foundation
import MomentumComposition
import MomentumCore
import MomentumServices
import MomentumStoreTestSupport
import Testing

@testable import MomentumCLI

@Suite("momentum morse qso and the call sign")
struct MorseQSOCommandTests {
    /// Lines typed one after another, a character every 10 ms and a line every 5 s.
    private func typing(_ lines: [String], from start: Duration = .seconds(1)) -> [(at: Duration, key: Character)] {
        var keys: [(at: Duration, key: Character)] = []
        var instant = start
        for line in lines {
            for character in line + "\n" {
                keys.append((instant, character))
                instant += .milliseconds(10)
            }
            instant += .seconds(5)
        }
        return keys
    }

    @Test func aWholeContactRunsOnTypedLinesWithHintsAndEndsWithItsTranscript() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["morse", "settings", "--call", "k1abc"]) == 0, "\(terminal.errors.text)")
        #expect(terminal.output.lines.last?.hasSuffix(" · call sign K1ABC") == true)

        var random = SeededRandomNumberGenerator(seed: 5)
        let call = try QSO(style: .firstContact, mode: .call, ownCallSign: "K1ABC", using: &random).station.callSign
            .text
        let contact = try TestTerminal(sharing: terminal)
        let events = ScriptedEvents(
            keys: typing([
                "CQ CQ DE K1ABC K1ABC K", "", "\(call) DE K1ABC K", "\(call) DE K1ABC UR RST 5NN 5NN K",
                "\(call) DE K1ABC TNX QSO 73 <SK>",
            ]))
        let morse = RecordingMorsePlayer(events: events)
        let status = await contact.run(["morse", "qso", "--seed", "5"], events: events, morse: morse)
        #expect(status == 0, "\(contact.errors.text)")
        let reply = "K1ABC DE \(call) \(call) K"
        let station = "\(call) is sending…"
        let report = "K1ABC DE \(call) R TNX FER RPT UR RST "
        let lines = contact.output.lines
        #expect(lines.first == "QSO practice as K1ABC")
        // The header: one line per part, each fitting a 40-column terminal.
        let yourTurn = try #require(lines.firstIndex(of: "Your turn: call CQ."))
        let header = lines[..<yourTurn]
        #expect(header.count >= 5)
        let headerFits = header.allSatisfy { $0.terminalWidth <= 40 }
        #expect(headerFits, "\(header)")
        #expect(header.joined(separator: " ").contains("Enter on an empty line shows what the station sent"))
        #expect(
            Array(lines[yourTurn...].prefix(9)) == [
                "Your turn: call CQ.",
                "K1ABC: CQ CQ DE K1ABC K1ABC K",
                "♪ \(station)",
                // Enter on an empty line shows what the station sent.
                "\(call): \(reply)",
                "K1ABC: \(call) DE K1ABC K",
                "missing: report (RST)",
                "♪ \(station)",
                // Answered without asking: the station's text comes first.
                "\(call): PSE RPT RST?",
                "K1ABC: \(call) DE K1ABC UR RST 5NN 5NN K",
            ])
        #expect(lines.contains("Contact complete. 73!"))
        let transcript = try #require(lines.firstIndex(of: "Transcript:"))
        #expect(lines.count == transcript + 9)
        #expect(lines[transcript + 1] == "  K1ABC: CQ CQ DE K1ABC K1ABC K")
        #expect(lines[transcript + 2] == "  \(call): \(reply)")
        #expect(lines[transcript + 6].hasPrefix("  \(call): \(report)") == true)
        #expect(lines.last == "  \(call): R TU 73 K1ABC DE \(call) <SK>")
        #expect(morse.played.map(\.text).first == reply)
        #expect(morse.played.count == 4)
    }

    @Test func answeringACQPlaysTheStationFirstAndEscEndsEarly() async throws {
        let terminal = try TestTerminal()
        let events = ScriptedEvents(keys: [(.seconds(3), "\u{1B}")])
        let morse = RecordingMorsePlayer(events: events)
        let status = await terminal.run(
            ["morse", "qso", "--mode", "answer", "--style", "rag-chew", "--call", "DL1ABC", "--seed", "9"],
            events: events, morse: morse)
        #expect(status == 0, "\(terminal.errors.text)")
        #expect(morse.played.first?.text.hasPrefix("CQ CQ CQ DE ") == true)
        #expect(terminal.output.text.contains("Contact ended early.\nTranscript:\n"))
        // The call given here is not stored.
        let services = try await MomentumServices.open(dataDirectory: terminal.directory.url, device: "check")
        await #expect(try services.morse.callSign() == nil)
    }

    @Test func onABandTheStationIsHeardThroughItsNoiseByAHumanHand() async throws {
        let terminal = try TestTerminal()
        let events = ScriptedEvents(keys: [(.seconds(3), "\u{1B}")])
        let morse = RecordingMorsePlayer(events: events)
        let arguments = ["morse", "qso", "--mode", "answer", "--call", "DL1ABC", "--seed", "9"]
        let status = await terminal.run(arguments + ["--conditions", "average-evening"], events: events, morse: morse)
        #expect(status == 0, "\(terminal.errors.text)")
        let heard = try #require(morse.onBand.first)
        #expect(heard.text.hasPrefix("CQ CQ CQ DE "))
        #expect(heard.band.signalToNoise == 15 && heard.band.fading != nil && heard.band.fist == .steady)
        // The human hand is in the elements: the CQ does not last as long as on a clean band.
        let clean = try TestTerminal()
        let cleanEvents = ScriptedEvents(keys: [(.seconds(3), "\u{1B}")])
        let cleanMorse = RecordingMorsePlayer(events: cleanEvents)
        #expect(await clean.run(arguments, events: cleanEvents, morse: cleanMorse) == 0)
        #expect(cleanMorse.onBand.isEmpty)
        #expect(cleanMorse.played.first?.text == heard.text)
        #expect(cleanMorse.played.first?.duration != morse.played.first?.duration)
    }

    @Test func aQSOWithoutACallSignSaysHowToSetOneAndStoresNothing() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["morse", "qso"])
        #expect(status != 0)
        #expect(
            terminal.errors.text
                == "momentum: A QSO needs your call sign, and none is set. "
                + "Set it with: momentum morse settings --call YOURCALL (or pass --call).\n")
        #expect(terminal.output.text.isEmpty)
        let services = try await MomentumServices.open(dataDirectory: terminal.directory.url, device: "check")
        #expect(try services.sqlite.settingValues()[MorseCourseService.callSignKey] == nil)
        await #expect(try services.practiceLog.records().isEmpty)
    }

    @Test func aCallSignThatBreaksARuleIsRefusedWithTheRuleAndNothingIsSaved() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["morse", "settings", "--call", "K1", "--wpm", "25"]) != 0)
        #expect(terminal.errors.text.contains("K1 is too short for a call sign"))
        let services = try await MomentumServices.open(dataDirectory: terminal.directory.url, device: "check")
        await #expect(try services.morse.callSign() == nil)
        await #expect(try services.morse.courseSettings().timing.characterWPM == 20)

        let german = try TestTerminal(sharing: terminal)
        #expect(await german.run(["morse", "qso", "--call", "ABC", "--lang", "de"]) != 0)
        #expect(german.errors.text.contains("Dein Rufzeichen ist nicht verwendbar: ABC enthält keine Ziffer"))
    }

    @Test func theCallSignIsInTheSettingsJSONAndCanBeForgotten() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["morse", "settings", "--call", "dl1abc", "--json"]) == 0)
        let saved = try JSONSerialization.jsonObject(with: Data(terminal.output.text.utf8)) as? [String: Any]
        #expect(saved?["callSign"] as? String == "DL1ABC")
        #expect(saved?["characterWPM"] as? Double == 20)

        let both = try TestTerminal(sharing: terminal)
        #expect(await both.run(["morse", "settings", "--call", "K1ABC", "--clear-call"]) != 0)
        let cleared = try TestTerminal(sharing: terminal)
        #expect(await cleared.run(["morse", "settings", "--clear-call", "--json"]) == 0)
        let shown = try JSONSerialization.jsonObject(with: Data(cleared.output.text.utf8)) as? [String: Any]
        #expect(shown?["callSign"] is NSNull)
        let services = try await MomentumServices.open(dataDirectory: terminal.directory.url, device: "check")
        await #expect(try services.morse.callSign() == nil)
    }

    @Test func anUnknownStyleIsRefusedByTheParser() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["morse", "qso", "--style", "chat", "--call", "K1ABC"]) != 0)
        #expect(terminal.errors.text.contains("chat"))
    }
}

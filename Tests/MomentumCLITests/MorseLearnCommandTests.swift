import Foundation
import MomentumCore
import MomentumServices
import Testing

@testable import MomentumCLI
@testable import MomentumStore

/// Keys at the instants a Koch drill at the default speeds (20/13 wpm) asks for them.
///
/// Every receive item at level 1 is K (540 ms of sound); the answer time runs 3 s from its end,
/// feedback is followed by 1 s of calm, and a miss is replayed first.
struct DrillScript {
    static let soundOfK: Duration = .milliseconds(540)
    var keys: [(at: Duration, byte: UInt8)] = []
    /// When the current item starts.
    var itemStart: Duration

    init(beginAt start: Duration) {
        itemStart = start
        press("\n", at: start)
    }

    mutating func press(_ text: String, at instant: Duration) {
        keys += text.utf8.map { (instant, $0) }
    }

    /// Types `answer` 1 s into the item and Enter 0.1 s later.
    mutating func answer(_ answer: String, isCorrect: Bool) {
        press(answer, at: itemStart + .seconds(1))
        press("\n", at: itemStart + .milliseconds(1100))
        itemStart += .milliseconds(1100) + .seconds(1) + (isCorrect ? .zero : Self.soundOfK)
    }

    /// Lets the item's answer time run out: a miss, replayed.
    mutating func miss() {
        itemStart += Self.soundOfK + .seconds(3) + Self.soundOfK + .seconds(1)
    }
}

/// A finished receive session of `count` right answers, stored through the service: level 2.
func passReceiveLevelOne(in terminal: TestTerminal) throws {
    var clockNow = terminal.wallOrigin.addingTimeInterval(-3600)
    let later = terminal.wallOrigin.addingTimeInterval(-3000)
    let services = try MomentumServices.open(
        dataDirectory: terminal.directory.url, device: "test", timeZone: TimeZone(identifier: "Europe/Berlin") ?? .gmt,
        now: { later })
    var session = try services.morse.startSession(.receive, at: clockNow)
    var generator = SeededRandomNumberGenerator(seed: 3)
    try session.startTraining(at: clockNow)
    for _ in 0..<20 {
        clockNow.addTimeInterval(2)
        let item = try session.nextItem(at: clockNow, using: &generator)
        try session.record(MorseAttempt(item: item, answer: item.text, responseTime: .milliseconds(700)), at: clockNow)
    }
    _ = try services.morse.finish(&session, at: clockNow)
}

@Suite("momentum morse learn: receive and send training in the terminal")
struct MorseLearnCommandTests {
    @Test func aReceiveSessionRunsOnScriptedAnswersAndIsSavedWithItsAccuracy() async throws {
        let terminal = try TestTerminal()
        var script = DrillScript(beginAt: .seconds(1))
        script.answer("k", isCorrect: true)
        script.answer("K", isCorrect: true)
        script.miss()
        script.answer("m", isCorrect: false)
        for _ in 0..<22 { script.answer("k", isCorrect: true) }
        // The 27th item plays at 59.12 s; the minute of training ends at 61 s, inside its answer
        // time. Its answer comes after that and still counts, as it does in the browser.
        script.press("k", at: script.itemStart + .milliseconds(2400))
        script.press("\n", at: script.itemStart + .milliseconds(2500))
        let events = ScriptedEvents(bytes: script.keys)
        let morse = RecordingMorsePlayer(events: events)
        let status = await terminal.run(
            ["morse", "learn", "receive", "--minutes", "1", "--seed", "1"], events: events, morse: morse)
        #expect(status == 0, "\(terminal.errors.text)")
        let lines = terminal.output.lines
        #expect(
            Array(lines.prefix(7)) == [
                "Receive · level 1 of 26 · the characters, newest first:",
                "  K  -.-",
                "Press Enter to begin (q ends).",
                "✓ K  -.-",
                "✓ K  -.-",
                "✗ no answer — it was K  -.-",
                "✗ M — it was K  -.-",
            ])
        #expect(lines.filter { $0 == "✓ K  -.-" }.count == 25)
        #expect(
            Array(lines.suffix(6)) == [
                "Time is up.",
                "25 of 27 right (93 %)",
                "Per character: K 25/27",
                "Level up! Level 2: now K M",
                "Next practice: Sun 17 Jan at 09:01",
                "Saved 1 min of Morse practice.",
            ])

        // The introduction, 27 items (the last answered after the end of time) and 2 replays.
        let sounds = morse.played
        #expect(sounds.count == 30)
        #expect(sounds.allSatisfy { $0.text == "K" && $0.duration == DrillScript.soundOfK })
        #expect(sounds[1].at == .seconds(1))
        // The miss is replayed the moment its answer time runs out, 3 s after its sound.
        #expect(sounds[4].at == sounds[3].at + DrillScript.soundOfK + .seconds(3))
        // The wrong answer is replayed at once; the next item follows its replay and 1 s of calm.
        #expect(sounds[6].at == script.keys[6].at)
        #expect(sounds[7].at == sounds[6].at + DrillScript.soundOfK + .seconds(1))

        let services = try MomentumServices.open(dataDirectory: terminal.directory.url, device: "check")
        #expect(try services.morse.progress()[.receive].level == 2)
        let records = try services.practiceLog.records()
        #expect(records.count == 1)
        #expect(records.first?.kind == .morse)
        #expect(records.first?.details["accuracy"] == "93%")
        #expect(records.first?.countedSeconds == 60)
        #expect(try services.morse.sessions().map(\.attempts) == [27])
    }

    @Test func pausingStopsTheSessionClockAndReplaysTheInterruptedItemUnscored() async throws {
        let terminal = try TestTerminal()
        var script = DrillScript(beginAt: .seconds(1))
        script.answer("k", isCorrect: true)
        // Paused while the second item waits for its answer; resumed 100 s later.
        script.press(" ", at: script.itemStart + .seconds(1))
        script.press(" ", at: script.itemStart + .seconds(101))
        script.itemStart += .seconds(101)
        script.answer("k", isCorrect: true)
        script.press("q", at: script.itemStart + .milliseconds(500))
        let events = ScriptedEvents(bytes: script.keys)
        let morse = RecordingMorsePlayer(events: events)
        let status = await terminal.run(["morse", "learn", "receive", "--seed", "1"], events: events, morse: morse)
        #expect(status == 0, "\(terminal.errors.text)")
        #expect(terminal.output.text.contains("✓ K  -.-\nPaused — space goes on.\n✓ K  -.-\nEnded early.\n"))
        #expect(terminal.output.text.contains("2 of 2 right (100 %)"))
        // The interrupted item plays again on resume.
        #expect(morse.played.map(\.at).contains(.milliseconds(104_100)))
        let records = try MomentumServices.open(dataDirectory: terminal.directory.url, device: "check")
            .practiceLog.records()
        // Training time: 3.1 s before the pause and 2.6 s after it.
        #expect(records.first?.countedSeconds == 5)
    }

    @Test func aSendSessionDecodesKeyedDitsAndDahsAfterTwoSecondsOfQuiet() async throws {
        let terminal = try TestTerminal()
        var keys: [(at: Duration, byte: UInt8)] = [(.seconds(1), 10)]
        func press(_ key: Character, _ seconds: Double) { keys.append((.seconds(seconds), key.asciiValue ?? 0)) }
        // K keyed with - . -
        press("-", 1.5)
        press(".", 1.7)
        press("-", 1.9)
        // Complete at 3.9, next at 4.9: F F J is U, not K.
        press("F", 5.2)
        press("f", 5.4)
        press("J", 5.6)
        // Complete at 7.6, K replayed, next at 9.14: a dit cleared, then J . - with a stray x.
        press(".", 9.5)
        keys.append((.seconds(9.7), 127))
        press("J", 10.0)
        press(".", 10.2)
        press("x", 10.3)
        press("-", 10.4)
        // Complete at 12.4, next at 13.4: .-.- is no character.
        press(".", 13.6)
        press("-", 13.8)
        press(".", 14.0)
        press("-", 14.2)
        press("q", 18.0)
        let events = ScriptedEvents(bytes: keys)
        let morse = RecordingMorsePlayer(events: events)
        let status = await terminal.run(["morse", "learn", "send", "--seed", "2"], events: events, morse: morse)
        #expect(status == 0, "\(terminal.errors.text)")
        #expect(
            terminal.output.lines == [
                "Send · level 1 of 26 · the characters, newest first:",
                "  K  -.-",
                "Press Enter to begin (q ends).",
                "Send: K",
                "✓ K  -.-",
                "Send: K",
                "✗ you keyed ..- (U) — K is -.-",
                "Send: K",
                "“x” does not key: . or F = dit, - or J = dah",
                "✓ K  -.-",
                "Send: K",
                "✗ .-.- is no character — K is -.-",
                "Send: K",
                "Ended early.",
                "2 of 4 right (50 %)",
                "Per character: K 2/4",
                "Level 1 stays · to move on: at least 20 answers (this time 4), at least 90 % right (this time 50 %), "
                    + "K at least 5 times (this time 4), K at least 90 % right (this time 50 %)",
                "Next practice: Sat 16 Jan at 09:00",
                "Saved 17 s of Morse practice.",
            ])
        #expect(
            morse.played.map(\.text) == [
                "K", "-", ".", "-", ".", ".", "-", "K", ".", "-", ".", "-", ".", "-", ".", "-", "K",
            ])
        #expect(morse.played[1].duration == .milliseconds(180))
        #expect(morse.played[2].duration == .milliseconds(60))
        let services = try MomentumServices.open(dataDirectory: terminal.directory.url, device: "check")
        #expect(try services.morse.progress()[.send].schedule.lastPractice != nil)
        #expect(try services.practiceLog.records().first?.details["direction"] == "send")
    }

    @Test func unknownCharactersAndStrayKeysInAnswers() async throws {
        let terminal = try TestTerminal()
        var script = DrillScript(beginAt: .seconds(1))
        // ä has no Morse code: it counts as a wrong character.
        script.answer("ä", isCorrect: false)
        // A tab and an arrow's escape-less bytes are no text; the K still counts.
        script.press("\t", at: script.itemStart + .milliseconds(900))
        script.answer("k", isCorrect: true)
        // A stray Enter with nothing typed is not an answer: the item times out.
        script.press("\n", at: script.itemStart + .milliseconds(800))
        script.miss()
        script.press("q", at: script.itemStart + .milliseconds(200))
        let events = ScriptedEvents(bytes: script.keys)
        let status = await terminal.run(["morse", "learn", "receive", "--seed", "1"], events: events)
        #expect(status == 0, "\(terminal.errors.text)")
        let lines = terminal.output.lines
        #expect(
            Array(lines[3...6]) == [
                "✗ Ä — it was K  -.-", "✓ K  -.-", "✗ no answer — it was K  -.-", "Ended early.",
            ])
        #expect(lines.contains("1 of 3 right (33 %)"))
    }

    @Test func endingDuringTheIntroductionSavesNothing() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["morse", "learn", "receive"], keys: [(.seconds(2), "q")])
        #expect(status == 0)
        #expect(terminal.output.lines.suffix(2) == ["Ended early.", "No answers, so nothing was saved."])
        let services = try MomentumServices.open(dataDirectory: terminal.directory.url, device: "check")
        #expect(try services.practiceLog.records().isEmpty)
        #expect(try services.database.morseCourseJSON() == nil)
    }

    @Test func theSameSeedGivesTheSameDrillAndAnotherSeedAnother() async throws {
        func drill(seed: String) async throws -> [String] {
            let terminal = try TestTerminal()
            try passReceiveLevelOne(in: terminal)
            let events = ScriptedEvents(keys: [(.seconds(1), "\n"), (.seconds(40), "q")])
            let morse = RecordingMorsePlayer(events: events)
            let status = await terminal.run(
                ["morse", "learn", "receive", "--seed", seed, "--group", "3"], events: events, morse: morse)
            #expect(status == 0, "\(terminal.errors.text)")
            return morse.played.map(\.text)
        }
        let first = try await drill(seed: "42")
        #expect(first.first == "M K")
        #expect(first.count >= 8)
        #expect(first.dropFirst().allSatisfy { $0.count == 3 && $0.allSatisfy { "KM".contains($0) } })
        #expect(try await drill(seed: "42") == first)
        #expect(try await drill(seed: "43") != first)
    }

    @Test func corruptStoredProgressIsReportedAndLeftAsItIs() async throws {
        let terminal = try TestTerminal()
        let corrupt = #"{"order":"standard","receive":{"level":99}}"#
        let database = try MomentumDatabase.open(directory: terminal.directory.url)
        try database.write { db in
            try db.execute(
                sql: "INSERT INTO morseCourse (id, progress, updatedAtMs) VALUES (1, ?, 0)", arguments: [corrupt])
        }
        let status = await terminal.run(["morse", "learn", "receive"], keys: [(.seconds(1), "\n")])
        #expect(status != 0)
        #expect(terminal.errors.text.contains("The stored Morse course progress cannot be read"))
        #expect(try database.morseCourseJSON() == corrupt)
        #expect(try database.practiceRecords().isEmpty)
    }

    @Test func optionsOutOfBoundsAreRefusedBeforeTheSessionStarts() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["morse", "learn", "receive", "--group", "11"]) != 0)
        #expect(terminal.errors.text.contains("A group has 1 to 10 characters, not 11."))
        let long = try TestTerminal(sharing: terminal)
        #expect(await long.run(["morse", "learn", "send", "--minutes", "90"]) != 0)
        #expect(long.errors.text.contains("A Morse session lasts 1 to 60 minutes, not 90."))
        #expect(long.output.text.isEmpty)
    }
}

import Foundation
import MomentumComposition
import MomentumCore
import MomentumServices
import MomentumStoreTestSupport
import Testing

@testable import MomentumCLI
@testable import MomentumStore

/// Keys at the instants a Koch drill at the default speeds (20/13 wpm) asks for them.
///
/// Level 1 draws K (540 ms of sound) and M (420 ms); the script draws the same items as the
/// player, from the same seed and the same answers, so it knows what each one sounds like. The
/// answer time runs 3 s from the end of an item's sound, feedback is followed by 1 s of calm,
/// and a miss is replayed first.
struct DrillScript {
    var keys: [(at: Duration, byte: UInt8)] = []
    /// When the current item starts.
    var itemStart: Duration
    /// The feedback line each answer gets, in order.
    private(set) var feedback: [String] = []
    /// Each item answered or missed, as the player drew it.
    private(set) var items: [String] = []
    private var session: MorseSession
    private var random: SeededRandomNumberGenerator
    private let keyer: MorseKeyer
    private static let origin = Date(timeIntervalSince1970: 0)

    init(beginAt start: Duration, seed: UInt64 = 1) throws {
        itemStart = start
        session = try MorseSession(direction: .receive, order: .standard, level: 1, at: Self.origin)
        try session.startTraining(at: Self.origin)
        random = SeededRandomNumberGenerator(seed: seed)
        keyer = MorseKeyer(timing: try MorseTiming())
        press("\n", at: start)
    }

    mutating func press(_ text: String, at instant: Duration) {
        keys += text.utf8.map { (instant, $0) }
    }

    /// The item that plays at ``itemStart``; the next call draws the one after it.
    mutating func playing() throws -> MorseDrillItem {
        if let pending { return pending }
        let item = try session.nextItem(at: Self.origin, using: &random)
        pending = item
        return item
    }
    private var pending: MorseDrillItem?

    /// How long `item` sounds.
    func sound(of item: MorseDrillItem) -> Duration { keyer.keying(item).duration }

    /// Answers the playing item `after` its start (1 s: its sound is over) with Enter 0.1 s later:
    /// its text (lower case unless `upperCase`) when `wrong` is nil, else `wrong`.
    mutating func answer(wrong: String? = nil, upperCase: Bool = false, after: Duration = .seconds(1)) throws {
        let item = try playing()
        let typed = wrong ?? (upperCase ? item.text : item.text.lowercased())
        press(typed, at: itemStart + after)
        press("\n", at: itemStart + after + .milliseconds(100))
        try record(item, answer: typed)
        let isCorrect = wrong == nil
        feedback.append(isCorrect ? "✓ \(Self.shown(item))" : "✗ \(typed.uppercased()) — it was \(Self.shown(item))")
        itemStart += after + .milliseconds(100) + .seconds(1) + (isCorrect ? .zero : sound(of: item))
    }

    /// Lets the playing item's answer time run out: a miss, replayed.
    mutating func miss() throws {
        let item = try playing()
        try record(item, answer: nil)
        feedback.append("✗ no answer — it was \(Self.shown(item))")
        itemStart += sound(of: item) + .seconds(3) + sound(of: item) + .seconds(1)
    }

    private mutating func record(_ item: MorseDrillItem, answer: String?) throws {
        try session.record(MorseAttempt(item: item, answer: answer, responseTime: nil), at: Self.origin)
        items.append(item.text)
        pending = nil
    }

    /// An item as the feedback shows it: `K  -.-`.
    static func shown(_ item: MorseDrillItem) -> String {
        "\(item.text)  \(item.symbols.map(\.patternText).joined(separator: " "))"
    }
}

/// A finished receive session of 20 right answers, stored through the service: level 2 (K M R).
func passReceiveLevelOne(in terminal: TestTerminal) async throws {
    var clockNow = terminal.wallOrigin.addingTimeInterval(-3600)
    let later = terminal.wallOrigin.addingTimeInterval(-3000)
    let services = try await MomentumServices.open(
        dataDirectory: terminal.directory.url, device: "test", timeZone: TimeZone(identifier: "Europe/Berlin") ?? .gmt,
        now: { later })
    var session = try await services.morse.startSession(.receive, at: clockNow)
    var generator = SeededRandomNumberGenerator(seed: 3)
    try session.startTraining(at: clockNow)
    for _ in 0..<20 {
        clockNow.addTimeInterval(2)
        let item = try session.nextItem(at: clockNow, using: &generator)
        try session.record(MorseAttempt(item: item, answer: item.text, responseTime: .milliseconds(700)), at: clockNow)
    }
    _ = try await services.morse.finish(&session, at: clockNow)
}

@Suite("momentum morse learn: receive and send training in the terminal")
struct MorseLearnCommandTests {
    @Test func aReceiveSessionRunsOnScriptedAnswersAndIsSavedWithItsAccuracy() async throws {
        let terminal = try TestTerminal()
        var script = try DrillScript(beginAt: .seconds(1))
        try script.answer()
        try script.answer(upperCase: true)
        try script.miss()
        try script.answer(wrong: "x")
        for _ in 0..<22 { try script.answer() }
        // The 27th item plays before 60 s; the minute of training ends at 61 s, inside its answer
        // time. Its answer comes after that and still counts, as it does in the browser.
        #expect(script.itemStart < .seconds(60))
        try script.answer(after: .milliseconds(2400))
        let events = ScriptedEvents(bytes: script.keys)
        let morse = RecordingMorsePlayer(events: events)
        let status = await terminal.run(
            ["morse", "learn", "receive", "--minutes", "1", "--seed", "1"], events: events, morse: morse)
        #expect(status == 0, "\(terminal.errors.text)")
        let lines = terminal.output.lines
        #expect(
            Array(lines.prefix(4)) == [
                "Receive · level 1 of 25 · the characters, newest first:",
                "  M  --",
                "  K  -.-",
                "Press Enter to begin (q ends).",
            ])
        #expect(Array(lines.dropFirst(4).prefix(27)) == script.feedback)
        #expect(lines.dropFirst(4).prefix(27).filter { $0.hasPrefix("✓") }.count == 25)
        let counts = Dictionary(grouping: script.items, by: \.self).mapValues(\.count)
        #expect(Set(script.items) == ["K", "M"])
        #expect(lines.contains("25 of 27 right (93 %)"))
        #expect(lines.contains { $0.hasPrefix("Per character: K ") && $0.contains("/\(counts["K"] ?? 0) · M ") })
        #expect(lines.last == "Saved 1 min of Morse practice.")

        // The introduction (M, then K), 27 items (the last answered after the end of time) and 2 replays.
        let sounds = morse.played
        #expect(sounds.count == 30)
        #expect(sounds[0].text == "M K")
        #expect(sounds[1].at == .seconds(1))
        // The miss is replayed the moment its answer time runs out, 3 s after its sound.
        #expect(sounds[4].text == script.items[2])
        #expect(sounds[4].at == sounds[3].at + sounds[3].duration + .seconds(3))
        // The wrong answer is replayed at once; the next item follows its replay and 1 s of calm.
        #expect(sounds[6].text == script.items[3])
        #expect(sounds[6].at == sounds[5].at + .milliseconds(1100))
        #expect(sounds[7].at == sounds[6].at + sounds[6].duration + .seconds(1))

        let services = try await MomentumServices.open(dataDirectory: terminal.directory.url, device: "check")
        let records = try await services.practiceLog.records()
        #expect(records.count == 1)
        #expect(records.first?.kind == .morse)
        #expect(records.first?.details["accuracy"] == "93%")
        #expect(records.first?.countedSeconds == 60)
        await #expect(try services.morse.sessions().map(\.attempts) == [27])
    }

    @Test func onABandEachItemIsTheBandsSoundByItsHandAndTheAnswerTimeStartsWhenItEnds() async throws {
        let terminal = try TestTerminal()
        // Enter begins; no answers: each item is missed when its answer time runs out.
        let events = ScriptedEvents(keys: [(.seconds(1), "\n"), (.seconds(20), "q")])
        let morse = RecordingMorsePlayer(events: events)
        let status = await terminal.run(
            ["morse", "learn", "receive", "--seed", "3", "--conditions", "weak-dx"], events: events, morse: morse)
        #expect(status == 0, "\(terminal.errors.text)")
        let sounds = morse.played
        let band = morse.onBand
        // Items on the band (the introduction and the replays of misses are clean).
        #expect(band.count >= 2)
        #expect(band.allSatisfy { $0.band.signalToNoise == 0 && $0.band.fist == .steady && $0.band.chirp == 30 })
        let first = try #require(sounds.firstIndex { $0.at == .seconds(1) })
        #expect(sounds[first].text == band[0].text)
        // A heavy fist: not the book's length.
        let keyer = MorseKeyer(timing: try MorseTiming(characterWPM: 20, effectiveWPM: 13))
        let book = keyer.keying(try MorseDrillItem(symbols: MorseText(sounds[first].text).words.flatMap { $0 }))
        #expect(sounds[first].duration != book.duration)
        // The miss is replayed (clean, the book's length) when the answer time runs out: 3 s after
        // the band's sound, as long as its elements, ended.
        #expect(sounds[first + 1].at == sounds[first].at + sounds[first].duration + .seconds(3))
        #expect(sounds[first + 1].duration == book.duration)
        // A band that is not there: one line, nothing started.
        let other = try TestTerminal()
        #expect(await other.run(["morse", "learn", "receive", "--conditions", "stormy"]) != 0)
        #expect(
            other.errors.text
                == "momentum: There are no conditions called “stormy”: choose clean, average-evening, contest or weak-dx.\n"
        )
    }

    @Test func keysTypedWhileAMissIsReplayedAnswerTheNextItem() async throws {
        let terminal = try TestTerminal()
        var script = try DrillScript(beginAt: .seconds(1))
        let missed = try script.playing()
        try script.answer(wrong: "x")
        // Typed during the replay of the miss (it starts at the Enter, 2.1 s): the next item's
        // answer, Enter included. The replay and the calm keep their length; the keys are typed
        // into the next item when it starts, so it is scored at once.
        let replayStart = Duration.milliseconds(2100)
        let next = try script.playing()
        script.press(next.text.lowercased() + "\n", at: replayStart + .milliseconds(100))
        // The item after it starts 1 s after it; q ends the session while it waits.
        script.press("q", at: script.itemStart + .seconds(2))
        let events = ScriptedEvents(bytes: script.keys)
        let morse = RecordingMorsePlayer(events: events)
        let status = await terminal.run(["morse", "learn", "receive", "--seed", "1"], events: events, morse: morse)
        #expect(status == 0, "\(terminal.errors.text)")
        let lines = terminal.output.lines
        #expect(Array(lines[4...5]) == ["✗ X — it was \(DrillScript.shown(missed))", "✓ \(DrillScript.shown(next))"])
        #expect(lines.contains("1 of 2 right (50 %)"))
        let sounds = morse.played
        // The replay of the miss sounded in full, then 1 s of calm, then the next item.
        #expect(sounds[2].text == missed.text && sounds[2].at == replayStart)
        #expect(sounds[3].text == next.text && sounds[3].at == replayStart + sounds[2].duration + .seconds(1))
        // Answered as it started (response time zero); the item after it follows 1 s later.
        #expect(sounds[4].at == sounds[3].at + .seconds(1))
    }

    @Test func pausingStopsTheSessionClockAndReplaysTheInterruptedItemUnscored() async throws {
        let terminal = try TestTerminal()
        var script = try DrillScript(beginAt: .seconds(1))
        try script.answer()
        // Paused while the second item waits for its answer; resumed 100 s later.
        script.press(" ", at: script.itemStart + .seconds(1))
        script.press(" ", at: script.itemStart + .seconds(101))
        script.itemStart += .seconds(101)
        try script.answer()
        script.press("q", at: script.itemStart + .milliseconds(500))
        let events = ScriptedEvents(bytes: script.keys)
        let morse = RecordingMorsePlayer(events: events)
        let status = await terminal.run(["morse", "learn", "receive", "--seed", "1"], events: events, morse: morse)
        #expect(status == 0, "\(terminal.errors.text)")
        #expect(
            terminal.output.text.contains(
                "\(script.feedback[0])\nPaused — space goes on.\n\(script.feedback[1])\nEnded early.\n"))
        #expect(terminal.output.text.contains("2 of 2 right (100 %)"))
        // The interrupted item plays again on resume.
        #expect(morse.played.map(\.at).contains(.milliseconds(104_100)))
        let records = try await MomentumServices.open(dataDirectory: terminal.directory.url, device: "check")
            .practiceLog.records()
        // Training time: 3.1 s before the pause and 2.6 s after it — under a minute, so not logged.
        #expect(records.isEmpty)
        #expect(terminal.output.text.contains("Not in the log: 6 s is under a minute."))
    }

    @Test func aSendSessionDecodesKeyedDitsAndDahsAfterTwoSecondsOfQuiet() async throws {
        let terminal = try TestTerminal()
        var keys: [(at: Duration, byte: UInt8)] = [(.seconds(1), 10)]
        func press(_ key: Character, _ seconds: Double) { keys.append((.seconds(seconds), key.asciiValue ?? 0)) }
        // Level 1 draws M twice as often as K whatever the answers; seed 2 draws M K M M K.
        // M keyed with - -
        press("-", 1.5)
        press("-", 1.7)
        // Complete at 3.7, next (K) at 4.7: F f J is U, not K.
        press("F", 5.0)
        press("f", 5.2)
        press("J", 5.4)
        // Complete at 7.4, K replayed, next (M) at 8.94: a dit cleared, then J J with a stray x.
        press(".", 9.3)
        keys.append((.seconds(9.5), 127))
        press("J", 9.8)
        press("x", 9.9)
        press("J", 10.0)
        // Complete at 12.0, next (M) at 13.0: .-.- is no character.
        press(".", 13.2)
        press("-", 13.4)
        press(".", 13.6)
        press("-", 13.8)
        // Complete at 15.8, M replayed, next (K) at 17.22.
        press("q", 18.0)
        let events = ScriptedEvents(bytes: keys)
        let morse = RecordingMorsePlayer(events: events)
        let status = await terminal.run(["morse", "learn", "send", "--seed", "2"], events: events, morse: morse)
        #expect(status == 0, "\(terminal.errors.text)")
        #expect(
            terminal.output.lines == [
                "Send · level 1 of 25 · the characters, newest first:",
                "  M  --",
                "  K  -.-",
                "Press Enter to begin (q ends).",
                "Send: M",
                "✓ M  --",
                "Send: K",
                "✗ you keyed ..- (U) — K is -.-",
                "Send: M",
                "“x” does not key: . or F = dit, - or J = dah",
                "✓ M  --",
                "Send: M",
                "✗ .-.- is no character — M is --",
                "Send: K",
                "Ended early.",
                "2 of 4 right (50 %)",
                "Per character: K 0/1 · M 2/3",
                "Level 1 stays · to move on: at least 20 answers (this time 4), at least 90 % right (this time 50 %), "
                    + "M at least 5 times (this time 3), M at least 90 % right (this time 66 %)",
                "Next practice: Sat 16 Jan at 09:00",
                "Not in the log: 17 s is under a minute. Your answers still count for the course.",
            ])
        #expect(
            morse.played.map(\.text) == [
                "M K", "-", "-", ".", ".", "-", "K", ".", "-", "-", ".", "-", ".", "-", "M",
            ])
        #expect(morse.played[1].duration == .milliseconds(180))
        #expect(morse.played[3].duration == .milliseconds(60))
        let services = try await MomentumServices.open(dataDirectory: terminal.directory.url, device: "check")
        await #expect(try services.morse.progress()[.send].schedule.lastPractice != nil)
        await #expect(try services.morse.sessions().first?.direction == .send)
        await #expect(try services.practiceLog.records().isEmpty)
    }

    @Test func unknownCharactersAndStrayKeysInAnswers() async throws {
        let terminal = try TestTerminal()
        var script = try DrillScript(beginAt: .seconds(1))
        // ä has no Morse code: it counts as a wrong character.
        try script.answer(wrong: "ä")
        // A tab and an arrow's escape-less bytes are no text; the character typed still counts.
        script.press("\t", at: script.itemStart + .milliseconds(900))
        try script.answer()
        // A stray Enter with nothing typed is not an answer: the item times out.
        script.press("\n", at: script.itemStart + .milliseconds(800))
        try script.miss()
        script.press("q", at: script.itemStart + .milliseconds(200))
        let events = ScriptedEvents(bytes: script.keys)
        let status = await terminal.run(["morse", "learn", "receive", "--seed", "1"], events: events)
        #expect(status == 0, "\(terminal.errors.text)")
        let lines = terminal.output.lines
        #expect(Array(lines[4...7]) == script.feedback + ["Ended early."])
        #expect(script.feedback[0].hasPrefix("✗ Ä — it was "))
        #expect(lines.contains("1 of 3 right (33 %)"))
    }

    @Test func endingDuringTheIntroductionSavesNothing() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["morse", "learn", "receive"], keys: [(.seconds(2), "q")])
        #expect(status == 0)
        #expect(terminal.output.lines.suffix(2) == ["Ended early.", "No answers, so nothing was saved."])
        let services = try await MomentumServices.open(dataDirectory: terminal.directory.url, device: "check")
        await #expect(try services.practiceLog.records().isEmpty)
        #expect(try services.sqlite.morseCourseJSON() == nil)
    }

    @Test func theSameSeedGivesTheSameDrillAndAnotherSeedAnother() async throws {
        func drill(seed: String) async throws -> [String] {
            let terminal = try TestTerminal()
            try await passReceiveLevelOne(in: terminal)
            let events = ScriptedEvents(keys: [(.seconds(1), "\n"), (.seconds(40), "q")])
            let morse = RecordingMorsePlayer(events: events)
            let status = await terminal.run(
                ["morse", "learn", "receive", "--seed", seed, "--group", "3"], events: events, morse: morse)
            #expect(status == 0, "\(terminal.errors.text)")
            return morse.played.map(\.text)
        }
        let first = try await drill(seed: "42")
        #expect(first.first == "R M K")
        #expect(first.count >= 8)
        #expect(first.dropFirst().allSatisfy { $0.count == 3 && $0.allSatisfy { "KMR".contains($0) } })
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

import Foundation
import MomentumCore
import MomentumServices

/// The keys that steer Morse training besides the answers.
///
/// Space pauses and resumes; Esc, Ctrl-C and Ctrl-D end. `q` ends and `p` pauses too, unless Q
/// or P is a character the level asks for: then it is an answer, and only Esc ends.
struct MorseTrainingKeys {
    static let enter: Set<UInt8> = [10, 13]
    static let backspace: Set<UInt8> = [8, 127]
    static let tab: UInt8 = 9

    let stop: Set<UInt8>
    let pause: Set<UInt8>
    /// How the stop key is named in the controls: `q` or `Esc`.
    let stopName: String

    /// The keys for a drill whose answers are typed from `answers` (none in send training);
    /// with a straight key, space is the key, so only `p` pauses.
    init(answers: [MorseSymbol], straightKey: Bool = false) {
        let typed = Set(answers.compactMap(\.character))
        var stop: Set<UInt8> = [27, 3, 4]
        var pause: Set<UInt8> = straightKey ? [] : [UInt8(ascii: " ")]
        if !typed.contains("Q") { stop.formUnion([UInt8(ascii: "q"), UInt8(ascii: "Q")]) }
        if !typed.contains("P") { pause.formUnion([UInt8(ascii: "p"), UInt8(ascii: "P")]) }
        self.stop = stop
        self.pause = pause
        stopName = typed.contains("Q") ? "Esc" : "q"
    }
}

/// Reads the bytes of typed keys as characters: ASCII at once, other characters once their
/// UTF-8 bytes are complete (an invalid sequence is dropped).
struct TypedCharacters {
    private var pending: [UInt8] = []

    mutating func read(_ byte: UInt8) -> Character? {
        if pending.isEmpty, byte < 0x80 { return Character(UnicodeScalar(byte)) }
        // A stray continuation byte cannot start a character.
        if pending.isEmpty, byte & 0xC0 == 0x80 { return nil }
        pending.append(byte)
        let lead = pending[0]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard pending.count >= length else { return nil }
        defer { pending = [] }
        return String(validating: pending, as: UTF8.self).flatMap(\.first)
    }
}

/// The shared texts of receive and send training.
enum MorseTrainingText {
    /// The symbols written with their patterns: `K  -.-`, for a group `KM  -.- --`.
    static func patterns(of item: MorseDrillItem) -> String {
        item.symbols.map(\.patternText).joined(separator: " ")
    }

    /// The introduction: the level and each unlocked character with its pattern, newest first.
    static func introduction(of session: MorseSession, controls keys: MorseTrainingKeys, catalog: StringCatalog)
        -> [String]
    {
        let direction = session.direction == .receive ? catalog[.morseDirectionReceive] : catalog[.morseDirectionSend]
        var lines = [
            catalog.format(
                .morseLearnIntroduction,
                ["direction": direction, "level": "\(session.level)", "count": "\(session.order.levels.upperBound)"])
        ]
        lines += session.introduction.map { "  \($0.displayText)  \($0.patternText)" }
        lines.append(catalog.format(.morseLearnStart, ["stop": keys.stopName]))
        return lines
    }

    /// The feedback on a receive attempt: ✓, or ✗ with the right text and its pattern.
    static func receiveFeedback(_ attempt: MorseAttempt, catalog: StringCatalog) -> String {
        let arguments = ["character": attempt.item.text, "pattern": patterns(of: attempt.item)]
        if attempt.score.isCorrect { return catalog.format(.morseLearnCorrect, arguments) }
        guard let answer = attempt.answer else { return catalog.format(.morseLearnMissed, arguments) }
        let shown = answer.filter { !$0.isWhitespace }.uppercased()
        return catalog.format(.morseLearnWrong, arguments.merging(["answer": shown]) { $1 })
    }

    /// The feedback on a keyed character: ✓, or ✗ with what was keyed and the right pattern.
    static func sendFeedback(
        _ attempt: MorseAttempt, keyed: MorseKeyedCharacter<ContinuousClock.Instant>, catalog: StringCatalog
    ) -> String {
        let expected = patterns(of: attempt.item)
        if attempt.score.isCorrect {
            return catalog.format(.morseLearnCorrect, ["character": attempt.item.text, "pattern": expected])
        }
        // try?: a pattern of no symbol is what the "unknown" line says, showing the pattern keyed.
        guard let symbol = try? keyed.decoded() else {
            return catalog.format(
                .morseLearnSendUnknown,
                ["pattern": keyed.patternText, "character": attempt.item.text, "expected": expected])
        }
        return catalog.format(
            .morseLearnSendWrong,
            [
                "pattern": keyed.patternText, "answer": symbol.displayText, "character": attempt.item.text,
                "expected": expected,
            ])
    }

    /// How a straight-keyed answer was keyed: speed and weight, the gaps in the sender's dits
    /// next to the ARRL model's, and each character that read wrong with why.
    static func keying(_ report: MorseKeyingReport, catalog: StringCatalog) -> [String] {
        func one(_ value: Double) -> String { catalog.language.number(value, fractionDigits: 1) }
        let wpm = catalog.language.number(report.wpm, fractionDigits: 0)
        var lines = [
            report.ditDahRatio.map { catalog.format(.morseKeyingSummary, ["wpm": wpm, "ratio": one($0)]) }
                ?? catalog.format(.morseKeyingSpeed, ["wpm": wpm])
        ]
        let gaps: [(Double?, StringKey)] = [
            (report.elementGap, .morseKeyingGapElement), (report.characterGap, .morseKeyingGapCharacter),
            (report.wordGap, .morseKeyingGapWord),
        ]
        let written = gaps.compactMap { value, key in value.map { catalog.format(key, ["value": one($0)]) } }
        if !written.isEmpty {
            lines.append(
                catalog.format(.morseKeyingSpacing, ["gaps": written.joined(separator: catalog[.morseKeyingList])]))
        }
        for character in report.characters {
            let reason = character.reasons.map { catalog[$0.catalogKey] }.joined(separator: catalog[.morseKeyingAnd])
            let key: StringKey = character.readAs == character.expected ? .morseKeyingBecause : .morseKeyingReadsAs
            lines.append(
                catalog.format(key, ["expected": character.expected, "read": character.readAs, "reason": reason]))
        }
        return lines
    }

    /// How a finished session went: score, per character, the level, the next practice, what was saved.
    static func summary(
        _ finished: MorseCourseService.Finished, catalog: StringCatalog, timeZone: TimeZone
    ) -> [String] {
        let result = finished.result
        guard let accuracy = result.accuracy else { return [catalog[.morseSummaryNothing]] }
        var lines = [
            catalog.format(
                .morseSummaryScore,
                [
                    "correct": "\(result.correctCount)", "attempts": "\(result.attemptCount)",
                    "percent": "\(Int((accuracy * 100).rounded()))",
                ])
        ]
        let characters = result.order.symbols.filter { result.characterStatistics[$0] != nil }
        let list = characters.compactMap { symbol in
            result.characterStatistics[symbol].map { "\(symbol.displayText) \($0.correct)/\($0.attempts)" }
        }
        lines.append(catalog.format(.morseSummaryCharacters, ["list": list.joined(separator: " · ")]))
        let direction = finished.progress[result.direction]
        if result.earnsLevelUp {
            let unlocked = result.order.characters(atLevel: direction.level).map(\.displayText)
            lines.append(
                catalog.format(
                    .morseSummaryLevelUp,
                    ["level": "\(direction.level)", "characters": unlocked.joined(separator: " ")]))
        } else if result.level == result.order.levels.upperBound {
            lines.append(catalog[.morseSummaryLastLevel])
        } else {
            let newest = result.newestCharacter.displayText
            let shortfalls = result.levelRuleShortfalls.map { shortfall(in: $0, newest: newest, catalog: catalog) }
            lines.append(
                catalog.format(
                    .morseSummaryLevelStays,
                    ["level": "\(result.level)", "shortfalls": shortfalls.joined(separator: ", ")]))
        }
        if let next = direction.schedule.nextPractice {
            lines.append(
                catalog.format(
                    .morseSummaryNext,
                    [
                        "date": MorseDates.formatter(catalog: catalog, timeZone: timeZone)
                            .string(from: next)
                    ]))
        }
        if let logged = finished.loggedText(catalog: catalog) { lines.append(logged) }
        return lines
    }

    private static func shortfall(in shortfall: MorseLevelRule.Shortfall, newest: String, catalog: StringCatalog)
        -> String
    {
        switch shortfall {
        case .attempts(let have, let needed):
            catalog.format(.morseRuleAttempts, ["have": "\(have)", "needed": "\(needed)"])
        case .accuracy(let percent, let needed):
            catalog.format(.morseRuleAccuracy, ["percent": "\(percent)", "needed": "\(needed)"])
        case .newestAttempts(let have, let needed):
            catalog.format(.morseRuleNewestAttempts, ["character": newest, "have": "\(have)", "needed": "\(needed)"])
        case .newestAccuracy(let percent, let needed):
            catalog.format(
                .morseRuleNewestAccuracy, ["character": newest, "percent": "\(percent)", "needed": "\(needed)"])
        }
    }
}

/// How the course's dates read in the terminal: `Sun 17 Jan 08:00` (`So. 17. Jan. 08:00`).
enum MorseDates {
    static func formatter(catalog: StringCatalog, timeZone: TimeZone) -> DateFormatter {
        let dateFormat = DateFormatter()
        dateFormat.locale = catalog.language.locale
        dateFormat.timeZone = timeZone
        dateFormat.setLocalizedDateFormatFromTemplate("EEE d MMM HH:mm")
        return dateFormat
    }
}

/// What receive and send training share: the introduction, the loop that waits on the event
/// source for a key or the next deadline, and how an ending is said. Each player says what its
/// deadlines do (``advance(at:)``), what a key does, how it pauses and what its live line shows.
protocol MorseTrainingPlayer {
    var session: MorseSession { get set }
    var random: SeededRandomNumberGenerator { get set }
    var keyer: MorseKeyer { get }
    var sound: any MorseSoundPlayer { get }
    var events: any PlayerEventSource { get }
    /// The wall clock the session's instants come from.
    var wallClock: @Sendable () -> Date { get }
    var display: LiveDisplay { get set }
    var catalog: StringCatalog { get }
    var keys: MorseTrainingKeys { get }
    /// Acts on a deadline reached at `now`; `false` when the session's time ran out meanwhile.
    mutating func advance(at now: ContinuousClock.Instant) throws -> Bool
    /// Takes a key that is neither stop nor pause; `false` when the session's time ran out.
    mutating func handle(_ key: UInt8) throws -> Bool
    /// The straight key went down or came up; `false` when the session's time ran out.
    mutating func straightKey(down: Bool) throws -> Bool
    /// Pauses or resumes; `false` when the session's time ran out.
    mutating func togglePause() throws -> Bool
    mutating func drawLive(at now: ContinuousClock.Instant)
    /// The next instant something changes; `nil` waits for a key.
    func wakeUp(at now: ContinuousClock.Instant) -> ContinuousClock.Instant?
    /// Whether an item handed out in time is still waiting for its answer: when the training time
    /// runs out meanwhile, the session ends only once that answer is in (docs/morse.md).
    func isAwaitingAnswer(at now: ContinuousClock.Instant) -> Bool
}

extension MorseTrainingPlayer {
    /// A straight key is for send training; receive takes no notice of it.
    mutating func straightKey(down: Bool) throws -> Bool { true }

    /// Plays the session until its time is up or the person ends it; the session is then ready
    /// to be finished.
    mutating func play() async throws {
        for line in MorseTrainingText.introduction(of: session, controls: keys, catalog: catalog) { display.say(line) }
        let symbols = session.introduction.map(\.displayText).joined(separator: " ")
        // try?: every symbol's displayText reads back as that symbol, so only an introduction of
        // none fails (`nothingToSend`): there is nothing to play.
        if let keying = try? keyer.keying(symbols) { sound.play(keying, text: symbols) }
        while true {
            let now = events.now
            if session.phase == .training, session.isTimeUp(at: wallClock()), !isAwaitingAnswer(at: now) {
                return finish(.morseLearnTimeUp)
            }
            guard try advance(at: now) else { return finish(.morseLearnTimeUp) }
            drawLive(at: now)
            switch await events.next(until: wakeUp(at: now)) {
            case .tick:
                continue
            case nil:
                return finish(.morseLearnEnded)
            case .key(let key) where keys.stop.contains(key):
                return finish(.morseLearnEnded)
            case .key(let key) where keys.pause.contains(key):
                guard try togglePause() else { return finish(.morseLearnTimeUp) }
            case .key(let key):
                guard try handle(key) else { return finish(.morseLearnTimeUp) }
            case .straightKey(let down):
                guard try straightKey(down: down) else { return finish(.morseLearnTimeUp) }
            }
        }
    }

    /// `item` again (an interrupted one), or the next one drawn; `nil` once the time is up.
    mutating func item(_ item: MorseDrillItem?) throws -> MorseDrillItem? {
        if let item { return item }
        do {
            return try session.nextItem(at: wallClock(), using: &random)
        } catch MorseSessionError.timeIsUp {
            return nil
        }
    }

    /// Keeps `attempt`, shows `feedback` and replays a miss; the instant the next item is due,
    /// or `nil` when the time ran out before the attempt could count.
    mutating func record(_ attempt: MorseAttempt, feedback: String, at now: ContinuousClock.Instant) throws
        -> ContinuousClock.Instant?
    {
        do {
            try session.recordAnswer(attempt, answeredAt: wallClock())
        } catch MorseSessionError.timeIsUp {
            return nil
        }
        display.clear()
        display.say(feedback)
        var next = now.advanced(by: MorseReceiveTrial<ContinuousClock.Instant>.pauseAfterFeedback)
        if !attempt.score.isCorrect {
            let keying = keyer.keying(attempt.item)
            sound.play(keying, text: attempt.item.text)
            next = next.advanced(by: keying.duration)
        }
        return next
    }

    /// When the session's training time runs out, as an instant of the event source; `nil` once
    /// it has (an answer still waiting then sets the next wake-up on its own).
    func sessionEnd(at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        let remaining = session.remainingTime(at: wallClock())
        return remaining > .zero ? now.advanced(by: remaining) : nil
    }

    /// Says how the training ended; the live line goes.
    private mutating func finish(_ reason: StringKey) {
        display.clear()
        display.say(catalog[reason])
    }
}

extension MorseCharacterDiagnosis.Reason {
    /// The sentence part that says it (the web's `morse.keying.reason.*`).
    var catalogKey: StringKey {
        switch self {
        case .ditTooLong: .morseKeyingReasonDitTooLong
        case .dahTooShort: .morseKeyingReasonDahTooShort
        case .gapInsideTooLong: .morseKeyingReasonGapInsideTooLong
        case .runsIntoNext: .morseKeyingReasonRunsIntoNext
        case .wordGapTooShort: .morseKeyingReasonWordGapTooShort
        case .characterGapTooLong: .morseKeyingReasonCharacterGapTooLong
        case .elementsDiffer: .morseKeyingReasonElementsDiffer
        }
    }
}

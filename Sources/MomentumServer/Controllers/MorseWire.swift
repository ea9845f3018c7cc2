import Foundation
import MomentumCore
import MomentumServices

/// The JSON forms of the Morse routes. Sounds go out as the keyer's elements — key down or up for
/// so many milliseconds — which the browser schedules on its audio clock as they are.
enum MorseWire {
    /// Milliseconds to the microsecond: element durations are not whole milliseconds.
    static func milliseconds(_ duration: Duration) -> Double { (duration.inSeconds * 1_000_000).rounded() / 1000 }

    struct Symbol: Encodable {
        var text: String
        var pattern: String

        init(_ symbol: MorseSymbol) {
            text = symbol.displayText
            pattern = symbol.patternText
        }
    }

    /// One stretch of keying: the tone on or off for `ms` milliseconds.
    struct Element: Encodable {
        var on: Bool
        var ms: Double

        init(_ element: MorseElement) {
            on = element.isKeyDown
            ms = milliseconds(element.duration)
        }

        static func elements(of symbols: [MorseSymbol], keyer: MorseKeyer) -> [Element] {
            keyer.elements(forWord: symbols).map(Element.init)
        }
    }

    struct Tone: Encodable {
        var hertz: Double
        var riseMs: Double
    }

    struct Introduction: Encodable {
        var symbol: Symbol
        var elements: [Element]
    }

    /// The item waiting for an answer. Receive: its sound, not its text. Send: its text, not its
    /// pattern (SPEC §7: no pattern hint).
    ///
    /// It carries its time windows, the core's (SPEC §7), so the browser keeps no copy: receive,
    /// `answerWindowMs` to answer after the sound ends; send, `completionPauseMs` of silence after
    /// which a keyed character is complete.
    struct Item: Encodable {
        var characterCount: Int
        var elements: [Element]?
        /// Receive on a band: the item's sound as the band makes it (`GET …/item.wav`), which the
        /// page plays instead of keying `elements` itself; they are the same elements, keyed by the
        /// band's hand, and the answer window starts when they end.
        var audio: String?
        var text: String?
        var answerWindowMs: Int64?
        var completionPauseMs: Int64?
    }

    /// The answer just scored, with the right text and patterns and its sound to replay a miss.
    struct Attempt: Encodable {
        struct CharacterResult: Encodable {
            var symbol: Symbol
            var isCorrect: Bool
        }
        var sent: String
        var symbols: [Symbol]
        var answer: String?
        var isCorrect: Bool
        var accuracy: Double
        var responseMs: Int64?
        var characters: [CharacterResult]
        var elements: [Element]

        init(_ attempt: MorseAttempt, keyer: MorseKeyer) {
            sent = attempt.item.text
            symbols = attempt.item.symbols.map(Symbol.init)
            answer = attempt.answer
            isCorrect = attempt.score.isCorrect
            accuracy = (attempt.score.accuracy * 1000).rounded() / 1000
            responseMs = attempt.responseTime?.wholeMilliseconds
            characters = attempt.score.characterResults.map {
                CharacterResult(symbol: Symbol($0.symbol), isCorrect: $0.isCorrect)
            }
            elements = Element.elements(of: attempt.item.symbols, keyer: keyer)
        }
    }

    struct Session: Encodable {
        var id: String
        var direction: MorseDirection
        var order: KochOrder
        var level: Int
        var phase: MorseSession.Phase
        var lengthMs: Int64
        var trainingMs: Int64
        var remainingMs: Int64
        var isTimeUp: Bool
        var characters: [Symbol]
        var newest: Symbol
        var introduction: [Introduction]
        var tone: Tone
        /// The band receive items are heard on (`clean` in send training).
        var conditions: MorseBandConditions.Preset
        var item: Item?
        var lastAttempt: Attempt?
        /// How the last answer was keyed (signals only): speed, weight, spacing, what went wrong.
        var lastKeying: MorseKeyingReport?
        var attempts: Int
        var correct: Int
        /// The calm after the feedback on an answer (or after the replay of a miss) before the
        /// next item: the core's, as the terminal keeps it.
        var pauseAfterFeedbackMs: Int64 = MorseReceiveTrial<ContinuousClock.Instant>.pauseAfterFeedback
            .wholeMilliseconds

        init(_ training: MorseTraining, at instant: Date) {
            let session = training.session
            let keyer = training.settings.keyer
            id = training.id.uuidString.lowercased()
            direction = session.direction
            order = session.order
            level = session.level
            phase = session.phase
            lengthMs = session.length.wholeMilliseconds
            trainingMs = min(session.trainingTime(at: instant), session.length).wholeMilliseconds
            remainingMs = max(session.remainingTime(at: instant), .zero).wholeMilliseconds
            isTimeUp = session.isTimeUp(at: instant)
            characters = session.drill.characters.map(Symbol.init)
            newest = Symbol(session.newestCharacter)
            introduction = session.introduction.map {
                Introduction(symbol: Symbol($0), elements: Element.elements(of: [$0], keyer: keyer))
            }
            tone = Tone(hertz: training.settings.tone.hertz, riseMs: milliseconds(training.settings.tone.rise))
            conditions = training.conditions
            let band = training.bandItem
            item = training.item.map { item in
                switch session.direction {
                case .receive:
                    Item(
                        characterCount: item.symbols.count,
                        elements: band.map { $0.elements.map(Element.init) }
                            ?? Element.elements(of: item.symbols, keyer: keyer),
                        audio: band.map {
                            "/api/v1/morse/sessions/\(training.id.uuidString.lowercased())/item.wav?item=\($0.number)"
                        },
                        answerWindowMs: MorseReceiveTrial<ContinuousClock.Instant>.answerTime.wholeMilliseconds)
                case .send:
                    Item(
                        characterCount: item.symbols.count, text: item.text,
                        completionPauseMs: MorseKeyedCharacter<ContinuousClock.Instant>.completionPause
                            .wholeMilliseconds)
                }
            }
            lastAttempt = training.lastAttempt.map { Attempt($0, keyer: keyer) }
            lastKeying = training.lastKeying
            attempts = session.attempts.reduce(0) { $0 + $1.score.characterResults.count }
            correct = session.attempts.reduce(0) { $0 + $1.score.characterResults.filter(\.isCorrect).count }
        }
    }

    /// A finished session: what it came to, whether the level went up, and the course after it.
    struct Ending: Encodable {
        struct CharacterResult: Encodable {
            var symbol: Symbol
            var attempts: Int
            var correct: Int
        }
        var session: Session
        var attempts: Int
        var correct: Int
        var accuracy: Double?
        var trainingMs: Int64
        /// `trainingMs` in words (the core's `DurationFormatting.words`), in the request's language.
        var trainingText: String
        var level: Int
        var nextLevel: Int
        var leveledUp: Bool
        /// The course kept the session (it had answers): progress and history moved.
        var saved: Bool
        /// The practice log got a record (a minute or more of training; README, "What gets logged").
        var logged: Bool
        /// What reached the log, in words, or why nothing did; absent without answers.
        var loggedText: String?
        var characters: [CharacterResult]
        var progress: MorseCourseProgress.JSONForm
        var record: PracticeRecord?

        init(
            training: MorseTraining, finished: MorseCourseService.Finished, overview: MorseCourseProgress.JSONForm,
            at instant: Date, language: Language
        ) {
            let result = finished.result
            session = Session(training, at: instant)
            attempts = result.attemptCount
            correct = result.correctCount
            accuracy = result.accuracy.map { ($0 * 1000).rounded() / 1000 }
            trainingMs = result.trainingTime.wholeMilliseconds
            trainingText = DurationFormatting.words(.milliseconds(trainingMs), language: language)
            level = result.level
            nextLevel = finished.progress[result.direction].level
            leveledUp = nextLevel > level
            saved = finished.isKept
            logged = finished.record != nil
            loggedText = finished.loggedText(catalog: .shared(for: language))
            characters = training.session.drill.characters.compactMap { symbol in
                guard let statistics = result.characterStatistics[symbol], statistics.attempts > 0 else { return nil }
                return CharacterResult(
                    symbol: Symbol(symbol), attempts: statistics.attempts, correct: statistics.correct)
            }
            progress = overview
            record = finished.record
        }
    }

    struct HistoryLine: Encodable {
        var id: String
        var direction: MorseDirection
        var order: KochOrder
        var level: Int
        var nextLevel: Int
        var startedAt: Date
        var endedAt: Date
        var trainingMs: Int64
        var attempts: Int
        var correct: Int

        init(_ summary: MorseSessionSummary) {
            id = summary.id.uuidString.lowercased()
            direction = summary.direction
            order = summary.order
            level = summary.level
            nextLevel = summary.nextLevel
            startedAt = summary.startedAt
            endedAt = summary.endedAt
            trainingMs = summary.trainingMilliseconds
            attempts = summary.attempts
            correct = summary.correct
        }
    }

    struct History: Encodable {
        var sessions: [HistoryLine]
    }
}

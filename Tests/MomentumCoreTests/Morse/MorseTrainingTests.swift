import Testing

@testable import MomentumCore

@Suite("Morse training steps: the receive answer window, keyed characters, drill keying, level shortfalls")
struct MorseTrainingTests {
    typealias Instant = ContinuousClock.Instant
    let start = ContinuousClock().now
    let k: MorseSymbol
    let m: MorseSymbol

    init() throws {
        k = try #require(MorseCode.symbol(for: "K"))
        m = try #require(MorseCode.symbol(for: "M"))
    }

    func at(_ seconds: Double) -> Instant { start.advanced(by: .milliseconds(Int64((seconds * 1000).rounded()))) }

    @Test func theAnswerTimeStartsWhenTheSoundEndsAndLastsThreeSeconds() {
        let trial = MorseReceiveTrial(
            item: MorseDrillItem(symbols: [k]), startedAt: start, soundDuration: .milliseconds(540))
        #expect(trial.isSounding(at: at(0.5)))
        #expect(!trial.isSounding(at: at(0.54)))
        #expect(trial.remainingAnswerTime(at: at(0.2)) == .seconds(3))
        #expect(trial.remainingAnswerTime(at: at(1.54)) == .seconds(2))
        #expect(trial.deadline == at(3.54))
        #expect(!trial.isTimedOut(at: at(3.5)))
        #expect(trial.isTimedOut(at: at(3.54)))
        #expect(trial.remainingAnswerTime(at: at(9)) == .zero)
    }

    @Test func enterSubmitsWhatWasTypedTimedFromTheEndOfTheSound() throws {
        var trial = MorseReceiveTrial(
            item: MorseDrillItem(symbols: [k]), startedAt: start, soundDuration: .seconds(0.5))
        #expect(trial.submitted(at: at(1)) == nil, "a stray Enter is not an answer")
        trial.type(" ")
        #expect(trial.submitted(at: at(1)) == nil)
        trial.type("m")
        trial.deleteLast()
        trial.type("k")
        trial.type("\u{1B}")
        #expect(trial.typed == " k")
        let attempt = try #require(trial.submitted(at: at(1.5)))
        #expect(attempt.score.isCorrect)
        #expect(attempt.responseTime == .seconds(1))
        // Typed while the item still sounded: an instant answer.
        #expect(trial.submitted(at: at(0.2))?.responseTime == .zero)
    }

    @Test func noAnswerInTheAnswerTimeIsAMissButTypedTextStillCounts() {
        var trial = MorseReceiveTrial(
            item: MorseDrillItem(symbols: [k]), startedAt: start, soundDuration: .seconds(0.5))
        let missed = trial.timedOut()
        #expect(missed.answer == nil)
        #expect(missed.responseTime == nil)
        #expect(!missed.score.isCorrect)
        trial.type("K")
        #expect(trial.timedOut().answer == "K")
        #expect(trial.timedOut().score.isCorrect)
    }

    @Test func aKeyedCharacterIsCompleteTwoSecondsAfterItsLastElementAndDecodes() throws {
        var keyed = MorseKeyedCharacter<Instant>(promptedAt: start)
        #expect(keyed.completesAt == nil)
        #expect(keyed.attempt(for: MorseDrillItem(symbols: [k])) == nil)
        keyed.key(.dah, at: at(1))
        keyed.key(.dit, at: at(1.3))
        #expect(keyed.completesAt == at(3.3))
        keyed.key(.dah, at: at(2.5))
        #expect(!keyed.isComplete(at: at(4)))
        #expect(keyed.isComplete(at: at(4.5)))
        #expect(keyed.patternText == "-.-")
        #expect(try keyed.decoded() == k)
        let attempt = try #require(keyed.attempt(for: MorseDrillItem(symbols: [k])))
        #expect(attempt.score.isCorrect)
        #expect(attempt.responseTime == .seconds(2.5))
        #expect(keyed.attempt(for: MorseDrillItem(symbols: [m]))?.score.isCorrect == false)
    }

    @Test func aPatternOfNoCharacterIsAWrongAnswerAndClearingStartsOver() throws {
        var keyed = MorseKeyedCharacter<Instant>(promptedAt: start)
        for mark in [MorseMark.dit, .dah, .dit, .dah] { keyed.key(mark, at: at(1)) }
        #expect(throws: MorseDecodingError.unknownPattern(".-.-")) { try keyed.decoded() }
        #expect(keyed.attempt(for: MorseDrillItem(symbols: [k]))?.answer == "*")
        #expect(keyed.attempt(for: MorseDrillItem(symbols: [k]))?.score.isCorrect == false)
        keyed.clear()
        #expect(keyed.marks.isEmpty)
        #expect(keyed.completesAt == nil)
        #expect(throws: MorseDecodingError.emptyPattern) { try keyed.decoded() }
    }

    @Test(
        arguments: [
            (Character("."), MorseMark.dit), ("f", .dit), ("F", .dit), ("-", .dah), ("j", .dah), ("J", .dah),
        ] as [(Character, MorseMark)])
    func sendKeysAreDotFForDitsAndDashJForDahs(_ key: Character, _ mark: MorseMark) {
        #expect(MorseMark(key: key) == mark)
    }

    @Test func otherKeysAreNoMark() {
        for key in ["x", " ", "k", "_", "\n"] as [Character] { #expect(MorseMark(key: key) == nil) }
    }

    @Test func aDrillItemIsKeyedAsOneWord() throws {
        let keyer = MorseKeyer(timing: try MorseTiming(characterWPM: 20, effectiveWPM: 20))
        let single = keyer.keying(MorseDrillItem(symbols: [k]))
        #expect(single.duration == .milliseconds(540))
        let group = keyer.keying(MorseDrillItem(symbols: [k, m]))
        #expect(group.elements == (try keyer.keying("KM")).elements)
        #expect(keyer.keying(.dah).duration == .milliseconds(180))
        #expect(keyer.keying(.dit).elements.map(\.kind) == [.dit])
    }

    @Test func theShortfallsSayWhatALevelUpStillNeeds() {
        #expect(
            MorseLevelRule.shortfalls(attempts: 14, correct: 12, newestAttempts: 6, newestCorrect: 6) == [
                .attempts(have: 14, needed: 20), .accuracy(percent: 85, needed: 90),
            ])
        #expect(
            MorseLevelRule.shortfalls(attempts: 20, correct: 19, newestAttempts: 4, newestCorrect: 3) == [
                .newestAttempts(have: 4, needed: 5), .newestAccuracy(percent: 75, needed: 90),
            ])
        #expect(MorseLevelRule.shortfalls(attempts: 20, correct: 18, newestAttempts: 5, newestCorrect: 5).isEmpty)
        #expect(MorseLevelRule.shortfalls(attempts: 0, correct: 0, newestAttempts: 0, newestCorrect: 0).count == 4)
    }

    @Test(
        arguments: [
            (19, 19, 5, 5), (20, 18, 5, 5), (20, 19, 5, 4), (20, 17, 5, 5), (20, 20, 4, 4), (30, 27, 10, 9),
        ] as [(Int, Int, Int, Int)])
    func noShortfallExactlyWhenTheRuleIsMet(_ attempts: Int, _ correct: Int, _ newest: Int, _ newestCorrect: Int) {
        #expect(
            MorseLevelRule.shortfalls(
                attempts: attempts, correct: correct, newestAttempts: newest, newestCorrect: newestCorrect
            ).isEmpty
                == MorseLevelRule.isMet(
                    attempts: attempts, correct: correct, newestAttempts: newest, newestCorrect: newestCorrect))
    }
}

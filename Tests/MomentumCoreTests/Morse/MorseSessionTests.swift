import Foundation
import Testing

@testable import MomentumCore

@Suite("Morse sessions: introduction → training ⇄ paused → completed, timed by training time")
struct MorseSessionTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }

    static func session(level: Int = 1, length: Duration = .minutes(5)) throws -> MorseSession {
        try MorseSession(direction: .receive, order: .standard, level: level, length: length, at: start)
    }

    @Test func theIntroductionPresentsTheUnlockedCharactersNewestFirst() throws {
        let session = try Self.session(level: 3)
        #expect(session.introduction.map(\.displayText) == ["S", "R", "M", "K"])
        #expect(session.newestCharacter.displayText == "S")
        #expect(session.phase == .introduction)
        #expect(session.length == MorseSession.defaultLength)
    }

    @Test func pausesDoNotCountTowardsTheLength() throws {
        var session = try Self.session()
        try session.startTraining(at: Self.at(30))  // the introduction took 30 s
        #expect(session.trainingTime(at: Self.at(90)) == .seconds(60))
        try session.pause(at: Self.at(90))
        #expect(session.trainingTime(at: Self.at(1000)) == .seconds(60))
        try session.resume(at: Self.at(1000))
        #expect(session.remainingTime(at: Self.at(1100)) == .seconds(140))
        #expect(!session.isTimeUp(at: Self.at(1239)))
        #expect(session.isTimeUp(at: Self.at(1240)))
    }

    @Test func anAnswerArrivingAfterTheTimeRanOutCountsJustBeforeIt() throws {
        var session = try Self.session(length: .minutes(1))
        try session.startTraining(at: Self.at(0))
        try session.pause(at: Self.at(20))
        try session.resume(at: Self.at(100))
        #expect(session.answerInstant(forAnswerAt: Self.at(110)) == Self.at(110))
        let late = session.answerInstant(forAnswerAt: Self.at(150))
        #expect(late == Self.at(139.999))
        let item = MorseDrillItem(symbols: [session.newestCharacter])
        try session.record(MorseAttempt(item: item, answer: "M", responseTime: nil), at: late)
        #expect(session.attempts.count == 1)
        #expect(session.isTimeUp(at: Self.at(140)))
        _ = try session.end(at: Self.at(150))
        #expect(session.answerInstant(forAnswerAt: Self.at(200)) == Self.at(200))
    }

    @Test func recordAnswerIsTheOneRuleForALateAnswerInEveryFrontEnd() throws {
        var session = try Self.session(length: .minutes(1))
        try session.startTraining(at: Self.at(0))
        let item = MorseDrillItem(symbols: [session.newestCharacter])
        try session.recordAnswer(MorseAttempt(item: item, answer: "M", responseTime: nil), answeredAt: Self.at(30))
        // The time ran out at 60 s; the answer to the item shown before that still counts.
        try session.recordAnswer(MorseAttempt(item: item, answer: "X", responseTime: nil), answeredAt: Self.at(62))
        #expect(session.attempts.map(\.answer) == ["M", "X"])
        // Recorded within the training time: the session's time is not stretched by it.
        let result = try session.end(at: Self.at(63))
        #expect(result.endedAt == Self.at(60))
    }

    @Test func theSessionEndsWhenItsTrainingTimeIsUsedUp() throws {
        var session = try Self.session()
        try session.startTraining(at: Self.at(0))
        var random = SeededRandomNumberGenerator(seed: 1)
        #expect(throws: MorseSessionError.timeIsUp) { try session.nextItem(at: Self.at(300), using: &random) }
        let item = MorseDrillItem(symbols: session.introduction)
        #expect(throws: MorseSessionError.timeIsUp) {
            try session.record(MorseAttempt(item: item, answer: "MK", responseTime: .seconds(1)), at: Self.at(301))
        }
        #expect(session.attempts.isEmpty)
        let result = try session.end(at: Self.at(400))
        #expect(result.endedAt == Self.at(300))
        #expect(result.trainingTime == .minutes(5))
        #expect(session.phase == .completed)
        #expect(session.result == result)
    }

    @Test func theSessionEndsOnRequestFromAnyPhaseButCompleted() throws {
        var introduction = try Self.session()
        #expect(try introduction.end(at: Self.at(5)).attemptCount == 0)
        var paused = try Self.session()
        try paused.startTraining(at: Self.at(0))
        try paused.pause(at: Self.at(20))
        let result = try paused.end(at: Self.at(100))
        #expect(result.endedAt == Self.at(100))
        #expect(result.trainingTime == .seconds(20))
        #expect(result.accuracy == nil)
    }

    /// Does `action` at `instant`.
    static func perform(_ action: MorseSession.Action, on session: inout MorseSession, at instant: Date) throws {
        var random = SeededRandomNumberGenerator(seed: 1)
        switch action {
        case .startTraining: try session.startTraining(at: instant)
        case .pause: try session.pause(at: instant)
        case .resume: try session.resume(at: instant)
        case .nextItem: _ = try session.nextItem(at: instant, using: &random)
        case .record:
            let item = MorseDrillItem(symbols: session.introduction)
            try session.record(MorseAttempt(item: item, answer: nil, responseTime: nil), at: instant)
        case .end: _ = try session.end(at: instant)
        }
    }

    @Test(
        arguments: [
            ([], MorseSession.Action.pause, MorseSession.Phase.introduction),
            ([], .resume, .introduction),
            ([], .record, .introduction),
            ([], .nextItem, .introduction),
            ([.startTraining], .startTraining, .training),
            ([.startTraining], .resume, .training),
            ([.startTraining, .pause], .pause, .paused),
            ([.startTraining, .pause], .record, .paused),
            ([.startTraining, .pause], .nextItem, .paused),
            ([.end], .end, .completed),
            ([.end], .startTraining, .completed),
            ([.startTraining, .end], .resume, .completed),
        ] as [([MorseSession.Action], MorseSession.Action, MorseSession.Phase)])
    func invalidTransitionsAreTypedErrors(
        _ steps: [MorseSession.Action], _ action: MorseSession.Action, _ phase: MorseSession.Phase
    ) throws {
        var session = try Self.session()
        for (index, step) in steps.enumerated() { try Self.perform(step, on: &session, at: Self.at(Double(index))) }
        let before = session
        #expect(throws: MorseSessionError.invalidTransition(from: phase, action: action)) {
            try Self.perform(action, on: &session, at: Self.at(10))
        }
        #expect(session == before)
    }

    @Test(
        arguments: [
            ([], MorseSession.Action.startTraining, MorseSession.Phase.training),
            ([], .end, .completed),
            ([.startTraining], .pause, .paused),
            ([.startTraining], .nextItem, .training),
            ([.startTraining], .record, .training),
            ([.startTraining], .end, .completed),
            ([.startTraining, .pause], .resume, .training),
            ([.startTraining, .pause], .end, .completed),
        ] as [([MorseSession.Action], MorseSession.Action, MorseSession.Phase)])
    func validTransitionsLeadToTheirPhase(
        _ steps: [MorseSession.Action], _ action: MorseSession.Action, _ phase: MorseSession.Phase
    ) throws {
        var session = try Self.session()
        for (index, step) in steps.enumerated() { try Self.perform(step, on: &session, at: Self.at(Double(index))) }
        try Self.perform(action, on: &session, at: Self.at(10))
        #expect(session.phase == phase)
        #expect(session.attempts.count == (action == .record ? 1 : 0))
    }

    @Test func anInstantBeforeTheLastEventIsRefused() throws {
        var session = try Self.session()
        try session.startTraining(at: Self.at(10))
        #expect(throws: MorseSessionError.instantBeforeLastEvent) { try session.pause(at: Self.at(9)) }
        #expect(throws: MorseSessionError.lengthOutOfRange(.seconds(30))) { try Self.session(length: .seconds(30)) }
    }

    /// Plays a whole session: answers right except for every `missEvery`-th item, one item every 3 s.
    static func play(seed: UInt64, missEvery: Int, level: Int = 1) throws -> (MorseSessionResult, [String]) {
        var session = try Self.session(level: level)
        var random = SeededRandomNumberGenerator(seed: seed)
        try session.startTraining(at: Self.at(0))
        var seconds = 0.0
        var items: [String] = []
        while !session.isTimeUp(at: Self.at(seconds + 2)) {
            let item = try session.nextItem(at: Self.at(seconds), using: &random)
            items.append(item.text)
            let answer = items.count % missEvery == 0 ? "X" : item.text.lowercased()
            try session.record(
                MorseAttempt(item: item, answer: answer, responseTime: .seconds(2)), at: Self.at(seconds + 2))
            seconds += 3
        }
        return (try session.end(at: Self.at(seconds)), items)
    }

    @Test func aSeededSessionReplaysIdentically() throws {
        let (first, firstItems) = try Self.play(seed: 11, missEvery: 4)
        let (second, secondItems) = try Self.play(seed: 11, missEvery: 4)
        #expect(firstItems == secondItems)
        #expect(first == second)
        #expect(try Self.play(seed: 12, missEvery: 4).1 != firstItems)
        #expect(first.attemptCount == 100)
        #expect(first.correctCount == 75)
    }

    @Test func theResultCountsPerCharacterAndEarnsTheLevelUp() throws {
        let (result, items) = try Self.play(seed: 5, missEvery: 20)
        #expect(result.attemptCount == 100)
        #expect(result.accuracy == 0.95)
        let m = try #require(MorseCode.symbol(for: "M"))
        let newest = try #require(result.characterStatistics[m])
        #expect(newest.attempts == items.filter { $0 == "M" }.count)
        #expect(newest.averageResponseTime == .seconds(2))
        #expect(result.earnsLevelUp)
        #expect(result.nextLevel == 2)
        #expect(try !Self.play(seed: 5, missEvery: 5).0.earnsLevelUp)
        // At the last level the rule can be met, but there is nothing to level up to.
        #expect(try !Self.play(seed: 5, missEvery: 20, level: 25).0.earnsLevelUp)
    }
}

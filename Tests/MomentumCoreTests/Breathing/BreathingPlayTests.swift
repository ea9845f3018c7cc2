import Foundation
import Testing

@testable import MomentumCore

@Suite("Breathing as played: the shape, the round, what is logged")
struct BreathingPlayTests {
    let plan = BreathingPlan(
        pattern: BreathingPattern(unchecked: 4, 2, 6, 0), length: .rounds(3), presetName: "Evening")

    func state(at seconds: Double) throws -> RunState {
        var run = TimelineRun<TestInstant>(timeline: try plan.timeline())
        try run.start(at: TestInstant.origin)
        return run.state(at: .at(.milliseconds(Int64(seconds * 1000))))
    }

    @Test func theShapeRestsEmptyWhileGettingReadyGrowsOnTheInhaleHoldsFullAndShrinksOnTheExhale() throws {
        // Three seconds to get ready: the shape waits, empty.
        #expect(BreathingPlan.shapeFill(try state(at: 0)) == 0)
        #expect(BreathingPlan.shapeFill(try state(at: 2.9)) == 0)
        #expect(BreathingPlan.shapeFill(try state(at: 3 + 0)) == 0)
        #expect(BreathingPlan.shapeFill(try state(at: 3 + 1)) == 0.25)
        #expect(BreathingPlan.shapeFill(try state(at: 3 + 3)) == 0.75)
        #expect(BreathingPlan.shapeFill(try state(at: 3 + 5)) == 1)
        #expect(BreathingPlan.shapeFill(try state(at: 3 + 7.5)) == 0.75)
        #expect(BreathingPlan.shapeFill(try state(at: 3 + 11.999)) < 0.001)
        #expect(BreathingPlan.shapeFill(try state(at: 3 + 12)) == 0)
        // Over: the shape rests empty.
        #expect(BreathingPlan.shapeFill(try state(at: 3 + 36)) == 0)
    }

    @Test func eachSegmentKnowsItsRoundWhetherOrNotHoldsAreZero() throws {
        // The get-ready, then 4-2-6-0: three segments a round.
        #expect((0..<10).map { plan.round(ofSegment: $0) } == [1, 1, 1, 1, 2, 2, 2, 3, 3, 3])
        let box = BreathingPlan(pattern: BreathingPattern(unchecked: 4, 4, 4, 4), length: .rounds(2))
        #expect((0..<9).map { box.round(ofSegment: $0) } == [1, 1, 1, 1, 1, 2, 2, 2, 2])
        #expect(try state(at: 3 + 13).segmentIndex == 4)
    }

    @Test func theLogKeepsThePresetPatternAndRounds() throws {
        #expect(plan.logDetails == ["preset": "Evening", "pattern": "4-2-6-0", "rounds": "3"])
        let own = BreathingPlan(pattern: BreathingPattern(unchecked: 4.5, 0, 6, 0), length: .minutes(1))
        #expect(own.logDetails == ["pattern": "4.5-0-6-0", "rounds": "6"])
    }
}

@Suite("What a practice of set length amounts to when it ends")
struct PracticeOutcomeTests {
    @Test func aMinuteOrMoreCountsAndOnlyAnEarlyStopAsks() throws {
        let total = Duration.seconds(300)
        #expect(PracticeOutcome(done: .seconds(300), of: total) == .completed(.seconds(300)))
        #expect(PracticeOutcome(done: .seconds(400), of: total) == .completed(.seconds(300)))
        #expect(PracticeOutcome(done: .seconds(60), of: total) == .stoppedEarly(.seconds(60)))
        #expect(PracticeOutcome(done: .milliseconds(59_999), of: total) == .tooShortToLog(.milliseconds(59_999)))
        #expect(PracticeOutcome(done: .seconds(30), of: .seconds(30)) == .completed(.seconds(30)))
        #expect(PracticeOutcome(done: .seconds(90), of: total).asksToKeep)
        #expect(!PracticeOutcome(done: .seconds(300), of: total).asksToKeep)
    }

    @Test func theRecordCarriesKindDetailsEnergyAndAnEarlyStopMark() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let early = try #require(
            try PracticeOutcome.stoppedEarly(.seconds(90)).record(
                id: UUID(), kind: .workout, start: start, end: start.addingTimeInterval(95), energyKilocalories: 18,
                details: ["program": "Tabata"], device: "d"))
        #expect(early.kind == .workout)
        #expect(early.countedSeconds == 90)
        #expect(early.energyKilocalories == 18)
        #expect(early.details == ["program": "Tabata", "stoppedEarly": "true"])
        #expect(
            try PracticeOutcome.tooShortToLog(.seconds(10)).record(
                id: UUID(), kind: .breathing, start: start, end: start, details: [:], device: "d") == nil)
    }
}

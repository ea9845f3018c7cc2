import Foundation
import Testing

@testable import MomentumCore

@Suite("Meditation sit: phases and what is logged")
struct MeditationSitTests {
    private func sit(_ plan: MeditationPlan) throws -> MeditationSit<TestInstant> {
        try MeditationSit(
            plan: plan, affirmations: Affirmations(rotationIndex: 0, catalog: .shared(for: .english)))
    }

    @Test func completedSitLogsOnlyTheMeditationSegment() throws {
        var sit = try sit(MeditationPlan(duration: .minutes(10), countdown: .seconds(15), reflection: .minutes(2)))
        try sit.start(at: .origin)
        try sit.pause(at: .at(.seconds(100)))
        try sit.resume(at: .at(.seconds(400)))
        let end = try #require(sit.run.endInstant)
        #expect(end == .at(.seconds(15 + 600 + 120 + 300)))
        #expect(sit.outcome(at: end) == .completed(meditated: .minutes(10)))
        // Stopping during the reflection still counts as a completed sit.
        #expect(try sit.stop(at: .at(.seconds(1000))) == .completed(meditated: .minutes(10)))
    }

    @Test func earlyStopAfterAMinuteAsksToKeepTheTimeMeditated() throws {
        var sit = try sit(MeditationPlan(duration: .minutes(10), countdown: .seconds(15)))
        try sit.start(at: .origin)
        let outcome = try sit.stop(at: .at(.seconds(15 + 200)))
        #expect(outcome == .stoppedEarly(meditated: .seconds(200)))
        #expect(outcome.asksToKeep)
    }

    @Test func thirtySecondEarlyStopLogsNothing() throws {
        var sit = try sit(MeditationPlan(duration: .minutes(10), countdown: .seconds(15)))
        try sit.start(at: .origin)
        let outcome = try sit.stop(at: .at(.seconds(45)))
        #expect(outcome == .tooShortToLog(meditated: .seconds(30)))
        let record = try outcome.record(
            id: UUID(), start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 45),
            plan: sit.plan, device: "test")
        #expect(record == nil)
    }

    @Test func exactlyOneMinuteIsEnoughToLog() throws {
        var sit = try sit(MeditationPlan(duration: .minutes(10), countdown: .zero))
        try sit.start(at: .origin)
        #expect(try sit.stop(at: .at(.seconds(60))) == .stoppedEarly(meditated: .seconds(60)))
    }

    @Test func openEndedSitLogsItsLengthAndEndsWithTheEndGong() throws {
        var sit = try sit(MeditationPlan(countdown: .seconds(10), isOpenEnded: true))
        try sit.start(at: .origin)
        #expect(sit.soundWhenFinishedByPerson == .endGong)
        let outcome = try sit.stop(at: .at(.seconds(10 + 1234)))
        #expect(outcome == .completed(meditated: .seconds(1234)))
        #expect(!outcome.asksToKeep)
    }

    @Test func completedRecordCarriesCountedSecondsAndDetails() throws {
        let plan = MeditationPlan(duration: .minutes(10), ambientID: "rain")
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let record = try #require(
            try MeditationOutcome.completed(meditated: .minutes(10))
                .record(
                    id: UUID(), start: start, end: start.addingTimeInterval(615), plan: plan, device: "terminal"))
        #expect(record.kind == .meditation)
        #expect(record.category == .mindfulness)
        #expect(record.countedSeconds == 600)
        #expect(record.details == ["ambient": "rain"])
    }

    @Test func phasesFollowTheTimeline() throws {
        var sit = try sit(MeditationPlan(duration: .minutes(1), countdown: .seconds(5), reflection: .minutes(1)))
        #expect(sit.phase(at: .origin) == .idle)
        try sit.start(at: .origin)
        #expect(sit.phase(at: .at(.seconds(1))) == .countdown)
        #expect(sit.affirmation(for: .countdown) == sit.affirmations.countdown)
        #expect(sit.phase(at: .at(.seconds(6))) == .meditation)
        #expect(sit.phase(at: .at(.seconds(66))) == .reflection)
        #expect(sit.phase(at: .at(.seconds(125))) == .completed)
        #expect(sit.affirmation(for: .completed) == nil)
    }
}

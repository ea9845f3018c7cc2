import Foundation
import Testing

@testable import MomentumCore

/// One rule decides what reaches the practice log, whatever the practice (README, "What gets
/// logged"): run to its planned end → logged; stopped after a minute or more → logged, marked
/// stopped early; stopped sooner → not logged.
@Suite("The practice log: one rule for every kind")
struct PracticeLogRuleTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    @Test func theRuleItself() {
        #expect(PracticeOutcome(done: .seconds(19), of: .minutes(4)) == .tooShortToLog(.seconds(19)))
        #expect(PracticeOutcome(done: .seconds(59.999), of: .minutes(4)) == .tooShortToLog(.seconds(59.999)))
        #expect(PracticeOutcome(done: .seconds(60), of: .minutes(4)) == .stoppedEarly(.seconds(60)))
        #expect(PracticeOutcome(done: .minutes(4), of: .minutes(4)) == .completed(.minutes(4)))
        // A practice shorter than a minute that runs to its end is logged: it was done in full.
        #expect(PracticeOutcome(done: .seconds(30), of: .seconds(30)) == .completed(.seconds(30)))
    }

    /// A Morse session of a few seconds with answers: not logged (it used to be), by the same rule.
    @Test func aMorseSessionFollowsTheRule() throws {
        func result(stoppedAfter seconds: Double) throws -> MorseSessionResult {
            var session = try MorseSession(
                direction: .receive, order: .standard, level: 1, length: .minutes(5), at: Self.t0)
            try session.startTraining(at: Self.t0)
            let item = MorseDrillItem(symbols: [session.newestCharacter])
            try session.recordAnswer(MorseAttempt(item: item, answer: "M", responseTime: nil), answeredAt: Self.at(1))
            return try session.end(at: Self.at(seconds))
        }
        #expect(try result(stoppedAfter: 3).outcome == .tooShortToLog(.seconds(3)))
        #expect(try result(stoppedAfter: 90).outcome == .stoppedEarly(.seconds(90)))
        #expect(try result(stoppedAfter: 400).outcome == .completed(.minutes(5)))
    }

    @Test func aFocusTimerFollowsTheRule() throws {
        func record(doneAfter seconds: Double?) throws -> PracticeRecord? {
            var timer = try FocusTimer(id: UUID(), name: "Read", sortOrder: 0, createdAt: Self.t0)
            try timer.start(at: Self.t0)
            if let seconds {
                try timer.complete(at: Self.at(seconds))
            } else {
                _ = timer.settle(at: Self.at(100_000))
            }
            return timer.completionRecord(id: UUID(), device: "d")
        }
        #expect(try record(doneAfter: 30) == nil)
        let early = try #require(try record(doneAfter: 600))
        #expect(early.countedSeconds == 600)
        #expect(early.details["stoppedEarly"] == "true")
        let ranOut = try #require(try record(doneAfter: nil))
        #expect(ranOut.countedSeconds == 1500)
        #expect(ranOut.details["stoppedEarly"] == nil)
    }

    @Test func listeningFollowsTheRule() {
        #expect(GuidedListening.outcome(listened: .seconds(30), finished: false) == .tooShortToLog(.seconds(30)))
        #expect(GuidedListening.outcome(listened: .seconds(90), finished: false) == .stoppedEarly(.seconds(90)))
        #expect(GuidedListening.outcome(listened: .seconds(30), finished: true) == .completed(.seconds(30)))
    }

    @Test func aSitFollowsTheRule() throws {
        let plan = MeditationPlan(duration: .minutes(10), countdown: .zero)
        var sit = try MeditationSit<TestInstant>(
            plan: plan, affirmations: Affirmations(rotationIndex: 0, catalog: .shared(for: .english)))
        try sit.start(at: .origin)
        #expect(sit.outcome(at: .at(.seconds(19))) == .tooShortToLog(meditated: .seconds(19)))
        #expect(sit.outcome(at: .at(.seconds(90))) == .stoppedEarly(meditated: .seconds(90)))
        #expect(sit.outcome(at: .at(.minutes(11))) == .completed(meditated: .minutes(10)))
    }
}

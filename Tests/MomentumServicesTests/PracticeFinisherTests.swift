import Foundation
import MomentumComposition
import MomentumCore
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

@testable import MomentumServices

/// Meditation, breathing and workouts end through one ``PracticeFinisher``: the same outcome logs
/// the same way whichever practice it was.
@Suite("Practice finisher: the three timed practices log by one rule")
struct PracticeFinisherTests {
    let directory: TemporaryDirectory
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))
    let services: MomentumServices

    init() async throws {
        directory = try TemporaryDirectory()
        let clock = self.clock
        services = try await MomentumServices.open(
            dataDirectory: directory.url, device: "test-device", now: { clock.now }, makeID: { UUID() })
    }

    enum Ended: Sendable, CaseIterable {
        case completed, stoppedEarly, tooShort, discarded
    }

    /// Ends a practice of `kind` with `ended`, having practised `seconds`, through its service.
    func finish(
        _ kind: PracticeKind, _ ended: Ended, seconds: Int, start: Date, soundInterruptions: [SoundInterruption] = []
    ) async throws -> PracticeEnding {
        let time = Duration.seconds(seconds)
        let keep = ended != .discarded
        let end = start.addingTimeInterval(TimeInterval(seconds))
        switch kind {
        case .meditation:
            let outcome: MeditationOutcome =
                switch ended {
                case .completed: .completed(meditated: time)
                case .stoppedEarly, .discarded: .stoppedEarly(meditated: time)
                case .tooShort: .tooShortToLog(meditated: time)
                }
            return try await services.meditation.finishSit(
                plan: MeditationPlan(duration: .minutes(10), countdown: .zero), outcome: outcome, startedAt: start,
                endedAt: end, keep: keep, soundInterruptions: soundInterruptions)
        case .breathing, .workout:
            let outcome: PracticeOutcome =
                switch ended {
                case .completed: .completed(time)
                case .stoppedEarly, .discarded: .stoppedEarly(time)
                case .tooShort: .tooShortToLog(time)
                }
            if kind == .breathing {
                return try await services.breathing.finishSession(
                    plan: BreathingPreset.builtIn[0].plan(catalog: .shared(for: .english)), outcome: outcome,
                    startedAt: start, endedAt: end, keep: keep, soundInterruptions: soundInterruptions)
            }
            return try await services.workouts.finishSession(
                plan: WorkoutPlan(), outcome: outcome, startedAt: start, endedAt: end, keep: keep,
                soundInterruptions: soundInterruptions)
        default:
            Issue.record("not a timed practice")
            throw CancellationError()
        }
    }

    @Test(arguments: [PracticeKind.meditation, .breathing, .workout])
    func everyTimedPracticeLogsByTheSameRule(kind: PracticeKind) async throws {
        let start = clock.now

        let tooShort = try await finish(kind, .tooShort, seconds: 59, start: start)
        #expect(tooShort.outcome == .tooShortToLog)
        #expect(tooShort.practiced == .seconds(59))
        #expect(tooShort.record == nil)
        #expect(!tooShort.isDiscarded)

        let discarded = try await finish(kind, .discarded, seconds: 120, start: start)
        #expect(discarded.outcome == .stoppedEarly)
        #expect(discarded.isDiscarded)
        #expect(discarded.record == nil)
        await #expect(try await services.practiceLog.records().isEmpty)

        let early = try await finish(kind, .stoppedEarly, seconds: 90, start: start)
        let earlyRecord = try #require(early.record)
        #expect(early.kind == kind)
        #expect(early.outcome == .stoppedEarly)
        #expect(early.practiced == .seconds(90))
        #expect(earlyRecord.kind == kind)
        #expect(earlyRecord.countedSeconds == 90)
        #expect(earlyRecord.details["stoppedEarly"] == "true")
        #expect(earlyRecord.start == start)
        #expect(earlyRecord.end == start.addingTimeInterval(90))
        #expect(earlyRecord.device == "test-device")

        let completed = try await finish(kind, .completed, seconds: 600, start: start)
        let completedRecord = try #require(completed.record)
        #expect(completed.outcome == .completed)
        #expect(completed.isLogged)
        #expect(completedRecord.countedSeconds == 600)
        #expect(completedRecord.details["stoppedEarly"] == nil)

        await #expect(
            try await services.practiceLog.records().map(\.id).sorted()
                == [earlyRecord.id, completedRecord.id].sorted())
    }

    @Test(arguments: [PracticeKind.meditation, .breathing, .workout])
    func everyTimedPracticeKeepsTheInterruptionsWorthTellingAlike(kind: PracticeKind) async throws {
        let start = clock.now
        let reported = try SoundInterruption.reported(milliseconds: [(400_000, 4000), (30_000, 500), (10_000, 2500)])
        let told = try SoundInterruption.reported(milliseconds: [(10_000, 2500), (400_000, 4000)])

        let completed = try await finish(kind, .completed, seconds: 600, start: start, soundInterruptions: reported)
        #expect(completed.soundInterruptions == told)
        let record = try #require(completed.record)
        #expect(record.details["soundInterruptions"] == "10000+2500,400000+4000")
        #expect(record.soundInterruptions == told)
        let logged = try #require(try await services.practiceLog.records().first { $0.id == record.id })
        #expect(logged.details["soundInterruptions"] == "10000+2500,400000+4000")

        // Not logged, yet the person still hears of them.
        let tooShort = try await finish(kind, .tooShort, seconds: 59, start: start, soundInterruptions: reported)
        #expect(tooShort.record == nil)
        #expect(tooShort.soundInterruptions == told)

        // None worth telling: nothing is added to the record.
        let quiet = try await finish(
            kind, .completed, seconds: 600, start: start,
            soundInterruptions: try SoundInterruption.reported(milliseconds: [(30_000, 1000)]))
        #expect(quiet.soundInterruptions.isEmpty)
        #expect(try #require(quiet.record).details["soundInterruptions"] == nil)
        let plain = try await finish(kind, .completed, seconds: 600, start: start)
        #expect(try #require(plain.record).details["soundInterruptions"] == nil)
    }

    @Test func withoutAReportedEndARecordEndsAtTheFinishersNow() async throws {
        let start = clock.now
        let later = start.addingTimeInterval(300)
        let finisher = PracticeFinisher(log: try services.sqlite, now: { later }, makeID: { UUID() }, device: "d")
        let ending = try await finisher.finish(
            .breathing(BreathingPreset.builtIn[0].plan(catalog: .shared(for: .english)), .completed(.seconds(300))),
            startedAt: start)
        #expect(ending.record?.end == later)
        #expect(ending.record?.device == "d")
    }
}

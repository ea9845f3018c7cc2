import Foundation
import MomentumCore
import MomentumStore
import MomentumStoreTestSupport
import Testing

@testable import MomentumServices

/// A clock the test moves by hand.
final class ManualWallClock: @unchecked Sendable {
    // Only touched from the test's own task; the lock keeps the type honest if that changes.
    private let lock = NSLock()
    private var current: Date
    init(_ start: Date) { current = start }
    var now: Date { lock.withLock { current } }
    func advance(by seconds: TimeInterval) { lock.withLock { current.addTimeInterval(seconds) } }
}

/// On every store (see ``StoreKind/available``).
@Suite("Meditation service: starting, finishing and logging sits")
struct MeditationServiceTests {
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))

    /// The services on a fresh store of `kind`.
    private func services(_ kind: StoreKind) async throws -> LogServices {
        let clock = self.clock
        return await LogServices(store: try StoreUnderTest(kind), device: "test-device", now: { clock.now })
    }

    @Test(arguments: StoreKind.available)
    func aSitEndsAtTheInstantTheFrontEndReportsNotTheServicesClock(kind: StoreKind) async throws {
        let services = try await services(kind)
        let plan = MeditationPlan(duration: .minutes(10), countdown: .zero)
        let sit = try await services.meditation.startSit(plan: plan, language: .english)
        let start = clock.now
        let reportedEnd = start.addingTimeInterval(300)
        clock.advance(by: 400)
        let record = try await #require(
            try services.meditation.finishSit(
                plan: sit.plan, outcome: .stoppedEarly(meditated: .seconds(300)), startedAt: start,
                endedAt: reportedEnd
            ).record)
        #expect(record.end == reportedEnd)
        #expect(record.countedSeconds == 300)
    }

    @Test(arguments: StoreKind.available)
    func aCompletedSitBecomesExactlyOneRecordWithTheMeditationSegmentCounted(kind: StoreKind) async throws {
        let services = try await services(kind)
        let plan = MeditationPlan(duration: .minutes(10), countdown: .seconds(15), reflection: .minutes(2))
        let sit = try await services.meditation.startSit(plan: plan, language: .english)
        let start = clock.now
        clock.advance(by: 15 + 600 + 120)
        let record = try await services.meditation.finishSit(
            plan: sit.plan, outcome: .completed(meditated: plan.duration), startedAt: start
        ).record
        let stored = try await services.practiceLog.records()
        #expect(stored.count == 1)
        #expect(stored.first == record)
        #expect(stored.first?.countedSeconds == 600)
        #expect(stored.first?.kind == .meditation)
        #expect(stored.first?.start == start)
        #expect(stored.first?.end == start.addingTimeInterval(735))
        #expect(stored.first?.device == "test-device")
    }

    @Test(arguments: StoreKind.available)
    func aThirtySecondEarlyStopRecordsNothing(kind: StoreKind) async throws {
        let services = try await services(kind)
        let plan = MeditationPlan(duration: .minutes(10), countdown: .zero)
        _ = try await services.meditation.startSit(plan: plan, language: .english)
        let start = clock.now
        clock.advance(by: 30)
        let record = try await services.meditation.finishSit(
            plan: plan, outcome: .tooShortToLog(meditated: .seconds(30)), startedAt: start
        ).record
        #expect(record == nil)
        await #expect(try services.practiceLog.records().isEmpty)
    }

    @Test(arguments: StoreKind.available)
    func aDiscardedEarlyStopRecordsNothing(kind: StoreKind) async throws {
        let services = try await services(kind)
        let plan = MeditationPlan()
        let record = try await services.meditation.finishSit(
            plan: plan, outcome: .stoppedEarly(meditated: .minutes(3)), startedAt: clock.now, keep: false
        ).record
        #expect(record == nil)
        await #expect(try services.practiceLog.records().isEmpty)
    }

    @Test(arguments: StoreKind.available)
    func startingASitRemembersThePlanAndTurnsTheAffirmations(kind: StoreKind) async throws {
        let services = try await services(kind)
        let plan = MeditationPlan(duration: .minutes(25), intervalGongs: .every(minutes: 5), ambientID: "ocean")
        let catalog = StringCatalog.shared(for: .german)
        var seen: [Affirmations] = []
        for _ in 0..<3 {
            seen.append(try await services.meditation.startSit(plan: plan, language: .german).affirmations)
        }
        #expect(seen == (0..<3).map { Affirmations(rotationIndex: $0, catalog: catalog) })
        let settings = try await services.settings.load()
        #expect(settings.meditation == plan)
        #expect(settings.affirmationRotation == 3)
    }

    @Test(arguments: StoreKind.available)
    func anInvalidPlanStoresNothing(kind: StoreKind) async throws {
        let services = try await services(kind)
        let before = try await services.settings.load()
        await #expect(throws: MeditationServiceError.invalidPlan(.countdownTooLong)) {
            try await services.meditation.startSit(plan: MeditationPlan(countdown: .seconds(99)), language: .english)
        }
        await #expect(try services.settings.load() == before)
    }
}

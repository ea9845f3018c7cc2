import Foundation
import MomentumCore
import MomentumStoreContract
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

@testable import MomentumServices

/// A page's focus-timer intents, done while the server was out of reach and sent later: each is
/// applied at its instant and merged by the sync rules, so the change made last wins, whenever it
/// arrives; sent twice, nothing happens twice.
@Suite("Focus timer intents: offline ticks and runs merged by the instant they were done")
struct FocusTimerIntentTests {
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))
    private let node = "w-0123456789abcdef"

    private struct Setup {
        let services: LogServices
        let intents: FocusTimerIntentService
        let sync: SyncService
    }

    private func setup(_ kind: StoreKind) async throws -> Setup {
        let clock = self.clock
        let services = await LogServices(store: try StoreUnderTest(kind), device: "web@home", now: { clock.now })
        let sync = SyncService(log: services.store.syncLog, now: { clock.now })
        return Setup(
            services: services,
            intents: FocusTimerIntentService(
                timers: services.focusTimers, sync: sync, now: { clock.now }),
            sync: sync)
    }

    private func at(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + seconds) }

    @Test(arguments: StoreKind.available)
    func theChangeMadeLastWinsWhateverArrivesLast(kind: StoreKind) async throws {
        let setup = try await setup(kind)
        let timers = setup.services.focusTimers
        let reading = try await timers.addTimer(name: "Reading", duration: .seconds(1500), items: ["water", "book"])
        let (water, book) = (reading.items[0].id, reading.items[1].id)
        try await timers.start(named: "Reading")
        clock.advance(by: 20)
        try await timers.setItem("water", ofTimer: "Reading", done: true)
        // The phone, offline: unticks water at +60 s, ticks book at +70 s, pauses at +120 s.
        let offline = [
            FocusTimerIntent(timer: reading.id, action: .tick(item: water, done: false), at: at(60)),
            FocusTimerIntent(timer: reading.id, action: .tick(item: book, done: true), at: at(70)),
            FocusTimerIntent(timer: reading.id, action: .pause, at: at(120)),
        ]
        // Another browser, online, later: unticks water at +150 s and ticks it again at +180 s.
        clock.advance(by: 130)
        try await timers.setItem("water", ofTimer: "Reading", done: false)
        clock.advance(by: 30)
        try await timers.setItem("water", ofTimer: "Reading", done: true)
        clock.advance(by: 120)
        let outcomes = try await setup.intents.apply(offline, node: node, device: "Anna’s phone")
        #expect(outcomes == [.superseded, .applied, .applied])
        let merged = try await timers.timer(named: "Reading")
        #expect(merged.items.map(\.done) == [true, true])
        #expect(merged.run == .paused(startedAt: at(0), pausedAt: at(120), elapsed: .seconds(120)))
        let pausedBy = try await setup.sync.lastChange(
            of: "run", in: SyncEntityKey(type: .focusTimer, id: reading.id.uuidString.lowercased()))
        #expect(pausedBy?.device == "Anna’s phone")
        #expect(pausedBy?.stamp.physical == at(120).syncMilliseconds)

        // The answer never arrived: sent again, nothing changes.
        clock.advance(by: 30)
        let again = try await setup.intents.apply(offline, node: node, device: "Anna’s phone")
        #expect(again == [.superseded, .alreadyApplied, .alreadyApplied])
        #expect(try await timers.timer(named: "Reading") == merged)
    }

    @Test(arguments: StoreKind.available)
    func anOfflinePauseLosesToALaterOnlineStart(kind: StoreKind) async throws {
        let setup = try await setup(kind)
        let timers = setup.services.focusTimers
        let reading = try await timers.addTimer(name: "Reading", duration: .seconds(1500))
        try await timers.start(named: "Reading")
        clock.advance(by: 200)
        // Online: paused at +200 s and started again at +260 s.
        try await timers.pause(named: "Reading")
        clock.advance(by: 60)
        try await timers.start(named: "Reading")
        clock.advance(by: 60)
        // The phone paused at +100 s, before both.
        let outcomes = try await setup.intents.apply(
            [FocusTimerIntent(timer: reading.id, action: .pause, at: at(100))], node: node, device: nil)
        #expect(outcomes == [.superseded])
        let run = try await timers.timer(named: "Reading").run
        #expect(run == .running(startedAt: at(0), resumedAt: at(260), elapsedBefore: .seconds(200)))
    }

    @Test(arguments: StoreKind.available)
    func startingOfflinePausesTheOtherRunningTimerAtThatInstant(kind: StoreKind) async throws {
        let setup = try await setup(kind)
        let timers = setup.services.focusTimers
        try await timers.addTimer(name: "Reading", duration: .seconds(1500))
        let writing = try await timers.addTimer(name: "Writing", duration: .seconds(1500))
        try await timers.start(named: "Reading")
        clock.advance(by: 600)
        let outcomes = try await setup.intents.apply(
            [FocusTimerIntent(timer: writing.id, action: .start, at: at(300))], node: node, device: nil)
        #expect(outcomes == [.applied])
        #expect(
            try await timers.timer(named: "Reading").run
                == .paused(startedAt: at(0), pausedAt: at(300), elapsed: .seconds(300)))
        #expect(
            try await timers.timer(named: "Writing").run
                == .running(startedAt: at(300), resumedAt: at(300), elapsedBefore: .zero))
    }

    @Test(arguments: StoreKind.available)
    func aTimerThatRanOutOfflineIsLoggedOnceAtItsEnd(kind: StoreKind) async throws {
        let setup = try await setup(kind)
        let timers = setup.services.focusTimers
        let tea = try await timers.addTimer(name: "Tea", duration: .seconds(300))
        // Started offline at +10 s, ran out at +310 s, reset at +400 s; sent at +1000 s.
        let offline = [
            FocusTimerIntent(timer: tea.id, action: .start, at: at(10)),
            FocusTimerIntent(timer: tea.id, action: .reset, at: at(400)),
        ]
        clock.advance(by: 1000)
        #expect(try await setup.intents.apply(offline, node: node, device: nil) == [.applied, .applied])
        #expect(try await timers.timer(named: "Tea").run == .idle)
        let logged = try await setup.services.practiceLog.records()
        #expect(logged.count == 1)
        #expect(logged.first?.kind == .focus)
        #expect(logged.first?.start == at(10))
        #expect(logged.first?.end == at(310))
        #expect(logged.first?.countedSeconds == 300)
        _ = try await setup.intents.apply(offline, node: node, device: nil)
        #expect(try await setup.services.practiceLog.records().count == 1)

        // Started offline and left: the server settles it when it hears, logged once too.
        let pasta = try await timers.addTimer(name: "Pasta", duration: .seconds(600))
        let start = clock.now.addingTimeInterval(100)
        clock.advance(by: 1000)
        #expect(
            try await setup.intents.apply(
                [FocusTimerIntent(timer: pasta.id, action: .start, at: start)], node: node, device: nil) == [.applied])
        #expect(
            try await timers.timer(named: "Pasta").run
                == .completed(startedAt: start, completedAt: start.addingTimeInterval(600), elapsed: .seconds(600)))
        #expect(try await setup.services.practiceLog.records().count == 2)
    }

    @Test(arguments: StoreKind.available)
    func whatCannotBeAppliedIsSaidAndChangesNothing(kind: StoreKind) async throws {
        let setup = try await setup(kind)
        let timers = setup.services.focusTimers
        let reading = try await timers.addTimer(name: "Reading", duration: .seconds(1500), items: ["water"])
        clock.advance(by: 40 * 86_400)
        let outcomes = try await setup.intents.apply(
            [
                FocusTimerIntent(timer: reading.id, action: .pause, at: clock.now.addingTimeInterval(-5)),
                FocusTimerIntent(timer: UUID(), action: .start, at: clock.now.addingTimeInterval(-4)),
                FocusTimerIntent(
                    timer: reading.id, action: .tick(item: UUID(), done: true), at: clock.now.addingTimeInterval(-3)),
                FocusTimerIntent(timer: reading.id, action: .start, at: at(100)),
            ], node: node, device: nil)
        #expect(outcomes == [.notApplicable, .unknown, .unknown, .tooOld])
        #expect(try await timers.timer(named: "Reading").run == .idle)

        let one = [FocusTimerIntent(timer: reading.id, action: .start, at: clock.now)]
        for bad in ["n-0123456789abcdef", "w-", "w-with space", String(repeating: "w", count: 65)] {
            await #expect(throws: FocusTimerIntentError.invalidNode) {
                try await setup.intents.apply(one, node: bad, device: nil)
            }
        }
        let many = Array(repeating: one[0], count: FocusTimerIntentService.maximumCount + 1)
        await #expect(throws: FocusTimerIntentError.tooMany(count: many.count, maximum: 250)) {
            try await setup.intents.apply(many, node: node, device: nil)
        }
        #expect(try await timers.timer(named: "Reading").run == .idle)
    }

    @Test(arguments: StoreKind.available)
    func anIntentFromADeviceWhoseClockRunsFarAheadIsNotApplied(kind: StoreKind) async throws {
        let setup = try await setup(kind)
        let timers = setup.services.focusTimers
        let reading = try await timers.addTimer(name: "Reading", duration: .seconds(1500))
        // The phone's clock is an hour ahead: its start would beat every change of the next hour.
        let outcomes = try await setup.intents.apply(
            [FocusTimerIntent(timer: reading.id, action: .start, at: clock.now.addingTimeInterval(3600))], node: node,
            device: nil)
        #expect(outcomes == [.inTheFuture])
        #expect(try await timers.timer(named: "Reading").run == .idle)
    }

    /// A timer that ran out while the page was away and nobody looked: a pause made before its end
    /// counts (it is not completed first as of the sending), and its session is not logged.
    @Test(arguments: StoreKind.available)
    func aPauseBeforeTheEndCountsEvenWhenTheTimeIsUpByTheSending(kind: StoreKind) async throws {
        let setup = try await setup(kind)
        let timers = setup.services.focusTimers
        let reading = try await timers.addTimer(name: "Reading", duration: .seconds(1500))
        try await timers.start(named: "Reading")
        clock.advance(by: 3600)
        let outcomes = try await setup.intents.apply(
            [FocusTimerIntent(timer: reading.id, action: .pause, at: at(600))], node: node, device: nil)
        #expect(outcomes == [.applied])
        #expect(
            try await timers.timer(named: "Reading").run
                == .paused(startedAt: at(0), pausedAt: at(600), elapsed: .seconds(600)))
        #expect(try await setup.services.practiceLog.records().isEmpty)
    }

    /// An offline start made before another timer's online start: that later start paused it then,
    /// as it would have online; and an earlier timer the intent's start paused is left as the
    /// later change made it.
    @Test(arguments: StoreKind.available)
    func oneTimerRunsAtATimeWhenStartsMeetFromTwoDevices(kind: StoreKind) async throws {
        let setup = try await setup(kind)
        let timers = setup.services.focusTimers
        let writing = try await timers.addTimer(name: "Writing", duration: .seconds(1500))
        try await timers.addTimer(name: "Reading", duration: .seconds(1500))
        clock.advance(by: 300)
        try await timers.start(named: "Reading")  // online, at +300
        clock.advance(by: 300)
        let outcomes = try await setup.intents.apply(
            [FocusTimerIntent(timer: writing.id, action: .start, at: at(100))], node: node, device: nil)
        #expect(outcomes == [.applied])
        #expect(
            try await timers.timer(named: "Writing").run
                == .paused(startedAt: at(100), pausedAt: at(300), elapsed: .seconds(200)))
        #expect(
            try await timers.timer(named: "Reading").run
                == .running(startedAt: at(300), resumedAt: at(300), elapsedBefore: .zero))
    }

    @Test func aCompletionHasTheSameIDWhicheverSendingMakesIt() {
        let timer = UUID()
        let first = FocusTimerIntentService.completionID(of: timer, startedAt: at(10))
        #expect(first == FocusTimerIntentService.completionID(of: timer, startedAt: at(10)))
        #expect(first != FocusTimerIntentService.completionID(of: timer, startedAt: at(11)))
        #expect(first.uuidString.dropFirst(14).first == "8")
    }
}

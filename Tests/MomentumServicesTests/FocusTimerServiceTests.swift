import Foundation
import GRDB
import MomentumCore
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

@testable import MomentumServices
@testable import MomentumStore

@Suite("Focus timer service: checklists, one running at a time, completions logged once")
struct FocusTimerServiceTests {
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))

    /// The timers of the same person as a second process sees them: the server restarted, or
    /// another server on the same database.
    private func reopened(_ services: LogServices) async throws -> FocusTimerService {
        let clock = self.clock
        return await LogServices(
            store: services.store, repository: try services.store.reopened(), device: "test-device",
            now: { clock.now }
        ).focusTimers
    }

    /// The services on a fresh store of `kind`.
    private func services(_ kind: StoreKind) async throws -> LogServices {
        let clock = self.clock
        return await LogServices(store: try StoreUnderTest(kind), device: "test-device", now: { clock.now })
    }

    @Test(arguments: StoreKind.available)
    func newTimersArePlacedLastAndCanBeReordered(kind: StoreKind) async throws {
        let services = try await services(kind)
        let timers = services.focusTimers
        try await timers.addTimer(name: "Morning pages", items: ["water", "notebook", "phone away"])
        try await timers.addTimer(name: "Reading", duration: .seconds(1200))
        try await timers.addTimer(name: "Tidy desk", duration: .seconds(300))
        #expect(try await timers.timers().map(\.name) == ["Morning pages", "Reading", "Tidy desk"])
        #expect(try await timers.timers().map(\.sortOrder) == [0, 1, 2])
        #expect(try await timers.timer(named: "morning").duration == .seconds(1500))
        try await timers.moveTimer(named: "tidy", to: 1)
        #expect(try await timers.timers().map(\.name) == ["Tidy desk", "Morning pages", "Reading"])
        try await timers.moveItem("phone away", ofTimer: "Morning pages", to: 1)
        #expect(
            try await timers.timer(named: "Morning pages").items.map(\.text) == ["phone away", "water", "notebook"])
        await #expect(throws: FocusTimerServiceError.invalid(.positionOutOfRange(position: 4, count: 3))) {
            try await timers.moveTimer(named: "Reading", to: 4)
        }
        // Reopened: the same order.
        #expect(
            try await reopened(services).timers().map(\.name) == [
                "Tidy desk", "Morning pages", "Reading",
            ])
    }

    @Test(arguments: StoreKind.available)
    func startingOnePausesTheOthers(kind: StoreKind) async throws {
        let services = try await services(kind)
        let timers = services.focusTimers
        try await timers.addTimer(name: "A", duration: .seconds(600))
        try await timers.addTimer(name: "B", duration: .seconds(600))
        try await timers.start(named: "A")
        clock.advance(by: 100)
        try await timers.start(named: "B")
        let (a, b) = (try await timers.timer(named: "A"), try await timers.timer(named: "B"))
        #expect(
            a.run == .paused(startedAt: clock.now.addingTimeInterval(-100), pausedAt: clock.now, elapsed: .seconds(100))
        )
        #expect(b.status(at: clock.now) == .running)
        #expect(try await timers.timers().filter { $0.status(at: clock.now) == .running }.map(\.name) == ["B"])
        clock.advance(by: 50)
        try await timers.resume(named: "A")
        #expect(try await timers.timer(named: "B").status(at: clock.now) == .paused)
        #expect(try await timers.timer(named: "B").remaining(at: clock.now) == .seconds(550))
    }

    @Test(arguments: StoreKind.available)
    func remainingTimeSurvivesARestartThroughPauseAndResume(kind: StoreKind) async throws {
        let services = try await services(kind)
        let timers = services.focusTimers
        try await timers.addTimer(name: "Deep work", duration: .seconds(3000))
        try await timers.start(named: "Deep work")
        clock.advance(by: 600)
        try await timers.pause(named: "Deep work")
        clock.advance(by: 3600)
        // "Restart": a fresh process on the same data.
        let restarted = try await reopened(services)
        #expect(try await restarted.timer(named: "Deep work").remaining(at: clock.now) == .seconds(2400))
        try await restarted.resume(named: "Deep work")
        clock.advance(by: 400)
        let again = try await reopened(services)
        #expect(try await again.timer(named: "Deep work").remaining(at: clock.now) == .seconds(2000))
    }

    @Test(arguments: StoreKind.available)
    func anItemsTextCanBeChangedKeepingItsPlaceAndTick(kind: StoreKind) async throws {
        let services = try await services(kind)
        let timers = services.focusTimers
        try await timers.addTimer(name: "Sprint", items: ["plan", "write"])
        try await timers.setItem("plan", ofTimer: "Sprint", done: true)
        let renamed = try await timers.renameItem("plan", ofTimer: "Sprint", to: "  plan the day ")
        #expect(renamed.items.map(\.text) == ["plan the day", "write"])
        #expect(renamed.items.first?.done == true)
        await #expect(throws: FocusTimerServiceError.invalid(.blankItemText)) {
            try await timers.renameItem("write", ofTimer: "Sprint", to: "  ")
        }
        #expect(try await timers.timer(named: "Sprint").items.map(\.text) == ["plan the day", "write"])
    }

    @Test(arguments: StoreKind.available)
    func aCompletionIsLoggedOnceHoweverOftenItIsLookedAt(kind: StoreKind) async throws {
        let services = try await services(kind)
        let timers = services.focusTimers
        try await timers.addTimer(name: "Sprint", duration: .seconds(300), items: ["plan"])
        let started = clock.now
        try await timers.start(named: "Sprint")
        clock.advance(by: 1000)
        for _ in 0..<5 {
            _ = try await timers.timers()
            _ = try await reopened(services).timer(named: "Sprint")
            try await timers.setItem("plan", ofTimer: "Sprint", done: true)
        }
        let records = try await services.practiceLog.records()
        #expect(records.count == 1)
        #expect(records.first?.kind == .focus)
        #expect(records.first?.start == started)
        #expect(records.first?.end == started.addingTimeInterval(300))
        #expect(records.first?.countedSeconds == 300)
        #expect(try await timers.timer(named: "Sprint").status(at: clock.now) == .completed)
        // A second run is a second completion.
        try await timers.start(named: "Sprint")
        clock.advance(by: 300)
        #expect(try await timers.timers().count == 1)
        await #expect(try services.practiceLog.records().count == 2)
    }

    @Test(arguments: StoreKind.available)
    func completingByHandLogsTheTimeCounted(kind: StoreKind) async throws {
        let services = try await services(kind)
        let timers = services.focusTimers
        try await timers.addTimer(name: "Email", duration: .seconds(900))
        try await timers.start(named: "Email")
        clock.advance(by: 240)
        try await timers.complete(named: "Email")
        try await timers.complete(named: "Email")
        await #expect(try services.practiceLog.records().map(\.countedSeconds) == [240])
    }

    @Test(arguments: StoreKind.available)
    func deletingATimerDeletesItsItemsInTheDatabase(kind: StoreKind) async throws {
        let services = try await services(kind)
        let timers = services.focusTimers
        let timer = try await timers.addTimer(name: "Morning pages", items: ["water", "notebook"])
        try await timers.addTimer(name: "Other", items: ["keep me"])
        try await timers.deleteTimer(named: "Morning pages")
        let id = timer.id.uuidString.lowercased()
        // The database itself cascades: deleting the row directly takes the items too.
        switch kind {
        case .sqlite:
            let database = try #require(services.store.store as? MomentumDatabase)
            let (itemsLeft, itemsOfDeleted) = try await database.writer.read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM checklistItem") ?? -1,
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM checklistItem WHERE timerId = ?", arguments: [id])
                        ?? -1
                )
            }
            #expect(itemsLeft == 1)
            #expect(itemsOfDeleted == 0)
            try await database.writer.write { db in try db.execute(sql: "DELETE FROM focusTimer") }
            await #expect(
                try database.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM checklistItem") } == 0)
        case .postgres:
            let store = services.store
            await #expect(try store.postgres("SELECT count(*) FROM checklist_item") == 1)
            await #expect(try store.postgres("SELECT count(*) FROM checklist_item WHERE timer_id = '\(id)'") == 0)
            try await store.postgres("DELETE FROM focus_timer")
            await #expect(try store.postgres("SELECT count(*) FROM checklist_item") == 0)
        }
    }

    @Test(arguments: StoreKind.available)
    func badInputIsRefusedAndNothingIsStored(kind: StoreKind) async throws {
        let services = try await services(kind)
        let timers = services.focusTimers
        try await timers.addTimer(name: "Reading", items: ["book"])
        let before = try await timers.timers()
        await #expect(throws: FocusTimerServiceError.invalid(.blankName)) { try await timers.addTimer(name: "  ") }
        await #expect(throws: FocusTimerServiceError.invalid(.durationOutOfRange)) {
            try await timers.addTimer(name: "Zero", duration: .zero)
        }
        await #expect(throws: FocusTimerServiceError.invalid(.durationOutOfRange)) {
            try await timers.addTimer(name: "Long", duration: .seconds(25 * 3600))
        }
        await #expect(throws: FocusTimerServiceError.invalid(.blankItemText)) {
            try await timers.addTimer(name: "Items", items: ["ok", " "])
        }
        await #expect(throws: FocusTimerServiceError.invalid(.nameTaken("reading"))) {
            try await timers.addTimer(name: "reading")
        }
        await #expect(throws: FocusTimerServiceError.invalid(.unknownTimer("nope"))) {
            try await timers.start(named: "nope")
        }
        await #expect(throws: FocusTimerServiceError.invalid(.unknownItem("9"))) {
            try await timers.setItem("9", ofTimer: "Reading", done: true)
        }
        await #expect(throws: FocusTimerServiceError.invalid(.blankItemText)) {
            try await timers.editTimer(named: "Reading", .init(name: "Renamed", addItems: [""]))
        }
        await #expect(throws: FocusTimerServiceError.invalid(.invalidColor("#XYZ"))) {
            try await timers.editTimer(named: "Reading", .init(color: "#XYZ"))
        }
        #expect(try await timers.timers() == before)
    }

    @Test(arguments: StoreKind.available)
    func aRejectedChangeWritesNothingEvenTheSettling(kind: StoreKind) async throws {
        let services = try await services(kind)
        let timers = services.focusTimers
        // Written by hand into SQLite: a running row whose time is up, plus a bad change.
        try await timers.addTimer(name: "Due", duration: .seconds(60))
        try await timers.start(named: "Due")
        clock.advance(by: 120)
        await #expect(throws: FocusTimerServiceError.invalid(.nameTaken("Due"))) {
            try await timers.addTimer(name: "Due")
        }
        await #expect(try services.practiceLog.records().isEmpty)
        _ = try await timers.timers()
        await #expect(try services.practiceLog.records().count == 1)
    }
}

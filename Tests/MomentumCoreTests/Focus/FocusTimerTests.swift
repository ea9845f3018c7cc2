import Foundation
import Testing

@testable import MomentumCore

@Suite("Focus timers: fields, bounds and a run computed from instants")
struct FocusTimerTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func timer(_ duration: Duration = .seconds(1500), items: [ChecklistItem] = []) throws -> FocusTimer {
        try FocusTimer(id: UUID(), name: "Morning pages", duration: duration, sortOrder: 0, createdAt: t0, items: items)
    }

    func item(_ text: String, id: UUID = UUID()) throws -> ChecklistItem {
        try ChecklistItem(id: id, text: text, sortOrder: 0, createdAt: t0)
    }

    @Test func aNewTimerHasTheDefaults() throws {
        let timer = try FocusTimer(id: UUID(), name: "  Reading ", sortOrder: 3, createdAt: t0)
        #expect(timer.name == "Reading")
        #expect(timer.duration == .seconds(25 * 60))
        #expect(timer.icon == "timer")
        #expect(timer.color == "#B5835A")
        #expect(timer.run == .idle)
        #expect(timer.updatedAt == t0)
        #expect(timer.remaining(at: t0) == .seconds(1500))
        #expect(try timer.timeline().totalDuration == .seconds(1500))
        #expect(try timer.timeline().cues.map(\.sound) == [.endGong])
    }

    @Test(arguments: [
        (Duration.seconds(1), nil), (.seconds(86_400), nil), (.zero, FocusTimerError.durationOutOfRange),
        (.seconds(86_401), .durationOutOfRange), (.seconds(-5), .durationOutOfRange),
        (.milliseconds(1500), .durationNotWholeSeconds),
    ])
    func durationBounds(duration: Duration, error: FocusTimerError?) throws {
        if let error {
            #expect(throws: error) { try timer(duration) }
        } else {
            #expect(try timer(duration).duration == duration)
        }
    }

    @Test func everyFieldHasItsOwnError() throws {
        func make(
            name: String = "Ok", icon: String = "timer", color: String = "#B5835A", notes: String = "",
            items: [ChecklistItem] = []
        ) throws(FocusTimerError) -> FocusTimer {
            try FocusTimer(
                id: UUID(), name: name, icon: icon, color: color, notes: notes, sortOrder: 0, createdAt: t0,
                items: items)
        }
        #expect(throws: FocusTimerError.blankName) { try make(name: " \n\t ") }
        #expect(throws: FocusTimerError.nameTooLong) { try make(name: String(repeating: "a", count: 101)) }
        #expect(try make(name: String(repeating: "a", count: 100)).name.count == 100)
        #expect(throws: FocusTimerError.invalidIcon("Book!")) { try make(icon: "Book!") }
        #expect(throws: FocusTimerError.invalidIcon("")) { try make(icon: "") }
        #expect(throws: FocusTimerError.invalidColor("red")) { try make(color: "red") }
        #expect(throws: FocusTimerError.invalidColor("#12345G")) { try make(color: "#12345G") }
        #expect(try make(color: "#a0b1c2").color == "#A0B1C2")
        #expect(throws: FocusTimerError.notesTooLong) { try make(notes: String(repeating: "n", count: 2001)) }
        #expect(throws: FocusTimerError.blankItemText) { try item("   ") }
        #expect(throws: FocusTimerError.itemTextTooLong) { try item(String(repeating: "i", count: 201)) }
        let id = UUID()
        let twins = [try item("water", id: id), try item("tea", id: id)]
        #expect(throws: FocusTimerError.duplicateItemID(id)) { try make(items: twins) }
        let many = try (0...100).map { try item("item \($0)") }
        #expect(throws: FocusTimerError.tooManyItems) { try make(items: many) }
    }

    @Test func remainingTimeComesFromStoredInstantsThroughPausesAndResumes() throws {
        var timer = try timer(.seconds(600))
        try timer.start(at: t0)
        #expect(timer.remaining(at: t0.addingTimeInterval(100)) == .seconds(500))
        try timer.pause(at: t0.addingTimeInterval(100))
        // Paused for an hour: nothing moves.
        #expect(timer.remaining(at: t0.addingTimeInterval(3700)) == .seconds(500))
        try timer.resume(at: t0.addingTimeInterval(3700))
        #expect(timer.remaining(at: t0.addingTimeInterval(3800)) == .seconds(400))
        #expect(timer.dueAt == t0.addingTimeInterval(4200))
        // A thousand pauses and resumes still end exactly at start + duration + paused time.
        var many = try self.timer(.seconds(600))
        try many.start(at: t0)
        var clock = t0
        for _ in 0..<1000 {
            clock.addTimeInterval(0.2)
            try many.pause(at: clock)
            clock.addTimeInterval(1.3)
            try many.resume(at: clock)
        }
        #expect(many.elapsed(at: clock) == .seconds(200))
        #expect(many.dueAt == clock.addingTimeInterval(400))
    }

    @Test func runtimeActionsOutOfTurnAreRefused() throws {
        var timer = try timer()
        #expect(throws: FocusTimerError.notRunning("Morning pages")) { try timer.pause(at: t0) }
        #expect(throws: FocusTimerError.notPaused("Morning pages")) { try timer.resume(at: t0) }
        #expect(throws: FocusTimerError.notStarted("Morning pages")) { try timer.complete(at: t0) }
        try timer.start(at: t0)
        #expect(throws: FocusTimerError.alreadyRunning("Morning pages")) { try timer.start(at: t0) }
        timer.reset(at: t0.addingTimeInterval(5))
        #expect(timer.run == .idle)
        #expect(timer.remaining(at: t0.addingTimeInterval(60)) == .seconds(1500))
    }

    @Test func aTimerThatRanOutSettlesOnceAtTheInstantItWasDue() throws {
        var timer = try timer(.seconds(60))
        try timer.start(at: t0)
        try timer.pause(at: t0.addingTimeInterval(20))
        try timer.resume(at: t0.addingTimeInterval(50))
        #expect(timer.status(at: t0.addingTimeInterval(89)) == .running)
        #expect(timer.status(at: t0.addingTimeInterval(90)) == .completed)
        let early = timer.settle(at: t0.addingTimeInterval(89))
        #expect(!early)
        let late = timer.settle(at: t0.addingTimeInterval(5000))
        #expect(late)
        #expect(timer.run == .completed(startedAt: t0, completedAt: t0.addingTimeInterval(90), elapsed: .seconds(60)))
        let again = timer.settle(at: t0.addingTimeInterval(6000))
        #expect(!again)
        let record = try #require(timer.completionRecord(id: UUID(), device: "d"))
        #expect(record.kind == .focus)
        #expect(record.start == t0)
        #expect(record.end == t0.addingTimeInterval(90))
        #expect(record.countedSeconds == 60)
        #expect(record.details == ["timer": "Morning pages"])
        // Starting a completed timer begins afresh.
        try timer.start(at: t0.addingTimeInterval(7000))
        #expect(timer.remaining(at: t0.addingTimeInterval(7000)) == .seconds(60))
    }

    @Test func completingEarlyCountsTheTimeSoFar() throws {
        var timer = try timer()
        try timer.start(at: t0)
        try timer.complete(at: t0.addingTimeInterval(600))
        #expect(timer.completionRecord(id: UUID(), device: "d")?.countedSeconds == 600)
        #expect(timer.remaining(at: t0.addingTimeInterval(900)) == .seconds(900))
    }

    @Test func storedRunsOutsideTheDurationAreNotValid() throws {
        var timer = try timer(.seconds(60))
        timer.run = .paused(startedAt: t0, pausedAt: t0, elapsed: .seconds(61))
        #expect(throws: FocusTimerError.invalidRun) { try timer.validate() }
        timer.run = .running(startedAt: t0, resumedAt: t0, elapsedBefore: .seconds(-1))
        #expect(throws: FocusTimerError.invalidRun) { try timer.validate() }
        // A wall clock moved back never makes remaining time exceed the duration.
        timer.run = .running(startedAt: t0, resumedAt: t0, elapsedBefore: .seconds(10))
        #expect(timer.remaining(at: t0.addingTimeInterval(-3600)) == .seconds(50))
    }

    @Test func theEndSoundOfARunningTimerIsTheTimeLeftThenTheEndGong() throws {
        var running = try timer(.seconds(600))
        try running.start(at: t0)
        try running.pause(at: t0.addingTimeInterval(100))
        #expect(throws: FocusTimerError.notRunning("Morning pages")) { try running.remainingTimeline(at: t0) }
        try running.resume(at: t0.addingTimeInterval(200))
        // 100 s counted before the pause, 50.25 s since the resume: 449.75 s left.
        let rest = try running.remainingTimeline(at: t0.addingTimeInterval(250.25))
        #expect(rest.totalDuration == .milliseconds(449_750))
        #expect(rest.cues.map(\.offset) == [.milliseconds(449_750)])
        #expect(rest.cues.map(\.sound) == [.endGong])
        #expect(rest.ambient == nil)
        // Its time is up: nothing is left to sound, though the store has not settled it yet.
        #expect(throws: FocusTimerError.notRunning("Morning pages")) {
            try running.remainingTimeline(at: t0.addingTimeInterval(700))
        }
        #expect(throws: FocusTimerError.notRunning("Morning pages")) {
            try timer().remainingTimeline(at: t0)
        }
    }
}

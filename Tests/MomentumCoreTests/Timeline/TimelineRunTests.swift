import Testing

@testable import MomentumCore

@Suite("Timeline run")
struct TimelineRunTests {
    private func threeMinuteSit() throws -> Timeline {
        try MeditationPlan(
            duration: .minutes(2), countdown: .seconds(10), intervalGongs: .every(minutes: 1), reflection: .minutes(1)
        ).timeline()
    }

    @Test func runPausedAndResumedAThousandTimesEndsExactlyAtStartPlusDurationPlusPauses() throws {
        let timeline = try threeMinuteSit()
        let total = try #require(timeline.totalDuration)
        var generator = SeededGenerator(seed: 42)
        var run = TimelineRun<TestInstant>(timeline: timeline)
        let start = TestInstant.at(.seconds(1000))
        try run.start(at: start)
        var now = start
        var paused = Duration.zero
        // Pause points spread over the run: each pause after a few random milliseconds of playing.
        for _ in 0..<1000 {
            now = now.advanced(by: .microseconds(Int64.random(in: 1...170_000, using: &generator)))
            try run.pause(at: now)
            let pause = Duration.nanoseconds(Int64.random(in: 1...5_000_000_000, using: &generator))
            now = now.advanced(by: pause)
            paused += pause
            try run.resume(at: now)
        }
        let expectedEnd = start.advanced(by: total + paused)
        #expect(run.endInstant == expectedEnd)
        #expect(!run.isCompleted(at: expectedEnd.advanced(by: .nanoseconds(-1))))
        #expect(run.isCompleted(at: expectedEnd))
        #expect(run.state(at: expectedEnd).status == .completed)
        #expect(run.state(at: expectedEnd).remaining == .zero)
    }

    enum TickPattern: String, CaseIterable, Sendable {
        case everyMillisecond, everySecond, irregular, pausedOften
    }

    @Test(arguments: TickPattern.allCases)
    func everyCueIsDeliveredExactlyOnceAndInOrderWhateverTheTickRate(_ pattern: TickPattern) throws {
        let timeline = try threeMinuteSit()
        let total = try #require(timeline.totalDuration)
        var generator = SeededGenerator(seed: 7)
        var run = TimelineRun<TestInstant>(timeline: timeline)
        let start = TestInstant.origin
        try run.start(at: start)
        var delivered: [Cue] = []
        var previous: TestInstant? = nil
        var now = start
        var isPaused = false
        while !run.isCompleted(at: now) {
            delivered += run.cues(after: previous, through: now)
            previous = now
            switch pattern {
            case .everyMillisecond: now = now.advanced(by: .milliseconds(1))
            case .everySecond: now = now.advanced(by: .seconds(1))
            case .irregular:
                now = now.advanced(by: .microseconds(Int64.random(in: 1...3_000_000, using: &generator)))
            case .pausedOften:
                now = now.advanced(by: .milliseconds(Int64.random(in: 1...4_000, using: &generator)))
                if isPaused {
                    try run.resume(at: now)
                    isPaused = false
                } else if !run.isCompleted(at: now) {
                    try run.pause(at: now)
                    isPaused = true
                }
            }
            // A tick that lands past the end still only sees cues up to the end.
            if run.isCompleted(at: now) { delivered += run.cues(after: previous, through: now) }
        }
        #expect(delivered == timeline.cues)
        #expect(delivered.last?.offset == total)
    }

    @Test func startGongAtOffsetZeroIsDueOnTheFirstCheck() throws {
        let timeline = try MeditationPlan(duration: .minutes(1), countdown: .zero).timeline()
        var run = TimelineRun<TestInstant>(timeline: timeline)
        try run.start(at: .origin)
        #expect(run.cues(after: nil, through: .origin).map(\.sound) == [.startGong])
        #expect(run.cues(after: .origin, through: .at(.seconds(30))).isEmpty)
    }

    @Test func noCuesSoundWhilePaused() throws {
        let timeline = try MeditationPlan(duration: .minutes(2), countdown: .zero, intervalGongs: .every(minutes: 1))
            .timeline()
        var run = TimelineRun<TestInstant>(timeline: timeline)
        try run.start(at: .origin)
        try run.pause(at: .at(.seconds(50)))
        #expect(run.cues(after: .at(.seconds(50)), through: .at(.seconds(500))).isEmpty)
        try run.resume(at: .at(.seconds(500)))
        #expect(run.cues(after: .at(.seconds(500)), through: .at(.seconds(510))).map(\.sound) == [.intervalGong])
        #expect(run.state(at: .at(.seconds(510))).elapsed == .seconds(60))
    }

    @Test func stateReportsSegmentRemainingAndProgress() throws {
        let timeline = try threeMinuteSit()
        var run = TimelineRun<TestInstant>(timeline: timeline)
        #expect(run.state(at: .origin).status == .idle)
        try run.start(at: .origin)
        let inCountdown = run.state(at: .at(.seconds(4)))
        #expect(inCountdown.segment.kind == .countdown)
        #expect(inCountdown.remainingInSegment == .seconds(6))
        let inSit = run.state(at: .at(.seconds(70)))
        #expect(inSit.segment.kind == .meditation)
        #expect(inSit.elapsedInSegment == .seconds(60))
        #expect(inSit.segmentProgress == 0.5)
        #expect(inSit.remaining == .seconds(120))
        #expect(run.state(at: .at(.seconds(130))).segment.kind == .reflection)
    }

    @Test func stoppedRunFreezesAndRejectsFurtherActions() throws {
        var run = TimelineRun<TestInstant>(timeline: try threeMinuteSit())
        try run.start(at: .origin)
        try run.stop(at: .at(.seconds(40)))
        #expect(run.state(at: .at(.seconds(90))).status == .stopped)
        #expect(run.elapsed(at: .at(.seconds(90))) == .seconds(40))
        #expect(throws: TimelineRunError.alreadyStopped) { try run.pause(at: .at(.seconds(91))) }
        #expect(run.cues(after: .at(.seconds(40)), through: .at(.seconds(200))).isEmpty)
    }

    @Test func actionsOutOfOrderAreRejected() throws {
        var run = TimelineRun<TestInstant>(timeline: try threeMinuteSit())
        #expect(throws: TimelineRunError.notStarted) { try run.pause(at: .origin) }
        try run.start(at: .at(.seconds(10)))
        #expect(throws: TimelineRunError.alreadyStarted) { try run.start(at: .at(.seconds(11))) }
        #expect(throws: TimelineRunError.notPaused) { try run.resume(at: .at(.seconds(11))) }
        #expect(throws: TimelineRunError.instantBeforeStart) { try run.pause(at: .at(.seconds(5))) }
        try run.pause(at: .at(.seconds(12)))
        #expect(throws: TimelineRunError.alreadyPaused) { try run.pause(at: .at(.seconds(13))) }
        try run.resume(at: .at(.seconds(14)))
        #expect(throws: TimelineRunError.alreadyCompleted) { try run.pause(at: .at(.seconds(1000))) }
    }

    @Test func openEndedRunCountsUpForever() throws {
        let timeline = try MeditationPlan(countdown: .zero, isOpenEnded: true).timeline()
        var run = TimelineRun<TestInstant>(timeline: timeline)
        try run.start(at: .origin)
        let state = run.state(at: .at(.seconds(7200)))
        #expect(state.status == .running)
        #expect(state.elapsed == .seconds(7200))
        #expect(state.remaining == nil)
        #expect(run.endInstant == nil)
    }
}

@Suite("Timeline run: when the next thing happens")
struct TimelineNextEventTests {
    @Test func nextEventIsTheNextCueOrSegmentBoundary() throws {
        let timeline = try MeditationPlan(
            duration: .minutes(3), countdown: .seconds(10), intervalGongs: .every(minutes: 1)
        ).timeline()
        var run = TimelineRun<TestInstant>(timeline: timeline)
        #expect(run.nextEventInstant(after: .origin) == nil)
        try run.start(at: .at(.seconds(100)))
        #expect(run.nextEventInstant(after: .at(.seconds(100))) == .at(.seconds(110)))
        #expect(run.nextEventInstant(after: .at(.seconds(110))) == .at(.seconds(170)))
        #expect(run.nextEventInstant(after: .at(.seconds(231))) == .at(.seconds(290)))
        try run.pause(at: .at(.seconds(240)))
        #expect(run.nextEventInstant(after: .at(.seconds(250))) == nil)
        try run.resume(at: .at(.seconds(260)))
        #expect(run.nextEventInstant(after: .at(.seconds(260))) == .at(.seconds(310)))
        #expect(run.nextEventInstant(after: .at(.seconds(400))) == nil)
    }

    @Test func openEndedRunsKeepAnnouncingTheirRepeatingGongs() throws {
        let timeline = try MeditationPlan(countdown: .zero, intervalGongs: .every(minutes: 5), isOpenEnded: true)
            .timeline()
        var run = TimelineRun<TestInstant>(timeline: timeline)
        try run.start(at: .origin)
        #expect(run.nextEventInstant(after: .at(.seconds(300))) == .at(.seconds(600)))
        #expect(run.nextEventInstant(after: .at(.seconds(3601))) == .at(.seconds(3900)))
    }
}

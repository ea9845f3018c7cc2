import Testing

@testable import MomentumCore

@Suite("Meditation timeline: gongs and segments")
struct MeditationTimelineTests {
    private func gongs(_ timeline: Timeline, _ sound: CueSound) -> [Duration] {
        timeline.cues.filter { $0.sound == sound }.map(\.offset)
    }

    @Test func tenMinutesEveryThreeGongsAtThreeSixNine() throws {
        let plan = MeditationPlan(duration: .minutes(10), countdown: .zero, intervalGongs: .every(minutes: 3))
        #expect(gongs(try plan.timeline(), .intervalGong) == [.minutes(3), .minutes(6), .minutes(9)])
    }

    @Test func nineMinutesEveryThreeNeverGongsAtTheEnd() throws {
        let plan = MeditationPlan(duration: .minutes(9), countdown: .zero, intervalGongs: .every(minutes: 3))
        let timeline = try plan.timeline()
        #expect(gongs(timeline, .intervalGong) == [.minutes(3), .minutes(6)])
        #expect(gongs(timeline, .endGong) == [.minutes(9)])
    }

    @Test func explicitOffsetsAtOrAfterTheEndAreRefusedNotDropped() throws {
        let plan = MeditationPlan(
            duration: .minutes(20), countdown: .zero,
            intervalGongs: .offsets([.minutes(20), .minutes(10), .minutes(5), .minutes(25), .minutes(5)]))
        #expect(throws: MeditationPlanError.intervalGongAtOrAfterEnd(offset: .minutes(20), duration: .minutes(20))) {
            try plan.timeline()
        }
        let inside = plan.withoutIntervalGongsAtOrAfterEnd
        #expect(gongs(try inside.timeline(), .intervalGong) == [.minutes(5), .minutes(10)])
    }

    @Test func countdownZeroPutsTheStartGongAtZeroWithNoCountdownSegment() throws {
        let timeline = try MeditationPlan(duration: .minutes(5), countdown: .zero).timeline()
        #expect(gongs(timeline, .startGong) == [.zero])
        #expect(timeline.segments.map(\.kind) == [.meditation])
    }

    @Test func intervalGongsCountFromTheStartGongNotFromTheCountdown() throws {
        let plan = MeditationPlan(duration: .minutes(10), countdown: .seconds(15), intervalGongs: .every(minutes: 5))
        let timeline = try plan.timeline()
        #expect(gongs(timeline, .startGong) == [.seconds(15)])
        #expect(gongs(timeline, .intervalGong) == [.seconds(315)])
        #expect(gongs(timeline, .endGong) == [.seconds(615)])
        #expect(timeline.segments.map(\.kind) == [.countdown, .meditation])
    }

    @Test func reflectionAddsThePhaseGongAndMovesTheEndGong() throws {
        let plan = MeditationPlan(
            duration: .minutes(10), countdown: .seconds(10), intervalGongs: .every(minutes: 5), reflection: .minutes(3))
        let timeline = try plan.timeline()
        #expect(gongs(timeline, .phaseGong) == [.seconds(610)])
        #expect(gongs(timeline, .endGong) == [.seconds(790)])
        #expect(gongs(timeline, .intervalGong) == [.seconds(310)])
        #expect(timeline.segments.map(\.kind) == [.countdown, .meditation, .reflection])
        #expect(timeline.totalDuration == .seconds(790))
    }

    @Test func openEndedSitRepeatsIntervalGongsUntilStoppedAndHasNoEndGong() throws {
        let plan = MeditationPlan(
            countdown: .seconds(5), intervalGongs: .every(minutes: 10), reflection: .minutes(5), isOpenEnded: true)
        let timeline = try plan.timeline()
        #expect(timeline.isOpenEnded)
        #expect(timeline.segments.map(\.kind) == [.countdown, .meditation])
        #expect(gongs(timeline, .endGong).isEmpty)
        let due = timeline.cues(after: .zero, includingLower: false, through: .minutes(35))
        #expect(due.map(\.offset) == [.seconds(5), .seconds(605), .seconds(1205), .seconds(1805)])
    }

    @Test func cueOrderIsStartIntervalsPhaseEnd() throws {
        let plan = MeditationPlan(
            duration: .minutes(3), countdown: .zero, intervalGongs: .every(minutes: 1), reflection: .minutes(1))
        #expect(
            try plan.timeline().cues.map(\.sound) == [.startGong, .intervalGong, .intervalGong, .phaseGong, .endGong])
    }

    @Test func ambientChoiceTravelsWithTheTimeline() throws {
        let timeline = try MeditationPlan(ambientID: "rain", ambientVolume: 0.4).timeline()
        #expect(timeline.ambient == AmbientChoice(id: "rain", volume: 0.4))
        #expect(try MeditationPlan().timeline().ambient == nil)
    }
}

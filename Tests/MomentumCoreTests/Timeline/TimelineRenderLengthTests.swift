import Testing

@testable import MomentumCore

@Suite("How long a timeline may be to render")
struct TimelineRenderLengthTests {
    func meditation(lasting duration: Duration) throws -> Timeline {
        try Timeline(practice: .meditation, segments: [Segment(kind: .meditation, start: .zero, duration: duration)])
    }

    @Test func theLimitIsTenHours() {
        #expect(Timeline.longestRender == .seconds(36_000))
    }

    @Test(arguments: [Duration.seconds(1), .minutes(20), .seconds(36_000)])
    func timelinesUpToTenHoursAreRendered(duration: Duration) throws {
        let timeline = try meditation(lasting: duration)
        #expect(throws: Never.self) { try timeline.checkRenderLength() }
    }

    @Test(arguments: [Duration.seconds(36_001), .milliseconds(36_000_001), .seconds(200 * 3600)])
    func aTimelineOverTenHoursIsRefusedWithItsLength(duration: Duration) throws {
        #expect(throws: RenderLengthError.tooLong(duration, limit: .seconds(36_000))) {
            try meditation(lasting: duration).checkRenderLength()
        }
    }

    @Test func theCountdownCountsTowardsTheLimit() throws {
        let plan = MeditationPlan(duration: .seconds(36_000), countdown: .seconds(15))
        #expect(throws: RenderLengthError.tooLong(.seconds(36_015), limit: .seconds(36_000))) {
            try plan.timeline().checkRenderLength()
        }
        let withoutCountdown = try MeditationPlan(duration: .seconds(36_000), countdown: .zero).timeline()
        #expect(throws: Never.self) { try withoutCountdown.checkRenderLength() }
    }

    @Test func anOpenEndedTimelineIsLeftToTheRenderer() throws {
        let timeline = try Timeline(
            practice: .meditation, segments: [Segment(kind: .meditation, start: .zero, duration: nil)])
        #expect(throws: Never.self) { try timeline.checkRenderLength() }
    }
}

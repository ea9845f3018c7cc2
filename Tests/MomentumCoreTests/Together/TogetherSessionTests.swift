import Foundation
import Testing

@testable import MomentumCore

@Suite("Sitting together: one run at one position for everyone, each person's own practice, the clock offset")
struct TogetherSessionTests {
    typealias Session = TogetherSession<String, ContinuousClock.Instant>
    static let origin = ContinuousClock().now
    static func at(_ seconds: Double) -> ContinuousClock.Instant {
        origin.advanced(by: .milliseconds(Int64((seconds * 1000).rounded())))
    }

    /// A 10-minute sit after a 15 s countdown.
    static func sit() throws -> Timeline {
        try Timeline(
            practice: .meditation,
            segments: [
                Segment(kind: .countdown, start: .zero, duration: .seconds(15)),
                Segment(kind: .meditation, start: .seconds(15), duration: .minutes(10)),
            ])
    }

    @Test func everyoneHearsTheSamePositionAndALateJoinerStartsWhereTheSessionIs() throws {
        var session = try Session(timeline: Self.sit(), host: "ada", createdAt: Self.at(0))
        #expect(session.startsAt == Self.at(5))
        #expect(session.position(at: Self.at(3)) == .zero)
        try session.join("grace", at: Self.at(2))
        try session.join("linus", at: Self.at(35))
        // Joined 30 s after the start: plays from 30 s.
        #expect(session.position(at: Self.at(35)) == .seconds(30))
        #expect(session.present(at: Self.at(40)) == ["ada", "grace", "linus"])
        // The host pauses for everyone: the position holds.
        try session.pause(by: "ada", at: Self.at(60))
        #expect(session.position(at: Self.at(90)) == .seconds(55))
        #expect(throws: TogetherError.notHost) { try session.resume(by: "grace", at: Self.at(90)) }
        try session.resume(by: "ada", at: Self.at(100))
        #expect(session.position(at: Self.at(110)) == .seconds(65))
    }

    @Test func eachPersonIsLoggedForTheirOwnStretchByTheOneRule() throws {
        var session = try Session(timeline: Self.sit(), host: "ada", createdAt: Self.at(0))
        try session.join("grace", at: Self.at(1))
        try session.join("linus", at: Self.at(5 + 15 + 30))  // 30 s into the sit itself
        // Grace leaves after 2 minutes of the 10-minute sit.
        try session.leave("grace", at: Self.at(5 + 15 + 120))
        let end = Self.at(5 + 615 + 1)
        #expect(session.isOver(at: end))
        #expect(session.outcome(for: "ada", at: end) == .completed(.minutes(10)))
        #expect(session.outcome(for: "grace", at: end) == .stoppedEarly(.minutes(2)))
        // Late, and there at the end: completed, for the time sat.
        #expect(session.outcome(for: "linus", at: end) == .completed(.seconds(570)))
        #expect(session.outcome(for: "nobody", at: end) == nil)
        #expect(throws: TogetherError.over) { try session.join("nobody", at: end) }
    }

    @Test func theHostStoppingOrLeavingEndsItForEveryoneAsAnEarlyStop() throws {
        var session = try Session(timeline: Self.sit(), host: "ada", createdAt: Self.at(0))
        try session.join("grace", at: Self.at(1))
        try session.leave("ada", at: Self.at(5 + 15 + 300))
        #expect(session.isOver(at: Self.at(400)))
        #expect(session.present(at: Self.at(400)).isEmpty)
        #expect(session.outcome(for: "grace", at: Self.at(700)) == .stoppedEarly(.minutes(5)))
        #expect(session.outcome(for: "ada", at: Self.at(700)) == .stoppedEarly(.minutes(5)))
        // Under a minute of the sit itself: too short to log.
        var short = try Session(timeline: Self.sit(), host: "ada", createdAt: Self.at(0))
        try short.stop(by: "ada", at: Self.at(5 + 15 + 40))
        #expect(short.outcome(for: "ada", at: Self.at(100)) == .tooShortToLog(.seconds(40)))
        #expect(throws: TogetherError.notPresent) { try short.leave("grace", at: Self.at(100)) }
    }

    @Test func anOpenEndedPracticeAndATwelfthGuestAreRefused() throws {
        let open = try Timeline(
            practice: .meditation, segments: [Segment(kind: .meditation, start: .zero, duration: nil)])
        #expect(throws: TogetherError.openEnded) { try Session(timeline: open, host: "ada", createdAt: Self.at(0)) }
        var session = try Session(timeline: Self.sit(), host: "ada", createdAt: Self.at(0))
        for guest in 1..<Session.capacity { try session.join("guest \(guest)", at: Self.at(1)) }
        #expect(throws: TogetherError.full) { try session.join("one more", at: Self.at(2)) }
        // Someone who stepped out comes back in.
        try session.leave("guest 3", at: Self.at(3))
        try session.join("guest 3", at: Self.at(4))
        #expect(session.present(at: Self.at(4)).count == Session.capacity)
    }

    // MARK: The clock offset

    @Test func theShortestRoundTripGivesTheOffset() throws {
        // The server is 5 s ahead; one way takes 15 ms, another round trip was slow one way.
        let samples = [
            ClockSample(sentAt: 1_000, serverAt: 6_100, receivedAt: 1_130),
            ClockSample(sentAt: 2_000, serverAt: 7_015, receivedAt: 2_030),
            ClockSample(sentAt: 3_000, serverAt: 8_200, receivedAt: 3_210),
        ]
        let offset = try ClockOffset(samples: samples)
        #expect(offset.milliseconds == 5_000)
        #expect(offset.uncertainty == 15)
    }

    @Test(arguments: [
        ([ClockSample](), ClockOffsetError.noSamples),
        ([ClockSample(sentAt: 10, serverAt: 5, receivedAt: 9)], .impossibleRoundTrip(-1)),
        ([ClockSample(sentAt: 0, serverAt: 5, receivedAt: 20_000)], .impossibleRoundTrip(20_000)),
        ([ClockSample(sentAt: .nan, serverAt: 5, receivedAt: 9)], .unreadableSample),
        ([ClockSample(sentAt: 0, serverAt: .infinity, receivedAt: 9)], .unreadableSample),
        (Array(repeating: ClockSample(sentAt: 0, serverAt: 1, receivedAt: 2), count: 33), .tooManySamples(33)),
    ])
    func roundTripsThatSayNothingAreRefused(samples: [ClockSample], error: ClockOffsetError) {
        #expect(throws: error) { try ClockOffset(samples: samples) }
    }
}

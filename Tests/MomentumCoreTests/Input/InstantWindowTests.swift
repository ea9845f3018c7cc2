import Foundation
import Testing

@testable import MomentumCore

@Suite("Instants from outside lie in a sane window around now")
struct InstantWindowTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z
    let day: TimeInterval = 24 * 3600

    @Test func aRunStartsWithinADayOfNowEitherWay() throws {
        let window = InstantWindow.run(around: now)
        try window.check(now.addingTimeInterval(-day), field: "at")
        try window.check(now.addingTimeInterval(day), field: "at")
        #expect(
            throws: InstantWindowError.tooEarly(
                field: "at", instant: now.addingTimeInterval(-day - 1), earliest: now.addingTimeInterval(-day))
        ) { try window.check(now.addingTimeInterval(-day - 1), field: "at") }
        #expect(throws: InstantWindowError.self) { try window.check(now.addingTimeInterval(day + 1), field: "at") }
    }

    @Test func aRunIn1969IsRefused() {
        let june1969 = Date(timeIntervalSince1970: -18_316_800)
        #expect(!InstantWindow.run(around: now).contains(june1969))
        #expect(!InstantWindow.record(now: now).contains(june1969))
    }

    @Test func recordsLieBetween1970AndADayAfterNow() throws {
        let window = InstantWindow.record(now: now)
        try window.check(Date(timeIntervalSince1970: 0), field: "start")
        try window.check(Date(timeIntervalSince1970: 86_400 * 365), field: "start")
        try window.check(now.addingTimeInterval(day), field: "end")
        #expect(
            throws: InstantWindowError.tooEarly(
                field: "start", instant: Date(timeIntervalSince1970: -1), earliest: Date(timeIntervalSince1970: 0))
        ) { try window.check(Date(timeIntervalSince1970: -1), field: "start") }
        #expect(
            throws: InstantWindowError.tooLate(
                field: "end", instant: now.addingTimeInterval(day + 60), latest: now.addingTimeInterval(day))
        ) { try window.check(now.addingTimeInterval(day + 60), field: "end") }
    }
}

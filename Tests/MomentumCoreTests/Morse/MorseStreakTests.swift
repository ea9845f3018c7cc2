import Testing

@testable import MomentumCore

@Suite("Morse streak: consecutive days with a session, the longest kept")
struct MorseStreakTests {
    static func streak(_ days: [Int]) -> MorseStreak {
        days.reduce(MorseStreak()) { $0.recordingSession(on: Day(number: 20_000 + $1)) }
    }

    @Test(
        arguments: [
            ([0], 1, 1), ([0, 0], 1, 1), ([0, 1], 2, 2), ([0, 1, 1, 2], 3, 3), ([0, 2], 1, 1),
            ([0, 1, 2, 4], 1, 3), ([0, 1, 2, 4, 5, 6, 7], 4, 4), ([0, 1, 5, 3], 1, 2),
        ] as [([Int], Int, Int)])
    func sameDayKeepsNextDayAddsASkippedDayStartsAgain(_ days: [Int], _ current: Int, _ longest: Int) {
        let streak = Self.streak(days)
        #expect(streak.current == current)
        #expect(streak.longest == longest)
    }

    @Test func theStreakShownIsZeroOnceADayWasSkipped() {
        let streak = Self.streak([0, 1, 2])
        #expect(streak.current(on: Day(number: 20_003)) == 3)
        #expect(streak.current(on: Day(number: 20_004)) == 0)
        #expect(streak.lastDay == Day(number: 20_002))
    }

    @Test func storedStreaksThatCannotBeAreRefused() {
        #expect(throws: MorseCourseProgressError.impossibleStreak(current: 3, longest: 2)) {
            try MorseStreak(current: 3, longest: 2, lastDay: Day(number: 1))
        }
        #expect(throws: MorseCourseProgressError.impossibleStreak(current: 1, longest: 1)) {
            try MorseStreak(current: 1, longest: 1, lastDay: nil)
        }
    }
}

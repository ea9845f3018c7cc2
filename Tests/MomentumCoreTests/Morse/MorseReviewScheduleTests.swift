import Foundation
import Testing

@testable import MomentumCore

@Suite("Morse spaced repetition: intervals by accuracy, the 14-day cap, the 2× reset, level reviews")
struct MorseReviewScheduleTests {
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin") ?? .gmt
        return calendar
    }()
    static let courseStart = Date(timeIntervalSince1970: 1_780_000_000)
    static let day: TimeInterval = 86_400

    /// A schedule with `interval` days whose last practice was `at`.
    static func schedule(interval: Int, lastPractice: Date) throws -> MorseReviewSchedule {
        try MorseReviewSchedule(
            intervalDays: interval, lastPractice: lastPractice,
            nextPractice: MorseReviewSchedule.adding(days: interval, to: lastPractice, in: calendar))
    }

    static func next(interval: Int, accuracy: Double, afterDays days: Double = 0, courseDay: Double = 60) throws
        -> Int
    {
        let last = courseStart.addingTimeInterval(courseDay * day)
        let now = last.addingTimeInterval(days * day)
        return try schedule(interval: interval, lastPractice: last).scheduling(
            sessionAccuracy: accuracy, at: now, courseStart: courseStart, calendar: calendar
        ).intervalDays
    }

    @Test(
        arguments: [
            (1, 1.0, 2), (2, 0.9, 4), (8, 0.95, 16), (16, 0.9, 30), (30, 1.0, 30), (20, 0.9, 30),
            (8, 0.89, 8), (8, 0.7, 8), (1, 0.75, 1), (8, 0.69, 1), (30, 0.0, 1),
        ] as [(Int, Double, Int)])
    func theIntervalFollowsTheSessionsAccuracy(_ interval: Int, _ accuracy: Double, _ next: Int) throws {
        #expect(try Self.next(interval: interval, accuracy: accuracy, afterDays: Double(interval)) == next)
    }

    @Test(
        arguments: [
            (2, 1.0, 0.0, 2), (2, 1.0, 13.0, 2), (1, 1.0, 13.9, 2), (2, 1.0, 14.0, 4), (2, 0.8, 5.0, 2),
            (2, 0.5, 5.0, 1),
        ] as [(Int, Double, Double, Int)])
    func theIntervalIsAtMostTwoDaysInTheFirstFourteenDays(
        _ interval: Int, _ accuracy: Double, _ courseDay: Double, _ next: Int
    ) throws {
        // The session is `courseDay` days after the course start, the last practice one day earlier.
        #expect(try Self.next(interval: interval, accuracy: accuracy, afterDays: 1, courseDay: courseDay - 1) == next)
    }

    @Test func comingBackAfterExactlyTwiceTheIntervalKeepsItOneSecondLaterResets() throws {
        let last = Self.courseStart.addingTimeInterval(60 * Self.day)
        let schedule = try Self.schedule(interval: 8, lastPractice: last)
        let twice = MorseReviewSchedule.adding(days: 16, to: last, in: Self.calendar)
        let onTime = schedule.scheduling(
            sessionAccuracy: 0.95, at: twice, courseStart: Self.courseStart, calendar: Self.calendar)
        #expect(onTime.intervalDays == 16)
        let late = schedule.scheduling(
            sessionAccuracy: 0.95, at: twice.addingTimeInterval(1), courseStart: Self.courseStart,
            calendar: Self.calendar)
        #expect(late.intervalDays == 1)
    }

    @Test func theNextPracticeIsTheLastPlusTheIntervalInCalendarDays() throws {
        // 2026-10-20 18:00 in Berlin; 16 days later crosses the end of summer time on 25 October.
        let last = try #require(
            Self.calendar.date(from: DateComponents(year: 2026, month: 10, day: 20, hour: 18)))
        let next = try Self.schedule(interval: 8, lastPractice: last).scheduling(
            sessionAccuracy: 1, at: last, courseStart: Self.courseStart, calendar: Self.calendar)
        #expect(next.lastPractice == last)
        #expect(next.nextPractice == Self.calendar.date(from: DateComponents(year: 2026, month: 11, day: 5, hour: 18)))
        #expect(next.nextPractice.map { $0.timeIntervalSince(last) } == 16 * Self.day + 3600)
        let nextPractice = try #require(next.nextPractice)
        #expect(!next.isDue(at: nextPractice.addingTimeInterval(-1)))
        #expect(next.isDue(at: nextPractice))
    }

    @Test func aFirstScheduleIsDueAndStoredSchedulesAreChecked() {
        #expect(MorseReviewSchedule().isDue(at: Self.courseStart))
        #expect(MorseReviewSchedule().intervalDays == 1)
        #expect(throws: MorseCourseProgressError.intervalOutOfRange(31)) {
            try MorseReviewSchedule(intervalDays: 31, lastPractice: nil, nextPractice: nil)
        }
        #expect(throws: MorseCourseProgressError.practiceDatesInconsistent) {
            try MorseReviewSchedule(intervalDays: 1, lastPractice: Self.courseStart, nextPractice: nil)
        }
        #expect(throws: MorseCourseProgressError.practiceDatesInconsistent) {
            try MorseReviewSchedule(intervalDays: 1, lastPractice: Self.courseStart, nextPractice: Self.courseStart)
        }
    }
}

import Foundation
import Testing

@testable import MomentumCore

/// The Morse course's progress as the reminder planner reads it. "Today" is Monday 2026-11-23.
@Suite("Reminder inputs from the Morse course")
struct ReminderInputsMorseTests {
    /// Receive: levels 2 and 3 reached, the level 3 review pending, practice due since yesterday.
    /// Send: level 2 reviewed already, next practice on Thursday.
    static func progress() throws -> MorseCourseProgress {
        let receive = try MorseDirectionProgress(
            level: 3, characterStatistics: [:],
            schedule: MorseReviewSchedule(
                intervalDays: 1, lastPractice: ReminderClock.at("2026-11-21 18:00"),
                nextPractice: ReminderClock.at("2026-11-22 18:00")),
            levelHistory: [
                MorseLevelChange(level: 2, date: try ReminderClock.at("2026-11-10 18:00")),
                MorseLevelChange(level: 3, date: try ReminderClock.at("2026-11-18 18:00")),
            ],
            levelReviewDue: try ReminderClock.at("2026-11-25 18:00"), order: .standard)
        let send = try MorseDirectionProgress(
            level: 2, characterStatistics: [:],
            schedule: MorseReviewSchedule(
                intervalDays: 4, lastPractice: ReminderClock.at("2026-11-22 19:00"),
                nextPractice: ReminderClock.at("2026-11-26 19:00")),
            levelHistory: [MorseLevelChange(level: 2, date: try ReminderClock.at("2026-11-12 19:00"))],
            levelReviewDue: nil, order: .standard)
        return try MorseCourseProgress(
            order: .standard, courseStart: ReminderClock.at("2026-11-01 18:00"), receive: receive, send: send)
    }

    @Test func eachDirectionGivesItsNextPracticeAndOnlyAPendingLevelReview() throws {
        let schedules = ReminderInputs.morseSchedules(from: try Self.progress())
        #expect(
            schedules[.receive]
                == ReminderInputs.MorseSchedule(
                    nextPractice: try ReminderClock.at("2026-11-22 18:00"),
                    levelUps: [ReminderInputs.LevelUp(level: 3, reachedAt: try ReminderClock.at("2026-11-18 18:00"))]))
        #expect(
            schedules[.send]
                == ReminderInputs.MorseSchedule(nextPractice: try ReminderClock.at("2026-11-26 19:00"), levelUps: []))
    }

    @Test func aCourseNotStartedSchedulesNothing() {
        let schedules = ReminderInputs.morseSchedules(from: MorseCourseProgress())
        #expect(Set(schedules.keys) == [.receive, .send])
        #expect(schedules.values.allSatisfy { $0.nextPractice == nil && $0.levelUps.isEmpty })
    }

    @Test func thePlanHasTheDuePracticeAndTheLevelReview() throws {
        var inputs = try ReminderClock.inputs(
            now: "2026-11-23 08:00", settings: ReminderClock.only(.practiceDue, .levelReview))
        inputs.morse = ReminderInputs.morseSchedules(from: try Self.progress())
        #expect(
            ReminderPlanner.plan(inputs).lines() == [
                "practice.receive @ 2026-11-23 09:00", "level.review.3 @ 2026-11-25 09:00",
                "practice.send @ 2026-11-26 09:00",
            ])
    }

    @Test func directionsMatchTheCourseByName() {
        for direction in ReminderInputs.MorseDirection.allCases {
            #expect(direction.courseDirection.rawValue == direction.rawValue)
        }
    }
}

import Foundation
import Testing

@testable import MomentumCore

/// When a tracker's question is asked: at its hour on the person's clock, at the end of the quiet
/// hours when the hour falls in them, not before the tracker existed, never for an answered day.
@Suite("Tracker questions")
struct TrackerQuestionTests {
    let zone = TimeZone(identifier: "Europe/Berlin") ?? .gmt
    /// 2027-01-15 00:00 in Berlin.
    var midnight: Date { Date(timeIntervalSince1970: 1_799_967_600) }

    func tracker(_ hour: Int, minute: Int = 0, about: Tracker.About = .today, made: Date? = nil) throws -> Tracker {
        try Tracker(
            id: UUID(), name: "Alcohol-free", askAt: try TimeOfDay(hour: hour, minute: minute), about: about,
            createdAt: made ?? midnight.addingTimeInterval(-7 * 86_400))
    }

    @Test func askedAtItsHourAboutTheDayItAsksAbout() throws {
        let evening = try tracker(21)
        let morning = try tracker(8, minute: 30, about: .yesterday)
        let due = TrackerQuestion.due(
            [evening, morning], answered: [:], from: midnight, through: midnight.addingTimeInterval(86_399),
            timeZone: zone, quietHours: .standard)
        #expect(due.map(\.askAt) == [midnight.addingTimeInterval(8.5 * 3600), midnight.addingTimeInterval(21 * 3600)])
        #expect(due.map(\.day.description) == ["2027-01-14", "2027-01-15"])
        #expect(due.map(\.trackerID) == [morning.id, evening.id])
    }

    @Test func anHourInTheQuietHoursIsAskedAtTheirEnd() throws {
        let late = try tracker(23)
        let due = TrackerQuestion.due(
            [late], answered: [:], from: midnight, through: midnight.addingTimeInterval(86_399), timeZone: zone,
            quietHours: .standard)
        // Yesterday's 23:00 question comes at 08:00 today, still about yesterday.
        #expect(due.map(\.askAt) == [midnight.addingTimeInterval(8 * 3600)])
        #expect(due.map(\.day.description) == ["2027-01-14"])
    }

    @Test func anAnsweredDayOrATrackerMadeLaterIsNotAsked() throws {
        let evening = try tracker(21)
        let today = try Day(parsing: "2027-01-15")
        let window = (from: midnight, through: midnight.addingTimeInterval(86_399))
        #expect(
            TrackerQuestion.due(
                [evening], answered: [evening.id: [today]], from: window.from, through: window.through,
                timeZone: zone, quietHours: .standard
            ).isEmpty)
        let madeAfter = try tracker(21, made: midnight.addingTimeInterval(22 * 3600))
        #expect(
            TrackerQuestion.due(
                [madeAfter], answered: [:], from: window.from, through: window.through, timeZone: zone,
                quietHours: .standard
            ).isEmpty)
    }

    @Test func stillAskedOnlyWhenHeldOutsideTheQuietHoursAndStillUseful() throws {
        let evening = try tracker(21)
        let question = TrackerQuestion(
            trackerID: evening.id, day: try Day(parsing: "2027-01-15"), askAt: midnight.addingTimeInterval(21 * 3600))
        let end = midnight.addingTimeInterval(86_400)
        func asked(at now: Date, _ questions: [TrackerQuestion]) -> TrackerQuestion.Asked {
            TrackerQuestion.stillAsked(
                reminderID: question.reminderID, dueAt: question.askAt, questions: questions, now: now,
                usefulUntil: end, timeZone: zone, quietHours: .standard)
        }
        #expect(asked(at: question.askAt, [question]) == .ask(question))
        #expect(asked(at: question.askAt, []) == .refuse(.noLongerPlanned))
        // A retry that would land in the quiet hours waits for no one: it is not sent.
        #expect(asked(at: midnight.addingTimeInterval(22.5 * 3600), [question]) == .refuse(.noLongerPlanned))
        #expect(asked(at: end, [question]) == .refuse(.expired))
    }
}

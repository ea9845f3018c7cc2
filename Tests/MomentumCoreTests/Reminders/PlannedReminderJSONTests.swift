import Foundation
import Testing

@testable import MomentumCore

@Suite("Planned reminders as JSON")
struct PlannedReminderJSONTests {
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    @Test func aMovedReminderSurvivesTheRoundTripWithItsTextsInTheChosenLanguage() throws {
        let reminder = PlannedReminder(
            id: "level.review.3", plannedDay: try Day(parsing: "2026-11-23"), kind: .levelReview, category: .morse,
            fireAt: try ReminderClock.at("2026-11-24 08:00"),
            title: LocalizedText(.reminderLevelReviewTitle, ["level": "3"]),
            body: LocalizedText(.reminderLevelReviewBody)
        ).moved(to: try ReminderClock.at("2026-11-24 09:00"), because: .spacing)
        let form = reminder.jsonForm(in: .german)
        #expect(form.title == "Morsen: eine Woche auf Stufe 3")
        #expect(form.occurrenceID == "level.review.3.2026-11-23")
        #expect(form.movedFrom == (try ReminderClock.at("2026-11-24 08:00")))
        let json = try Self.encoder.encode(form)
        let text = try #require(String(data: json, encoding: .utf8))
        #expect(text.contains(#""kind":"levelReview""#))
        #expect(text.contains(#""category":"morse""#))
        #expect(text.contains(#""fireAt":"2026-11-24T08:00:00Z""#))
        #expect(text.contains(#""movedFrom":"2026-11-24T07:00:00Z""#))
        #expect(try Self.decoder.decode(PlannedReminder.JSONForm.self, from: json) == form)
    }

    @Test func welcomeBackWritesNullForItsCategoryAndMovedFrom() throws {
        let reminder = PlannedReminder(
            id: "welcome.back", plannedDay: try Day(parsing: "2026-11-23"), kind: .welcomeBack, category: nil,
            fireAt: try ReminderClock.at("2026-11-23 09:00"), title: LocalizedText(.reminderWelcomeBackTitle),
            body: LocalizedText(.reminderWelcomeBackBody))
        let form = reminder.jsonForm(in: .english)
        let json = try Self.encoder.encode(form)
        let text = try #require(String(data: json, encoding: .utf8))
        #expect(
            text == #"{"body":"It has been a while. Five easy minutes are a fine way to begin again.","category":null,"#
                + #""fireAt":"2026-11-23T08:00:00Z","id":"welcome.back","kind":"welcomeBack","movedFrom":null,"#
                + #""movedText":null,"#
                + #""occurrenceID":"welcome.back.2026-11-23","title":"Welcome back"}"#)
        #expect(try Self.decoder.decode(PlannedReminder.JSONForm.self, from: json) == form)
    }

    @Test func aFormWithoutTheOptionalKeysStillDecodes() throws {
        let text =
            #"{"id":"practice.send","occurrenceID":"practice.send.2026-11-23","kind":"practiceDue","#
            + #""fireAt":"2026-11-23T08:00:00Z","title":"t","body":"b"}"#
        let json = Data(text.utf8)
        let form = try Self.decoder.decode(PlannedReminder.JSONForm.self, from: json)
        #expect(form.category == nil)
        #expect(form.movedFrom == nil)
        #expect(form.kind == .practiceDue)
    }
}

import Foundation
import MomentumCore
import Testing

@Suite("Reminder settings in JSON and in backups")
struct ReminderSettingsJSONTests {
    func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    @Test func theStoredShapeIsKindsQuietHoursPreferredTimeAndDaily() throws {
        let settings = try ReminderSettings()
            .setting(kind: .streak, on: false)
            .addingDaily(id: "morning", time: "7:30", weekdays: "fri,mon", category: "mindfulness")
        #expect(
            try json(settings)
                == #"{"daily":[{"category":"mindfulness","id":"morning","time":"07:30","weekdays":["mon","fri"]}],"#
                + #""kinds":{"daily":true,"levelReview":true,"practiceDue":true,"streak":false,"welcomeBack":true},"#
                + #""preferredTime":"09:00","quietHours":{"end":"08:00","start":"22:00"}}"#)
        #expect(try decode(ReminderSettings.self, try json(settings)) == settings)
    }

    @Test func missingKeysTakeTheirDefaults() throws {
        #expect(try decode(ReminderSettings.self, "{}") == ReminderSettings())
        let partial = try decode(ReminderSettings.self, #"{"kinds":{"welcomeBack":false}}"#)
        #expect(partial == ReminderSettings().setting(kind: .welcomeBack, on: false))
    }

    @Test func aBackupWithoutRemindersReadsWithTheDefaults() throws {
        let old = #"{"sound":false,"progress":{"dayStartHour":4,"jokersEnabled":true,"hideStreaks":false,"goals":{}}}"#
        let settings = try decode(MomentumSettings.self, old)
        #expect(settings.reminders == ReminderSettings())
        #expect(settings.progress.dayStartHour == 4)
    }

    @Test func settingsWithRemindersReadBackTheSame() throws {
        var settings = MomentumSettings()
        settings.reminders = try ReminderSettings().withQuietHours(start: "23:00", end: "06:30")
            .addingDaily(time: "18:00", weekdays: "weekend", category: "workout")
        #expect(try decode(MomentumSettings.self, try json(settings)) == settings)
    }

    @Test(arguments: [
        (#"{"quietHours":{"start":"08:00","end":"08:00"}}"#, "08:00 to 08:00 would last zero or 24 hours"),
        (#"{"preferredTime":"25:00"}"#, "“25:00” is not a time of day: hours go from 00 to 23"),
        (#"{"preferredTime":"9:60"}"#, "“9:60” is not a time of day: minutes go from 00 to 59"),
        (#"{"daily":[{"id":"a","time":"07:00","weekdays":[],"category":"focus"}]}"#, "“a” needs at least one weekday"),
        (#"{"daily":[{"id":"a","time":"07:00","weekdays":["mon"],"category":"yoga"}]}"#, "“yoga” is not a category"),
        (#"{"daily":[{"id":"a","time":"07:00","weekdays":["moon"],"category":"focus"}]}"#, "“moon” is not a weekday"),
        (
            #"{"daily":[{"id":"a","time":"07:00","weekdays":["mon"],"category":"focus"},"#
                + #"{"id":"a","time":"08:00","weekdays":["mon"],"category":"focus"}]}"#,
            "already a daily reminder “a”"
        ),
        (#"{"kinds":{"nagging":true}}"#, "“nagging” is not a kind of reminder"),
    ])
    func aBadValueInABackupIsRefusedAndNamed(reminders: String, named: String) throws {
        let text = #"{"sound":true,"reminders":"# + reminders + "}"
        let error = try #require(throws: DecodingError.self) { try decode(MomentumSettings.self, text) }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("not a corrupted value: \(error)")
            return
        }
        #expect(context.debugDescription.contains(named), "\(context.debugDescription)")
        #expect(context.codingPath.first?.stringValue == "reminders")
    }
}

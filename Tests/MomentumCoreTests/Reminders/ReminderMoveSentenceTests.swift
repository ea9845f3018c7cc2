import Foundation
import Testing

@testable import MomentumCore

/// The sentence a moved reminder carries: which rule moved it, from when to when, on the
/// language's own clock. "Today" is Monday 2026-11-23, Berlin.
@Suite("Reminder moves, said in words")
struct ReminderMoveSentenceTests {
    func plan(_ times: [String], quiet: (String, String), now: String = "07:00") throws -> [PlannedReminder] {
        var settings = try ReminderClock.only(.daily).withQuietHours(start: quiet.0, end: quiet.1)
        for (index, time) in times.enumerated() {
            settings = try settings.addingDaily(
                id: "r\(index)", time: time, weekdays: "mon", category: "focus")
        }
        return ReminderPlanner.plan(try ReminderClock.inputs(now: now, settings: settings))
    }

    @Test func quietHoursThatMoveTonightsReminderSayFromWhenToWhenTheNextDay() throws {
        let settings = try ReminderClock.only(.daily).withQuietHours(start: "22:00", end: "07:00")
        let reminders = try plan(["22:30"], quiet: ("22:00", "07:00"))
        let moved = try #require(reminders.first)
        #expect(moved.moves == [.quietHours])
        #expect(
            moved.moveSentence(quietHours: settings.quietHours, timeZone: ReminderClock.berlin, language: .english)
                == "Quiet hours 22:00–07:00 move this reminder from 22:30 to 07:00 the next day.")
        #expect(
            moved.moveSentence(quietHours: settings.quietHours, timeZone: ReminderClock.berlin, language: .german)
                == "Die Ruhezeit 22:00–07:00 verschiebt diese Erinnerung von 22:30 auf 07:00 am nächsten Tag.")
    }

    @Test func aMoveWithinTheSameMorningNamesNoDay() throws {
        let settings = try ReminderClock.only(.daily).withQuietHours(start: "22:00", end: "07:00")
        let moved = try #require(try plan(["06:30"], quiet: ("22:00", "07:00"), now: "05:00").first)
        #expect(
            moved.moveSentence(quietHours: settings.quietHours, timeZone: ReminderClock.berlin, language: .english)
                == "Quiet hours 22:00–07:00 move this reminder from 06:30 to 07:00.")
    }

    @Test func spacingSaysHowFarApartRemindersStay() throws {
        let reminders = try plan(["08:00", "10:00"], quiet: ("22:00", "07:00"))
        let moved = try #require(reminders.last)
        #expect(moved.moves == [.spacing])
        let sentence = moved.moveSentence(
            quietHours: try #require(QuietHours.standard as QuietHours?), timeZone: ReminderClock.berlin,
            language: .german)
        #expect(sentence == "Von 10:00 auf 12:00 verschoben: Zwischen Erinnerungen liegen mindestens 4 Stunden.")
    }

    @Test func aReminderThatWasNotMovedHasNoSentenceAndItsJSONSaysNull() throws {
        let reminder = try #require(try plan(["09:00"], quiet: ("22:00", "07:00")).first)
        #expect(reminder.moveSentence(quietHours: .standard, timeZone: ReminderClock.berlin, language: .english) == nil)
        let form = reminder.jsonForm(in: .english, quietHours: .standard, timeZone: ReminderClock.berlin)
        #expect(form.movedText == nil)
        let json = String(decoding: try PlannedReminderJSONTests.encoder.encode(form), as: UTF8.self)
        #expect(json.contains(#""movedText":null"#))
    }

    @Test func theWireFormCarriesTheSentenceInItsLanguage() throws {
        let settings = try ReminderClock.only(.daily).withQuietHours(start: "22:00", end: "07:00")
        let moved = try #require(try plan(["23:15"], quiet: ("22:00", "07:00")).first)
        let form = moved.jsonForm(in: .german, quietHours: settings.quietHours, timeZone: ReminderClock.berlin)
        #expect(
            form.movedText
                == "Die Ruhezeit 22:00–07:00 verschiebt diese Erinnerung von 23:15 auf 07:00 am nächsten Tag.")
    }

    @Test(arguments: Language.allCases)
    func bothLanguagesReadTimesOnTheTwentyFourHourClock(language: Language) throws {
        #expect(language.usesTwentyFourHourClock)
        #expect(language.clockTime(try TimeOfDay(parsing: "13:05")) == "13:05")
        #expect(language.clockTime(try ReminderClock.at("13:05"), timeZone: ReminderClock.berlin) == "13:05")
    }
}

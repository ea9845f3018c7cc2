import Foundation
import Testing

@testable import MomentumCore

/// The focus goal is a daily goal like mindfulness and workout: its own bounds, a setting key,
/// a form field, the backup form and sync.
@Suite("The focus goal")
struct FocusGoalTests {
    @Test func itHasADefaultAndItsOwnBounds() throws {
        let settings = ProgressSettings()
        #expect(settings.goal(for: .focus) == 25)
        #expect(ProgressSettings.goalBounds(for: .focus) == 1...480)
        #expect(ProgressSettings.goalBounds(for: .mindfulness) == 1...120)
        let bounds = try #require(FormBounds.all["progress.focusGoal"])
        #expect(bounds.min == 1 && bounds.max == 480 && bounds.defaultValue == 25)
    }

    @Test func theSettingKeyTakesMinutesWithinItsBounds() throws {
        var settings = MomentumSettings()
        try settings.set(.focusGoal, to: "300")
        #expect(settings.progress.goal(for: .focus) == 300)
        #expect(settings.text(for: .focusGoal) == "300")
        #expect(throws: SettingValueError.outOfRange(key: .focusGoal, value: "481")) {
            try settings.set(.focusGoal, to: "481")
        }
        #expect(throws: SettingValueError.unreadable(key: .focusGoal, value: "lots")) {
            try settings.set(.focusGoal, to: "lots")
        }
    }

    @Test func aDayFillsTheFocusGoalWithItsFocusMinutesOnly() throws {
        var settings = ProgressSettings()
        settings.goals[.focus] = 50
        var log = try LogBuilder()
        try log.add(daysAgo: 0, seconds: 25 * 60, kind: .focus)
        try log.add(daysAgo: 0, seconds: 40 * 60, kind: .meditation, hour: 9)
        let today = log.totals[log.today]
        #expect(settings.fill(of: today, for: .focus) == 0.5)
        #expect(today.counts(for: .focus))
    }

    @Test func theBackupFormKeepsItAndOlderFormsWithoutItGetTheDefault() throws {
        var settings = MomentumSettings()
        try settings.set(.focusGoal, to: "90")
        let data = try JSONEncoder().encode(settings)
        #expect(try JSONDecoder().decode(MomentumSettings.self, from: data).progress.goal(for: .focus) == 90)

        let older =
            #"{"progress":{"dayStartHour":0,"jokersEnabled":true,"hideStreaks":false,"goals":{"mindfulness":15,"workout":10}}}"#
        let decoded = try JSONDecoder().decode(MomentumSettings.self, from: Data(older.utf8))
        #expect(decoded.progress.goals == [.mindfulness: 15, .workout: 10, .focus: 25])
    }

    @Test func itTravelsBetweenDevicesAsTheOtherGoalsDo() throws {
        var here = MomentumSettings()
        try here.set(.focusGoal, to: "120")
        #expect(here.syncTexts[.focusGoal] == "120")
        let there = MomentumSettings().applyingSyncTexts(here.syncTexts)
        #expect(there.progress.goal(for: .focus) == 120)
    }

    @Test(arguments: [
        (#"{"focus":500}"#, ProgressSettingsError.goalOutOfRange(.focus, minutes: 500), "progress.goals.focus"),
        (#"{"workout":0}"#, .goalOutOfRange(.workout, minutes: 0), "progress.goals.workout"),
        (#"{"focus":12.5}"#, .goalOutOfRange(.focus, minutes: 0), "progress.goals.focus"),
        (#"{"morse":10}"#, .goalNotKept(.morse), "progress.goals.morse"),
    ])
    func aGoalOutOfBoundsIsRefusedNamingItsField(goals: String, refusal: ProgressSettingsError, field: String) throws {
        let text = #"{"progress":{"dayStartHour":0,"jokersEnabled":true,"hideStreaks":false,"goals":\#(goals)}}"#
        do {
            _ = try JSONDecoder().decode(MomentumSettings.self, from: Data(text.utf8))
            Issue.record("decoded \(goals)")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.underlyingError as? ProgressSettingsError == refusal)
            #expect(context.codingPath.map(\.stringValue).joined(separator: ".") == field)
            #expect(refusal.field == field)
        }
    }

    @Test func refusalsSpeakBothLanguagesWithoutTypeOrFieldNames() {
        let refusal = ProgressSettingsError.goalOutOfRange(.focus, minutes: 500)
        #expect(
            refusal.message(in: .shared(for: .english)) == "Choose a daily goal for Focus of 1 to 480 whole minutes.")
        #expect(
            refusal.message(in: .shared(for: .german)) == "Wähle ein Tagesziel für Fokus von 1 bis 480 ganzen Minuten.")
        #expect(
            ProgressSettingsError.dayStartHourOutOfRange(9).message(in: .shared(for: .german))
                == "Ein neuer Tag kann zwischen 00:00 und 06:00 Uhr beginnen.")
    }
}

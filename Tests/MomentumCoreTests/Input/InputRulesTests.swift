import Foundation
import Testing

@testable import MomentumCore

/// Issue 22.6: the rules every entry point reaches, each once, in the core.
@Suite("Input rules: names, icons, interval gongs, energy")
struct InputRulesTests {
    static let pattern = BreathingPattern.newPreset

    @Test func presetAndProgramNamesTakeOneHundredCharactersAndNoMore() throws {
        let fits = String(repeating: "ä", count: 100)
        #expect(try BreathingPreset(id: "p", name: fits, pattern: Self.pattern, rounds: 5).name == fits)
        #expect(try WorkoutProgram(id: "w", name: fits, plan: WorkoutPlan()).name == fits)
        #expect(throws: BreathingError.presetNameTooLong) {
            try BreathingPreset(id: "p", name: fits + "x", pattern: Self.pattern, rounds: 5)
        }
        #expect(throws: WorkoutError.programNameTooLong) {
            try WorkoutProgram(id: "w", name: fits + "x", plan: WorkoutPlan())
        }
        // Surrounding spaces are trimmed before counting, as before.
        #expect(try WorkoutProgram(id: "w", name: "  " + fits + "  ", plan: WorkoutPlan()).name == fits)
    }

    @Test func aTimerTakesOnlyAnIconFromTheList() throws {
        for icon in FocusTimer.icons {
            #expect(try FocusTimer(id: UUID(), name: "Read", icon: icon, sortOrder: 0, createdAt: .now).icon == icon)
        }
        #expect(throws: FocusTimerError.invalidIcon("rocket")) {
            try FocusTimer(id: UUID(), name: "Read", icon: "rocket", sortOrder: 0, createdAt: .now)
        }
        #expect(FocusTimer.icons.contains(FocusTimer.defaultIcon))
        #expect(Set(FocusTimer.icons).count == FocusTimer.icons.count)
    }

    @Test func aSyncedTimerWithAnIconFromBeforeTheListKeepsItsOtherFields() throws {
        let timer = try #require(
            FocusTimer.synced(
                id: UUID(),
                fields: ["name": .string("Read"), "durationMs": .integer(60_000), "icon": .string("rocket")],
                items: [], fallbackCreatedAt: .now, updatedAt: .now))
        #expect(timer.name == "Read")
        #expect(timer.icon == FocusTimer.defaultIcon)
    }

    @Test func energyAboveTenThousandKilocaloriesIsNotARecord() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(throws: PracticeRecordError.invalidEnergy) {
            try PracticeRecord(
                id: UUID(), kind: .workout, start: start, end: start + 600, countedSeconds: 600,
                energyKilocalories: 10_000.1, device: "t")
        }
        #expect(throws: Never.self) {
            try PracticeRecord(
                id: UUID(), kind: .workout, start: start, end: start + 600, countedSeconds: 600,
                energyKilocalories: 10_000, device: "t")
        }
    }

    @Test func storedPlansLoseOnlyTheGongsThatNeverSounded() {
        let late = MeditationPlan(duration: .minutes(10), intervalGongs: .offsets([.minutes(4), .minutes(10)]))
        #expect(late.withoutIntervalGongsAtOrAfterEnd.intervalGongs == .offsets([.minutes(4)]))
        let never = MeditationPlan(duration: .minutes(10), intervalGongs: .every(minutes: 15))
        #expect(never.withoutIntervalGongsAtOrAfterEnd.intervalGongs == .off)
        let fine = MeditationPlan(duration: .minutes(10), intervalGongs: .every(minutes: 5))
        #expect(fine.withoutIntervalGongsAtOrAfterEnd == fine)
        let open = MeditationPlan(duration: .minutes(10), intervalGongs: .every(minutes: 15), isOpenEnded: true)
        #expect(open.withoutIntervalGongsAtOrAfterEnd == open)
    }
}

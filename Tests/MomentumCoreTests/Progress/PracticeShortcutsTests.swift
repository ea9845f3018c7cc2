import Foundation
import Testing

@testable import MomentumCore

@Suite("Home-screen shortcuts: the most used practices, counted from the log")
struct PracticeShortcutsTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let catalog = StringCatalog.shared(for: .english)

    func sit(_ id: String, _ name: String) throws -> MeditationPreset {
        try MeditationPreset(id: id, name: name, plan: MeditationPlan(), createdAt: now, updatedAt: now)
    }

    func record(_ kind: PracticeKind, _ details: [String: String], daysAgo: Double) throws -> PracticeRecord {
        let start = now.addingTimeInterval(-daysAgo * 86_400)
        return try PracticeRecord(
            id: UUID(), kind: kind, start: start, end: start.addingTimeInterval(60), countedSeconds: 60,
            details: details, device: "test")
    }

    func choose(_ records: [PracticeRecord], sits: [MeditationPreset] = []) -> [String] {
        PracticeShortcuts.choose(
            records: records, now: now, meditationPresets: sits, breathingPresets: BreathingPreset.builtIn,
            workoutPrograms: WorkoutProgram.builtIn, catalog: catalog
        ).map(\.url)
    }

    @Test func mostSessionsFirstThenTheMostRecentWithinNinetyDays() throws {
        let morning = try sit("m1", "Morning 20")
        let records = [
            try record(.workout, ["programID": "emom-10"], daysAgo: 2),
            try record(.workout, ["programID": "emom-10"], daysAgo: 3),
            try record(.meditation, ["presetID": "m1"], daysAgo: 10),
            try record(.meditation, ["presetID": "m1"], daysAgo: 11),
            try record(.breathing, ["presetID": "ujjayi"], daysAgo: 1),
            try record(.breathing, ["presetID": "awake"], daysAgo: 4),
            // Outside the window: three old sessions count for nothing.
            try record(.breathing, ["presetID": "pranayama"], daysAgo: 91),
            try record(.breathing, ["presetID": "pranayama"], daysAgo: 100),
            try record(.breathing, ["presetID": "pranayama"], daysAgo: 200),
            // Without an origin: never counted.
            try record(.meditation, [:], daysAgo: 1),
            try record(.morse, ["presetID": "box"], daysAgo: 1),
        ]
        // emom-10 (2, latest 2 days ago) before Morning 20 (2, latest 10 days ago); then ujjayi
        // (1, yesterday) before awake (1, 4 days ago).
        #expect(
            choose(records, sits: [morning]) == [
                "/#workout?program=emom-10", "/#meditate/preset/Morning%2020", "/#breathe?preset=ujjayi",
            ])
    }

    @Test func deletedPracticesDropOutAndTheGapsAreFilled() throws {
        let records = [
            try record(.meditation, ["presetID": "gone"], daysAgo: 1),
            try record(.workout, ["programID": "gone-too"], daysAgo: 1),
            try record(.breathing, ["presetID": "box"], daysAgo: 1),
        ]
        #expect(choose(records) == ["/#breathe?preset=box", "/#workout?program=tabata"])
        let zazen = try sit("z", "Zazen 40")
        let morning = try sit("m", "morning")
        #expect(
            choose([], sits: [zazen, morning]) == [
                "/#meditate/preset/morning", "/#breathe?preset=box", "/#workout?program=tabata",
            ])
    }

    @Test func namesAreEncodedAsTheDeepLinksDecodeThem() throws {
        let odd = try sit("o", "Abend & Ruhe/20?")
        let shortcut = try #require(
            PracticeShortcuts.choose(
                records: [try record(.meditation, ["presetID": "o"], daysAgo: 1)], now: now,
                meditationPresets: [odd], breathingPresets: [], workoutPrograms: [], catalog: catalog
            ).first)
        #expect(shortcut.url == "/#meditate/preset/Abend%20%26%20Ruhe%2F20%3F")
        #expect(shortcut.name == "Abend & Ruhe/20?")
        let german = PracticeShortcuts.choose(
            records: [], now: now, meditationPresets: [], breathingPresets: BreathingPreset.builtIn,
            workoutPrograms: WorkoutProgram.builtIn, catalog: .shared(for: .german))
        #expect(german.first?.name == StringCatalog.shared(for: .german)[StringKey("breathing.preset.box")])
    }

    @Test func plansAndSitsKeepTheIdOfWhatTheyWereStartedFrom() throws {
        let box = try #require(BreathingPreset.builtIn.first { $0.id == "box" })
        let breathing = box.plan(catalog: catalog).logDetails
        #expect(breathing["presetID"] == "box")
        #expect(breathing["preset"] == "Box breathing")
        let workout = try WorkoutProgram.builtIn(id: "tabata").plan(catalog: catalog).logDetails
        #expect(workout["programID"] == "tabata")
        #expect(workout["program"] == "Tabata")

        let morning = try sit("m1", "Morning 20")
        let logged = try #require(
            try MeditationOutcome.completed(meditated: .minutes(20))
                .record(
                    id: UUID(), start: now, end: now.addingTimeInterval(1200), plan: morning.plan, preset: morning,
                    device: "test"))
        #expect(logged.details["presetID"] == "m1")
        #expect(logged.details["preset"] == "Morning 20")
        #expect(PracticeOrigin(logged) == .meditationPreset(id: "m1"))
        let plain = try #require(
            try MeditationOutcome.completed(meditated: .minutes(20))
                .record(id: UUID(), start: now, end: now.addingTimeInterval(1200), plan: MeditationPlan(), device: "t"))
        #expect(plain.details["presetID"] == nil)
        #expect(PracticeOrigin(plain) == nil)
    }

    @Test func listeningIsSaidInWordsNeverAsAClock() {
        let logged = EndingSentence.listening(.seconds(750), logged: true, language: .english)
        #expect(logged?.contains("12 min 30 s") == true)
        let short = EndingSentence.listening(.milliseconds(3030), logged: false, language: .german)
        #expect(short?.contains("3 Sek.") == true)
        #expect(short?.contains("00:0") == false)
        #expect(EndingSentence.listening(.milliseconds(400), logged: false, language: .english) == nil)
    }
}

import Foundation
import Testing

@testable import MomentumCore

@Suite("Saved sits: a name and a whole plan, told in one line")
struct MeditationPresetTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let english = StringCatalog.shared(for: .english)
    static let german = StringCatalog.shared(for: .german)

    func preset(name: String, plan: MeditationPlan = MeditationPlan()) throws(MeditationPresetError)
        -> MeditationPreset
    {
        try MeditationPreset(id: "p", name: name, plan: plan, createdAt: Self.now, updatedAt: Self.now)
    }

    @Test func theNameIsTrimmedAndKeepsTheNameRules() throws {
        #expect(try preset(name: "  Evening sit ").name == "Evening sit")
        #expect(throws: MeditationPresetError.emptyName) { try preset(name: "   ") }
        let fits = String(repeating: "a", count: MeditationPreset.maximumNameLength)
        #expect(try preset(name: fits).name == fits)
        #expect(throws: MeditationPresetError.nameTooLong) { try preset(name: fits + "a") }
        #expect(throws: MeditationPresetError.self) { try preset(name: "Eve\u{7}ning") }
    }

    @Test func thePlanIsCheckedByThePlansOwnRules() throws {
        #expect(throws: MeditationPresetError.invalidPlan(.durationTooLong)) {
            try preset(name: "Long", plan: MeditationPlan(duration: .seconds(10 * 3600 + 1)))
        }
        #expect(throws: MeditationPresetError.invalidPlan(.unknownAmbient("thunder"))) {
            try preset(name: "Storm", plan: MeditationPlan(ambientID: "thunder"))
        }
        #expect(
            throws: MeditationPresetError.invalidPlan(
                .intervalGongAtOrAfterEnd(offset: .minutes(20), duration: .minutes(20)))
        ) {
            try preset(name: "Late", plan: MeditationPlan(duration: .minutes(20), intervalGongs: .every(minutes: 20)))
        }
    }

    @Test(arguments: [
        (
            MeditationPlan(duration: .minutes(20), intervalGongs: .every(minutes: 5)), "20 min · gongs every 5 min",
            "20 Min. · Gong alle 5 Min."
        ),
        (
            MeditationPlan(duration: .minutes(40), intervalGongs: .offsets([.minutes(25), .minutes(30)])),
            "40 min · gongs at 25, 30 min", "40 Min. · Gong bei 25, 30 Min."
        ),
        (
            MeditationPlan(ambientID: "rain", isOpenEnded: true), "open-ended · Soft rain",
            "ohne festes Ende · Sanfter Regen"
        ),
        (
            MeditationPlan(duration: .minutes(75), reflection: .minutes(5)), "1 h 15 min · reflection 5 min",
            "1 Std. 15 Min. · Nachklang 5 Min."
        ),
    ])
    func theSummaryTellsTheSitInOneLineInEitherLanguage(plan: MeditationPlan, english: String, german: String)
        throws
    {
        let saved = try preset(name: "Sit", plan: plan)
        #expect(saved.summary(Self.english) == english)
        #expect(saved.summary(Self.german) == german)
    }

    @Test func theIntervalLabelIsTheFormsLabel() {
        #expect(IntervalGongs.off.label(Self.english) == "off")
        #expect(IntervalGongs.every(minutes: 5).label(Self.english) == "every 5 min")
        #expect(IntervalGongs.offsets([.minutes(25), .minutes(30)]).label(Self.german) == "bei 25, 30 Min.")
    }
}

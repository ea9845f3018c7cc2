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

    @Test func movingASitNumbersTheOthersByTheirPlaceAndMovingNowhereChangesNothing() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        // Three sits made before sits were reordered: all 0, in the order they were made.
        let sits = try ["Morning", "Zazen", "Evening"].enumerated().map { offset, name in
            try MeditationPreset(
                id: "id-\(name)", name: name, plan: MeditationPlan(),
                createdAt: start.addingTimeInterval(Double(offset)),
                updatedAt: start)
        }
        #expect(MeditationPreset.ordered(sits.reversed()).map(\.name) == ["Morning", "Zazen", "Evening"])
        #expect(MeditationPreset.nextSortOrder(after: sits) == 1)
        #expect(MeditationPreset.nextSortOrder(after: []) == 0)
        let later = start.addingTimeInterval(60)
        #expect(try MeditationPreset.moving("id-Zazen", to: 1, in: sits, at: later).isEmpty)
        let moved = try MeditationPreset.moving("id-Evening", to: 0, in: sits, at: later)
        #expect(moved.map(\.name) == ["Morning", "Zazen"])  // Evening keeps 0, the others move on
        #expect(moved.map(\.sortOrder) == [1, 2])
        #expect(moved.allSatisfy { $0.updatedAt == later })
        var after = sits
        for sit in moved {
            if let index = after.firstIndex(where: { $0.id == sit.id }) { after[index] = sit }
        }
        #expect(MeditationPreset.ordered(after).map(\.name) == ["Evening", "Morning", "Zazen"])
        #expect(
            try MeditationPreset.moving("id-Morning", to: 10_000, in: after, at: later).map(\.name) == [
                "Zazen", "Morning",
            ])
        #expect(throws: MeditationPresetError.positionOutOfRange) {
            try MeditationPreset.moving("id-Morning", to: -1, in: sits, at: later)
        }
        #expect(throws: MeditationPresetError.positionOutOfRange) {
            try MeditationPreset.moving("id-Morning", to: 10_001, in: sits, at: later)
        }
        #expect(throws: MeditationPresetError.unknownPreset("nope")) {
            try MeditationPreset.moving("nope", to: 0, in: sits, at: later)
        }
    }
}

import Foundation
import MomentumCore
import MomentumStore
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

@testable import MomentumServices

@Suite("Saved sits: added, found, edited, renamed and deleted")
struct MeditationPresetServiceTests {
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))

    /// The services on a fresh store of `kind`.
    private func services(_ kind: StoreKind) throws -> LogServices {
        let clock = self.clock
        return LogServices(store: try StoreUnderTest(kind), device: "test-device", now: { clock.now })
    }
    static let twenty = MeditationPlan(duration: .minutes(20), intervalGongs: .every(minutes: 5))

    @Test(arguments: StoreKind.available)
    func aSavedSitIsFoundByItsNameInAnyCaseOrByItsID(kind: StoreKind) throws {
        let services = try services(kind)
        let presets = services.meditationPresets
        let made = try presets.addPreset(name: "  Evening sit ", plan: Self.twenty)
        #expect(made.name == "Evening sit")
        #expect(made.plan == Self.twenty)
        #expect(made.createdAt == clock.now)
        #expect(try presets.preset(named: "evening SIT") == made)
        #expect(try presets.preset(named: made.id) == made)
        #expect(try presets.presets() == [made])
        #expect(throws: MeditationPresetServiceError.invalid(.unknownPreset("Morning"))) {
            try presets.preset(named: "Morning")
        }
    }

    @Test(arguments: StoreKind.available)
    func savedSitsKeepThePersonsOrderThroughMovesEditsRenamesAndNewSits(kind: StoreKind) throws {
        let services = try services(kind)
        let presets = services.meditationPresets
        let names = { try presets.presets().map(\.name) }
        for name in ["Morning", "Zazen", "Evening"] {
            _ = try presets.addPreset(name: name, plan: Self.twenty)
            clock.advance(by: 1)
        }
        #expect(try names() == ["Morning", "Zazen", "Evening"])
        let zazen = try presets.preset(named: "Zazen")
        #expect(try presets.movePreset(zazen, to: 0).map(\.name) == ["Zazen", "Morning", "Evening"])
        #expect(try names() == ["Zazen", "Morning", "Evening"])
        // Editing and renaming keep the place; a new sit comes last; past the last is the last.
        _ = try presets.editPreset(try presets.preset(named: "Zazen"), plan: MeditationPlan(duration: .minutes(40)))
        _ = try presets.renamePreset(try presets.preset(named: "Zazen"), to: "Zazen long")
        _ = try presets.addPreset(name: "Walk", plan: Self.twenty)
        #expect(try names() == ["Zazen long", "Morning", "Evening", "Walk"])
        #expect(
            try presets.movePreset(try presets.preset(named: "Morning"), to: 99).map(\.name)
                == ["Zazen long", "Evening", "Walk", "Morning"])
        // Moving a sit to where it is changes nothing, and no place below the first exists.
        let before = try presets.presets()
        #expect(try presets.movePreset(try presets.preset(named: "Evening"), to: 1) == before)
        #expect(throws: MeditationPresetServiceError.invalid(.positionOutOfRange)) {
            try presets.movePreset(try presets.preset(named: "Evening"), to: -1)
        }
        #expect(try presets.presets() == before)
    }

    @Test(arguments: StoreKind.available)
    func aNameAnotherSavedSitHasIsRefusedInAnyCase(kind: StoreKind) throws {
        let services = try services(kind)
        let presets = services.meditationPresets
        let evening = try presets.addPreset(name: "Evening", plan: Self.twenty)
        let morning = try presets.addPreset(name: "Morning", plan: MeditationPlan())
        #expect(throws: MeditationPresetServiceError.invalid(.nameTaken("EVENING"))) {
            try presets.addPreset(name: "EVENING", plan: MeditationPlan())
        }
        #expect(throws: MeditationPresetServiceError.invalid(.nameTaken("evening"))) {
            try presets.renamePreset(morning, to: "evening")
        }
        // A saved sit may change the case of its own name.
        #expect(try presets.renamePreset(evening, to: "EVENING").name == "EVENING")
        #expect(MeditationPresetServiceError.invalid(.nameTaken("x")).failureKind == .conflict)
        #expect(MeditationPresetServiceError.invalid(.unknownPreset("x")).failureKind == .notFound)
        #expect(MeditationPresetServiceError.invalid(.emptyName).failureKind == .invalid)
    }

    @Test(arguments: StoreKind.available)
    func editingReplacesThePlanAndKeepsTheNameAndWhenItWasMade(kind: StoreKind) throws {
        let services = try services(kind)
        let presets = services.meditationPresets
        let made = try presets.addPreset(name: "Evening", plan: Self.twenty)
        clock.advance(by: 60)
        let open = MeditationPlan(intervalGongs: .offsets([.minutes(25), .minutes(30)]), isOpenEnded: true)
        let edited = try presets.editPreset(made, plan: open)
        #expect(edited.plan == open)
        #expect(edited.name == "Evening")
        #expect(edited.createdAt == made.createdAt)
        #expect(edited.updatedAt == clock.now)
        #expect(try presets.presets() == [edited])
    }

    @Test(arguments: StoreKind.available)
    func aPlanOutOfItsBoundsOrABlankNameStoresNothing(kind: StoreKind) throws {
        let services = try services(kind)
        let presets = services.meditationPresets
        #expect(throws: MeditationPresetServiceError.invalid(.invalidPlan(.intervalTooLong))) {
            try presets.addPreset(
                name: "Odd", plan: MeditationPlan(duration: .minutes(90), intervalGongs: .every(minutes: 61)))
        }
        #expect(throws: MeditationPresetServiceError.invalid(.emptyName)) {
            try presets.addPreset(name: "  ", plan: MeditationPlan())
        }
        #expect(try presets.presets().isEmpty)
    }

    @Test(arguments: StoreKind.available)
    func deletingASavedSitTwiceSaysItIsGone(kind: StoreKind) throws {
        let services = try services(kind)
        let presets = services.meditationPresets
        let made = try presets.addPreset(name: "Evening", plan: Self.twenty)
        try presets.deletePreset(made)
        #expect(throws: MeditationPresetServiceError.invalid(.unknownPreset("Evening"))) {
            try presets.deletePreset(made)
        }
        #expect(try presets.presets().isEmpty)
    }

    @Test func errorsReadAsOneSentenceInEitherLanguage() {
        let english = ErrorMessages.message(
            describing: MeditationPresetServiceError.invalid(.nameTaken("Evening")), catalog: .shared(for: .english))
        #expect(english == "There is already a saved sit called “Evening”; choose another name.")
        let german = ErrorMessages.message(
            describing: MeditationPresetServiceError.invalid(.unknownPreset("Abend")), catalog: .shared(for: .german))
        #expect(german == "Es gibt keine gespeicherte Sitzung „Abend“; momentum meditate presets zeigt alle.")
    }
}

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
    private func services(_ kind: StoreKind) async throws -> LogServices {
        let clock = self.clock
        return await LogServices(store: try StoreUnderTest(kind), device: "test-device", now: { clock.now })
    }
    static let twenty = MeditationPlan(duration: .minutes(20), intervalGongs: .every(minutes: 5))

    @Test(arguments: StoreKind.available)
    func aSavedSitIsFoundByItsNameInAnyCaseOrByItsID(kind: StoreKind) async throws {
        let services = try await services(kind)
        let presets = services.meditationPresets
        let made = try await presets.addPreset(name: "  Evening sit ", plan: Self.twenty)
        #expect(made.name == "Evening sit")
        #expect(made.plan == Self.twenty)
        #expect(made.createdAt == clock.now)
        #expect(try await presets.preset(named: "evening SIT") == made)
        #expect(try await presets.preset(named: made.id) == made)
        #expect(try await presets.presets() == [made])
        await #expect(throws: MeditationPresetServiceError.invalid(.unknownPreset("Morning"))) {
            try await presets.preset(named: "Morning")
        }
    }

    @Test(arguments: StoreKind.available)
    func savedSitsKeepThePersonsOrderThroughMovesEditsRenamesAndNewSits(kind: StoreKind) async throws {
        let services = try await services(kind)
        let presets = services.meditationPresets
        let names = { try await presets.presets().map(\.name) }
        for name in ["Morning", "Zazen", "Evening"] {
            _ = try await presets.addPreset(name: name, plan: Self.twenty)
            clock.advance(by: 1)
        }
        await #expect(try names() == ["Morning", "Zazen", "Evening"])
        let zazen = try await presets.preset(named: "Zazen")
        #expect(try await presets.movePreset(zazen, to: 0).map(\.name) == ["Zazen", "Morning", "Evening"])
        await #expect(try names() == ["Zazen", "Morning", "Evening"])
        // Editing and renaming keep the place; a new sit comes last; past the last is the last.
        _ = try await presets.editPreset(
            try await presets.preset(named: "Zazen"), plan: MeditationPlan(duration: .minutes(40)))
        _ = try await presets.renamePreset(try await presets.preset(named: "Zazen"), to: "Zazen long")
        _ = try await presets.addPreset(name: "Walk", plan: Self.twenty)
        await #expect(try names() == ["Zazen long", "Morning", "Evening", "Walk"])
        #expect(
            try await presets.movePreset(try await presets.preset(named: "Morning"), to: 99).map(\.name)
                == ["Zazen long", "Evening", "Walk", "Morning"])
        // Moving a sit to where it is changes nothing, and no place below the first exists.
        let before = try await presets.presets()
        #expect(try await presets.movePreset(try await presets.preset(named: "Evening"), to: 1) == before)
        await #expect(throws: MeditationPresetServiceError.invalid(.positionOutOfRange)) {
            try await presets.movePreset(try await presets.preset(named: "Evening"), to: -1)
        }
        #expect(try await presets.presets() == before)
    }

    @Test(arguments: StoreKind.available)
    func aNameAnotherSavedSitHasIsRefusedInAnyCase(kind: StoreKind) async throws {
        let services = try await services(kind)
        let presets = services.meditationPresets
        let evening = try await presets.addPreset(name: "Evening", plan: Self.twenty)
        let morning = try await presets.addPreset(name: "Morning", plan: MeditationPlan())
        await #expect(throws: MeditationPresetServiceError.invalid(.nameTaken("EVENING"))) {
            try await presets.addPreset(name: "EVENING", plan: MeditationPlan())
        }
        await #expect(throws: MeditationPresetServiceError.invalid(.nameTaken("evening"))) {
            try await presets.renamePreset(morning, to: "evening")
        }
        // A saved sit may change the case of its own name.
        #expect(try await presets.renamePreset(evening, to: "EVENING").name == "EVENING")
        #expect(MeditationPresetServiceError.invalid(.nameTaken("x")).failureKind == .conflict)
        #expect(MeditationPresetServiceError.invalid(.unknownPreset("x")).failureKind == .notFound)
        #expect(MeditationPresetServiceError.invalid(.emptyName).failureKind == .invalid)
    }

    @Test(arguments: StoreKind.available)
    func editingReplacesThePlanAndKeepsTheNameAndWhenItWasMade(kind: StoreKind) async throws {
        let services = try await services(kind)
        let presets = services.meditationPresets
        let made = try await presets.addPreset(name: "Evening", plan: Self.twenty)
        clock.advance(by: 60)
        let open = MeditationPlan(intervalGongs: .offsets([.minutes(25), .minutes(30)]), isOpenEnded: true)
        let edited = try await presets.editPreset(made, plan: open)
        #expect(edited.plan == open)
        #expect(edited.name == "Evening")
        #expect(edited.createdAt == made.createdAt)
        #expect(edited.updatedAt == clock.now)
        #expect(try await presets.presets() == [edited])
    }

    @Test(arguments: StoreKind.available)
    func aPlanOutOfItsBoundsOrABlankNameStoresNothing(kind: StoreKind) async throws {
        let services = try await services(kind)
        let presets = services.meditationPresets
        await #expect(throws: MeditationPresetServiceError.invalid(.invalidPlan(.intervalTooLong))) {
            try await presets.addPreset(
                name: "Odd", plan: MeditationPlan(duration: .minutes(90), intervalGongs: .every(minutes: 61)))
        }
        await #expect(throws: MeditationPresetServiceError.invalid(.emptyName)) {
            try await presets.addPreset(name: "  ", plan: MeditationPlan())
        }
        #expect(try await presets.presets().isEmpty)
    }

    @Test(arguments: StoreKind.available)
    func deletingASavedSitTwiceSaysItIsGone(kind: StoreKind) async throws {
        let services = try await services(kind)
        let presets = services.meditationPresets
        let made = try await presets.addPreset(name: "Evening", plan: Self.twenty)
        try await presets.deletePreset(made)
        await #expect(throws: MeditationPresetServiceError.invalid(.unknownPreset("Evening"))) {
            try await presets.deletePreset(made)
        }
        #expect(try await presets.presets().isEmpty)
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

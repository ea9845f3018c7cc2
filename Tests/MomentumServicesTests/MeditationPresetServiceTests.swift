import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Testing

@testable import MomentumServices

@Suite("Saved sits: added, found, edited, renamed and deleted")
struct MeditationPresetServiceTests {
    let directory: TemporaryDirectory
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))
    let services: MomentumServices

    init() throws {
        directory = try TemporaryDirectory()
        let clock = self.clock
        services = try MomentumServices.open(
            dataDirectory: directory.url, device: "test-device", now: { clock.now }, makeID: { UUID() })
    }

    var presets: MeditationPresetService { services.meditationPresets }
    static let twenty = MeditationPlan(duration: .minutes(20), intervalGongs: .every(minutes: 5))

    @Test func aSavedSitIsFoundByItsNameInAnyCaseOrByItsID() throws {
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

    @Test func aNameAnotherSavedSitHasIsRefusedInAnyCase() throws {
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

    @Test func editingReplacesThePlanAndKeepsTheNameAndWhenItWasMade() throws {
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

    @Test func aPlanOutOfItsBoundsOrABlankNameStoresNothing() throws {
        #expect(throws: MeditationPresetServiceError.invalid(.invalidPlan(.intervalTooLong))) {
            try presets.addPreset(
                name: "Odd", plan: MeditationPlan(duration: .minutes(90), intervalGongs: .every(minutes: 61)))
        }
        #expect(throws: MeditationPresetServiceError.invalid(.emptyName)) {
            try presets.addPreset(name: "  ", plan: MeditationPlan())
        }
        #expect(try presets.presets().isEmpty)
    }

    @Test func deletingASavedSitTwiceSaysItIsGone() throws {
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
        #expect(german == "Es gibt keine gespeicherte Sitzung „Abend“. Siehe: momentum meditate presets")
    }
}

import Foundation
import MomentumCore
import MomentumStore
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

@testable import MomentumServices

@Suite("Breathing service: the person's own presets and logging sessions")
struct BreathingServiceTests {
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))
    let english = StringCatalog.shared(for: .english)

    /// The services on a fresh store of `kind`.
    private func services(_ kind: StoreKind) async throws -> LogServices {
        let clock = self.clock
        return await LogServices(store: try StoreUnderTest(kind), device: "test-device", now: { clock.now })
    }

    @Test(arguments: StoreKind.available)
    func aNewPresetStartsAsFourZeroFourZeroTimesTenAndIsFoundByNameInAnyCase(kind: StoreKind) async throws {
        let services = try await services(kind)
        let breathing = services.breathing
        let made = try await breathing.addPreset(name: "  Evening wind-down ")
        #expect(made.name == "Evening wind-down")
        #expect(made.pattern.text == "4-0-4-0")
        #expect(made.rounds == 10)
        #expect(try await breathing.preset(named: "evening WIND-DOWN") == made)
        #expect(try await breathing.preset(named: made.id) == made)
        #expect(try await breathing.presets().map(\.id) == BreathingPreset.builtIn.map(\.id) + [made.id])
        // Built-ins answer to their id and their name in either language.
        #expect(try await breathing.preset(named: "Box-Atmung").id == "box")
        #expect(try await breathing.preset(named: "relaxing").id == "relaxing")
    }

    @Test(arguments: StoreKind.available)
    func aNameOverOneHundredCharactersIsRefusedAndACopyOfALongNameStillFits(kind: StoreKind) async throws {
        let services = try await services(kind)
        let breathing = services.breathing
        let long = String(repeating: "Calm ", count: 20)  // 100 characters, the last a space
        await #expect(throws: BreathingServiceError.invalid(.presetNameTooLong)) {
            try await breathing.addPreset(name: long + "breath")
        }
        let made = try await breathing.addPreset(name: long.dropLast() + "x")
        #expect(made.name.count == 100)
        let copy = try await breathing.duplicatePreset(made, catalog: english)
        #expect(copy.name.count <= BreathingPreset.maximumNameLength)
        #expect(copy.name.hasSuffix("… (copy)"))
        let second = try await breathing.duplicatePreset(made, catalog: english)
        #expect(second.name.count <= BreathingPreset.maximumNameLength)
        #expect(second.name != copy.name)
        await #expect(throws: BreathingServiceError.invalid(.presetNameTooLong)) {
            try await breathing.renamePreset(made, to: long + long, catalog: english)
        }
    }

    @Test(arguments: StoreKind.available)
    func editingOrRenamingABuiltInSavesACopyAndLeavesTheBuiltInAlone(kind: StoreKind) async throws {
        let services = try await services(kind)
        let breathing = services.breathing
        let box = try await breathing.preset(named: "box")
        let edited = try await breathing.editPreset(box, rounds: 5, catalog: english)
        #expect(!edited.isBuiltIn)
        #expect(edited.name == "Box breathing (copy)")
        #expect(edited.rounds == 5)
        #expect(edited.pattern == box.pattern)
        let again = try await breathing.editPreset(
            box, pattern: try BreathingPattern(parsing: "5-5-5-5"), catalog: english)
        #expect(again.name == "Box breathing (copy 2)")
        let renamed = try await breathing.renamePreset(box, to: "My square", catalog: english)
        #expect(renamed.name == "My square")
        #expect(try await breathing.preset(named: "box") == box)
        #expect(try await breathing.presets().count == 12)
    }

    @Test(arguments: StoreKind.available)
    func ownPresetsAreEditedRenamedDuplicatedAndDeletedInPlace(kind: StoreKind) async throws {
        let services = try await services(kind)
        let breathing = services.breathing
        let evening = try await breathing.addPreset(
            name: "Evening", pattern: try BreathingPattern(parsing: "4-2-6-0"), rounds: 8)
        clock.advance(by: 60)
        let edited = try await breathing.editPreset(evening, rounds: 12, catalog: english)
        #expect(edited.id == evening.id)
        #expect(edited.rounds == 12)
        let renamed = try await breathing.renamePreset(edited, to: "Night", catalog: english)
        #expect(renamed.id == evening.id)
        let copy = try await breathing.duplicatePreset(renamed, catalog: english)
        #expect(copy.name == "Night (copy)")
        #expect(copy.id != renamed.id)
        #expect(copy.pattern == renamed.pattern)
        try await breathing.deletePreset(renamed)
        #expect(try await breathing.presets().map(\.name).suffix(1) == ["Night (copy)"])
        // Reopened from disk, the same.
        let reopened = try await services.store.reopened()
        #expect(try await reopened.breathingPresets() == [copy])
    }

    @Test(arguments: StoreKind.available)
    func badNamesAndBuiltInDeletesAreRefusedAndNothingChanges(kind: StoreKind) async throws {
        let services = try await services(kind)
        let breathing = services.breathing
        let evening = try await breathing.addPreset(name: "Evening")
        let before = try await breathing.presets()
        await #expect(throws: BreathingServiceError.invalid(.emptyPresetName)) {
            try await breathing.addPreset(name: " \t ")
        }
        await #expect(throws: BreathingServiceError.invalid(.presetNameTaken("EVENING"))) {
            try await breathing.addPreset(name: "EVENING")
        }
        await #expect(throws: BreathingServiceError.invalid(.presetNameTaken("Box-Atmung"))) {
            try await breathing.addPreset(name: "Box-Atmung")
        }
        await #expect(throws: BreathingServiceError.invalid(.roundsOutOfRange)) {
            try await breathing.addPreset(name: "Long", rounds: 100)
        }
        await #expect(throws: BreathingServiceError.invalid(.roundsOutOfRange)) {
            try await breathing.editPreset(evening, rounds: 0, catalog: english)
        }
        await #expect(throws: BreathingServiceError.invalid(.presetNameTaken("Awake"))) {
            try await breathing.renamePreset(evening, to: "Awake", catalog: english)
        }
        await #expect(throws: BreathingServiceError.invalid(.builtInPresetCannotBeDeleted("box"))) {
            try await breathing.deletePreset(try await breathing.preset(named: "box"))
        }
        await #expect(throws: BreathingServiceError.invalid(.unknownPreset("nope"))) {
            try await breathing.preset(named: "nope")
        }
        #expect(try await breathing.presets() == before)
    }

    @Test(arguments: StoreKind.available)
    func aFinishedSessionIsLoggedAsBreathingAndATooShortOneIsNot(kind: StoreKind) async throws {
        let services = try await services(kind)
        let breathing = services.breathing
        let start = clock.now
        clock.advance(by: 190)
        let plan = BreathingPreset.builtIn[4].plan(catalog: english)
        let record = try #require(
            try await breathing.finishSession(plan: plan, outcome: .completed(.seconds(190)), startedAt: start).record)
        #expect(record.kind == .breathing)
        #expect(record.category == .mindfulness)
        #expect(record.countedSeconds == 190)
        #expect(
            record.details == [
                "preset": "Relaxing breath (4-7-8)", "presetID": "relaxing", "pattern": "4-7-8-0", "rounds": "10",
            ])
        await #expect(
            try await breathing.finishSession(plan: plan, outcome: .tooShortToLog(.seconds(20)), startedAt: start)
                .record
                == nil)
        await #expect(
            try await breathing.finishSession(
                plan: plan, outcome: .stoppedEarly(.seconds(90)), startedAt: start, keep: false
            )
            .record
                == nil)
        await #expect(try await services.practiceLog.records().count == 1)
    }

    @Test(arguments: StoreKind.available)
    func aSessionEndsAtTheReportedInstant(kind: StoreKind) async throws {
        let services = try await services(kind)
        let breathing = services.breathing
        let start = clock.now
        clock.advance(by: 500)
        let plan = BreathingPreset.builtIn[0].plan(catalog: english)
        let end = start.addingTimeInterval(120)
        let record = try #require(
            try await breathing.finishSession(
                plan: plan, outcome: .stoppedEarly(.seconds(120)), startedAt: start, endedAt: end
            ).record)
        #expect(record.end == end)
    }
}

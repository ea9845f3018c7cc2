import Foundation
import MomentumCore
import MomentumStoreContract
import MomentumTestSupport
import Testing

@testable import MomentumStore

@Suite("Store: saved sits")
struct MeditationPresetStoreTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    func preset(_ id: String, _ name: String, plan: MeditationPlan, at instant: Date = start) throws -> MeditationPreset
    {
        try MeditationPreset(id: id, name: name, plan: plan, createdAt: instant, updatedAt: instant)
    }

    @Test func aSavedSitReadsBackWithEveryFieldOfItsPlan() throws {
        let directory = try TemporaryDirectory()
        let database = try MomentumDatabase.open(directory: directory.url)
        let plan = MeditationPlan(
            duration: .seconds(1234), countdown: .seconds(7), intervalGongs: .offsets([.minutes(5), .seconds(610)]),
            reflection: .minutes(3), ambientID: "ocean", ambientVolume: 0.42, isOpenEnded: true)
        let saved = try preset("a", "Morning", plan: plan)
        try database.saveMeditationPreset(saved)
        try database.saveMeditationPreset(try preset("b", "Evening", plan: MeditationPlan(), at: Self.start + 60))

        let reopened = try MomentumDatabase.open(directory: directory.url)
        let presets = try reopened.meditationPresets()
        #expect(presets == [saved, try preset("b", "Evening", plan: MeditationPlan(), at: Self.start + 60)])
    }

    @Test func replacingASavedSitKeepsWhenItWasMadeAndDeletingSaysWhetherThereWasOne() throws {
        let directory = try TemporaryDirectory()
        let database = try MomentumDatabase.open(directory: directory.url)
        try database.saveMeditationPreset(try preset("a", "Morning", plan: MeditationPlan()))
        var changed = try preset("a", "Dawn", plan: MeditationPlan(duration: .minutes(30)), at: Self.start + 500)
        try database.saveMeditationPreset(changed)
        changed.createdAt = Self.start
        #expect(try database.meditationPresets() == [changed])
        #expect(try database.deleteMeditationPreset(id: "a", at: Self.start))
        #expect(try !database.deleteMeditationPreset(id: "a", at: Self.start))
        #expect(try database.meditationPresets().isEmpty)
    }

    @Test func theDatabaseRefusesASecondSitWithTheSameNameInAnyCase() throws {
        let directory = try TemporaryDirectory()
        let database = try MomentumDatabase.open(directory: directory.url)
        try database.saveMeditationPreset(try preset("a", "Morning", plan: MeditationPlan()))
        #expect(throws: StoreError.self) {
            try database.saveMeditationPreset(try preset("b", "MORNING", plan: MeditationPlan()))
        }
        #expect(try database.meditationPresets().map(\.id) == ["a"])
    }
}

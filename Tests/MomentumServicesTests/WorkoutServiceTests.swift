import Foundation
import MomentumCore
import MomentumStore
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

@testable import MomentumServices

@Suite("Workout service: the person's own programs and logging workouts")
struct WorkoutServiceTests {
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))
    let english = StringCatalog.shared(for: .english)

    /// The services on a fresh store of `kind`.
    private func services(_ kind: StoreKind) async throws -> LogServices {
        let clock = self.clock
        return await LogServices(store: try StoreUnderTest(kind), device: "test-device", now: { clock.now })
    }

    @Test(arguments: StoreKind.available)
    func ownProgramsAreSavedFoundEditedAndDeleted(kind: StoreKind) async throws {
        let services = try await services(kind)
        let workouts = services.workouts
        let plan = WorkoutPlan(
            warmUp: .seconds(120), work: .seconds(45), rest: .seconds(15), rounds: 6, sets: 2, setRest: .seconds(90),
            coolDown: .seconds(60), exerciseNames: ["Squats", "Push-ups"], activity: .other)
        let saved = try await workouts.addProgram(name: " Legs day ", plan: plan)
        #expect(saved.name == "Legs day")
        #expect(try await workouts.program(named: "LEGS DAY") == saved)
        #expect(try await workouts.programs().map(\.id) == WorkoutProgram.builtIn.map(\.id) + [saved.id])
        // Every field survives the database.
        let reopened = try await services.store.reopened()
        #expect(try await reopened.workoutPrograms() == [saved])
        var longer = plan
        longer.rounds = 8
        let edited = try await workouts.editProgram(saved, plan: longer, catalog: english)
        #expect(edited.id == saved.id)
        #expect(edited.plan.rounds == 8)
        try await workouts.deleteProgram(edited)
        #expect(try await workouts.programs().count == 5)
    }

    @Test(arguments: StoreKind.available)
    func editingABuiltInSavesACopy(kind: StoreKind) async throws {
        let services = try await services(kind)
        let workouts = services.workouts
        let tabata = try await workouts.program(named: "tabata")
        var plan = tabata.plan
        plan.rounds = 12
        let copy = try await workouts.editProgram(tabata, plan: plan, catalog: english)
        #expect(copy.name == "Tabata (copy)")
        #expect(!copy.isBuiltIn)
        #expect(try await workouts.program(named: "tabata").plan.rounds == 8)
        #expect(try await workouts.program(named: "core-zirkel").id == "core-circuit")
    }

    @Test(arguments: StoreKind.available)
    func badProgramsAreRefusedAndNothingStored(kind: StoreKind) async throws {
        let services = try await services(kind)
        let workouts = services.workouts
        await #expect(throws: WorkoutServiceError.invalid(.emptyProgramName)) {
            try await workouts.addProgram(name: "  ", plan: WorkoutPlan())
        }
        await #expect(throws: WorkoutServiceError.invalid(.programNameTaken("tabata"))) {
            try await workouts.addProgram(name: "tabata", plan: WorkoutPlan())
        }
        await #expect(throws: WorkoutServiceError.invalid(.roundsOutOfRange)) {
            try await workouts.addProgram(name: "Too long", plan: WorkoutPlan(rounds: 201))
        }
        await #expect(throws: WorkoutServiceError.invalid(.builtInProgramCannotBeDeleted("emom-10"))) {
            try await workouts.deleteProgram(try await workouts.program(named: "EMOM 10"))
        }
        await #expect(throws: WorkoutServiceError.invalid(.unknownProgram("yoga flow"))) {
            try await workouts.program(named: "yoga flow")
        }
        #expect(try await services.store.reopened().workoutPrograms().isEmpty)
    }

    @Test(arguments: StoreKind.available)
    func aWorkoutIsLoggedWithItsEnergyEstimate(kind: StoreKind) async throws {
        let services = try await services(kind)
        let workouts = services.workouts
        let start = clock.now
        clock.advance(by: 240)
        let plan = try await workouts.program(named: "tabata").plan(catalog: english)
        let record = try await #require(
            try workouts.finishSession(plan: plan, outcome: .completed(.seconds(240)), startedAt: start).record)
        #expect(record.kind == .workout)
        #expect(record.countedSeconds == 240)
        // HIIT: 12 kcal a minute of the whole workout.
        #expect(record.energyKilocalories == 48)
        #expect(record.details["program"] == "Tabata")
        #expect(record.details["rounds"] == "8")
        var yoga = WorkoutPlan(work: .seconds(60), rest: .zero, rounds: 10, activity: .yoga)
        yoga.programName = nil
        let early = try await #require(
            try workouts.finishSession(plan: yoga, outcome: .stoppedEarly(.seconds(90)), startedAt: start).record)
        #expect(early.energyKilocalories == 6)
        #expect(early.details["stoppedEarly"] == "true")
        await #expect(
            try workouts.finishSession(plan: yoga, outcome: .tooShortToLog(.seconds(30)), startedAt: start).record
                == nil)
        await #expect(try services.practiceLog.records().count == 2)
    }
}

import Testing

@testable import MomentumCore

@Suite("Workout programs")
struct WorkoutProgramTests {
    private func describe(_ plan: WorkoutPlan) -> String {
        var text = "\(plan.work.wholeSeconds)/\(plan.rest.wholeSeconds) × \(plan.rounds)"
        if plan.sets > 1 { text += " × \(plan.sets) sets, \(plan.setRest.wholeSeconds) s between" }
        return text
    }

    @Test func theFiveBuiltInProgramsAreTheSpecsList() throws {
        let english = StringCatalog.shared(for: .english)
        let table = WorkoutProgram.builtIn.map { "\($0.id): \($0.displayName(english)) \(describe($0.plan))" }
        #expect(
            table == [
                "tabata: Tabata 20/10 × 8", "emom-10: EMOM 10 60/0 × 10", "beginner: Beginner 30/30 × 8",
                "power-intervals: Power intervals 40/20 × 10",
                "core-circuit: Core circuit 40/20 × 6 × 3 sets, 60 s between",
            ])
        for program in WorkoutProgram.builtIn {
            try program.plan.validate()
            #expect(program.isBuiltIn)
            #expect(program.plan.getReady == .seconds(10))
            #expect(program.nameKey == "workout.program.\(program.id)")
            #expect(program.displayName(.shared(for: .german)) != program.nameKey)
        }
        let core = try WorkoutProgram.builtIn(id: "core-circuit")
        #expect(core.plan.exerciseNames.count == 6)
        let coreSeconds = 10 + 3 * (6 * 40 + 5 * 20) + 2 * 60
        #expect(core.plan.totalDuration == .seconds(coreSeconds))
    }

    @Test func aBuiltInsPlanIsNamedAndItsExercisesSpeakThePersonsLanguage() throws {
        let core = try WorkoutProgram.builtIn(id: "core-circuit")
        let german = core.plan(catalog: .shared(for: .german))
        #expect(german.programName == "Core-Zirkel")
        #expect(german.exerciseNames.first == "Unterarmstütz")
        #expect(german.exerciseNames.last == "Seitstütz")
        let english = core.plan(catalog: .shared(for: .english))
        #expect(english.exerciseNames == core.plan.exerciseNames)
        for name in core.plan.exerciseNames {
            #expect(WorkoutProgram.exerciseKey(name) != nil, "\(name) has no catalog key")
        }
        #expect(try WorkoutProgram.builtIn(id: "tabata").plan(catalog: .shared(for: .english)).programName == "Tabata")
    }

    @Test func ownProgramsNeedANameAndAValidPlanAndKeepTheirExerciseNames() throws {
        #expect(throws: WorkoutError.emptyProgramName) {
            try WorkoutProgram(id: "a", name: " \n ", plan: WorkoutProgram.newProgramPlan)
        }
        #expect(throws: WorkoutError.roundsOutOfRange) {
            try WorkoutProgram(id: "a", name: "Mine", plan: WorkoutPlan(rounds: 0))
        }
        let mine = try WorkoutProgram(
            id: "a", name: " Legs ", plan: WorkoutPlan(exerciseNames: ["Plank", "Squats"]))
        #expect(mine.name == "Legs")
        #expect(mine.nameKey == nil)
        #expect(mine.displayName(.shared(for: .german)) == "Legs")
        let plan = mine.plan(catalog: .shared(for: .german))
        #expect(plan.programName == "Legs")
        #expect(plan.exerciseNames == ["Plank", "Squats"])
        #expect(WorkoutProgram.newProgramPlan == WorkoutPlan())
    }

    @Test func anUnknownProgramIsNamedInTheError() {
        #expect(throws: WorkoutError.unknownProgram("yoga-flow")) { try WorkoutProgram.builtIn(id: "yoga-flow") }
    }
}

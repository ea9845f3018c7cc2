import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum workout programs`: the five built-in programs and the person's own.
struct WorkoutPrograms: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "programs",
        abstract: "List, add, edit or delete workout programs.",
        discussion: "Built-in programs stay as they are: editing one saves a copy of your own.",
        subcommands: [List.self, Add.self, Edit.self, Delete.self],
        defaultSubcommand: List.self
    )

    static func saved(_ program: WorkoutProgram, catalog: StringCatalog) -> String {
        catalog.format(
            .workoutProgramSaved,
            ["name": program.displayName(catalog), "summary": program.plan.summary(catalog: catalog)]) + "\n"
    }

    struct List: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "List every program: built in first, then yours.")

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        @OptionGroup var common: CommonOptions

        struct Entry: Encodable {
            var id: String
            var name: String
            var builtIn: Bool
            var getReadySeconds, warmUpSeconds, workSeconds, restSeconds: Int64
            var rounds, sets: Int
            var setRestSeconds, coolDownSeconds: Int64
            var exercises: [String]
            var activity: String
            var totalSeconds: Int64
        }

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let programs = try await session.services.workouts.programs()
                if json {
                    let entries = programs.map { program in
                        let plan = program.plan(catalog: catalog)
                        func seconds(_ duration: Duration) -> Int64 { duration.wholeMilliseconds / 1000 }
                        return Entry(
                            id: program.id, name: program.displayName(catalog), builtIn: program.isBuiltIn,
                            getReadySeconds: seconds(plan.getReady), warmUpSeconds: seconds(plan.warmUp),
                            workSeconds: seconds(plan.work), restSeconds: seconds(plan.rest), rounds: plan.rounds,
                            sets: plan.sets, setRestSeconds: seconds(plan.setRest),
                            coolDownSeconds: seconds(plan.coolDown),
                            exercises: plan.exerciseNames, activity: plan.activity.rawValue,
                            totalSeconds: seconds(plan.totalDuration))
                    }
                    context.output.write(try JSONOutput.encode(entries) + "\n")
                    return
                }
                let rows = programs.map { program in
                    [
                        program.displayName(catalog), program.plan.summary(catalog: catalog),
                        DurationFormatting.clock(program.plan.totalDuration),
                        program.isBuiltIn ? catalog[.workoutBuiltIn] : "",
                    ]
                }
                context.output.write(TextTable.render(rows))
            }
        }
    }

    struct Add: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save a program of your own (30 s work, 10 s rest × 10 unless you say otherwise).")

        @Argument(help: ArgumentHelp("Its name.", valueName: "name"))
        var name: String

        @OptionGroup var options: WorkoutOptions

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let plan = try options.apply(to: WorkoutProgram.newProgramPlan, catalog: session.catalog)
                let program = try await session.services.workouts.addProgram(name: name, plan: plan)
                context.output.write(WorkoutPrograms.saved(program, catalog: session.catalog))
            }
        }
    }

    struct Edit: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a program (a built-in is saved as a copy of your own).")

        @Argument(help: ArgumentHelp("The program's name or id.", valueName: "program"))
        var program: String

        @OptionGroup var options: WorkoutOptions

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                guard !options.isEmpty else { throw CommandFailure(catalog[.errorWorkoutNothingToEdit]) }
                let workouts = session.services.workouts
                let found = try await workouts.program(named: program)
                let plan = try options.apply(to: found.plan(catalog: catalog), catalog: catalog)
                let edited = try await workouts.editProgram(found, plan: plan, catalog: catalog)
                context.output.write(WorkoutPrograms.saved(edited, catalog: catalog))
            }
        }
    }

    struct Delete: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a program of yours.")

        @Argument(help: ArgumentHelp("The program's name or id.", valueName: "program"))
        var program: String

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let workouts = session.services.workouts
                let found = try await workouts.program(named: program)
                try await workouts.deleteProgram(found)
                context.output.write(
                    session.catalog.format(.workoutProgramDeleted, ["name": found.displayName(session.catalog)]) + "\n")
            }
        }
    }
}

import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// `/api/v1/workouts/programs`: the built-in programs and the person's own; editing a built-in
/// saves a copy, as in the terminal.
struct WorkoutProgramsController {
    let workouts: WorkoutService
    let settings: SettingsService

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get(use: list)
        group.post(use: add)
        group.put(":id", use: edit)
        group.delete(":id", use: delete)
    }

    struct Program: Encodable {
        var id: String
        var name: String
        var plan: WorkoutPlanBody
        /// The plan in one line ("40 s work, 20 s rest × 8"), the core's `WorkoutPlan.summary`.
        var summary: String
        var isBuiltIn: Bool

        init(_ program: WorkoutProgram, catalog: StringCatalog) {
            id = program.id
            name = program.displayName(catalog)
            let plan = program.plan(catalog: catalog)
            self.plan = WorkoutPlanBody(plan)
            summary = plan.summary(catalog: catalog)
            isBuiltIn = program.isBuiltIn
        }
    }

    struct Programs: Encodable {
        var programs: [Program]
    }

    struct NewProgram: Decodable {
        var name: String
        var plan: WorkoutPlanBody?
    }

    struct ProgramChanges: Decodable {
        var plan: WorkoutPlanBody
    }

    @Sendable func list(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Programs> {
        let catalog = try await catalog(for: request)
        return await JSONResponse(Programs(programs: try workouts.programs().map { Program($0, catalog: catalog) }))
    }

    @Sendable func add(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Program> {
        let body = try await RequestBody.decode(NewProgram.self, from: request)
        let plan = try (body.plan ?? WorkoutPlanBody(WorkoutProgram.newProgramPlan)).plan()
        let program = try await workouts.addProgram(name: body.name, plan: plan)
        return await JSONResponse(Program(program, catalog: try catalog(for: request)), status: .created)
    }

    @Sendable func edit(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Program> {
        let original = try await program(context)
        let body = try await RequestBody.decode(ProgramChanges.self, from: request)
        let catalog = try await catalog(for: request)
        let plan = try body.plan.plan(base: original.plan(catalog: catalog))
        return await JSONResponse(
            Program(try workouts.editProgram(original, plan: plan, catalog: catalog), catalog: catalog))
    }

    @Sendable func delete(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await workouts.deleteProgram(try program(context))
        return Response(status: .noContent)
    }

    private func program(_ context: BasicRequestContext) async throws -> WorkoutProgram {
        try await workouts.program(named: context.parameters.get("id") ?? "")
    }

    private func catalog(for request: Request) async throws -> StringCatalog {
        .shared(for: try await LanguageChoice.language(for: request, settings: settings))
    }
}

import Foundation
import Hummingbird
import MomentumCore
import MomentumServices
import MomentumStoreContract

/// `/api/v1/meditation/presets`: the person's saved sits, each a name and a whole meditation plan,
/// answered with its one-line summary in the request's language.
struct MeditationPresetsController {
    let presets: MeditationPresetService
    let settings: SettingsService

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get(use: list)
        group.post(use: add)
        group.get(":id", use: show)
        group.patch(":id", use: edit)
        group.delete(":id", use: delete)
    }

    struct Preset: Encodable {
        var id: String
        var name: String
        var plan: MeditationPlan
        /// The sit in one line ("20 min · gongs every 5 min"), worked out by the core.
        var summary: String
        var createdAt: Date
        var updatedAt: Date
        /// Its place in the person's order, as ``MeditationPresetService/presets()`` lists them.
        var sortOrder: Int

        init(_ preset: MeditationPreset, catalog: StringCatalog) {
            id = preset.id
            name = preset.name
            plan = preset.plan
            summary = preset.summary(catalog)
            createdAt = preset.createdAt
            updatedAt = preset.updatedAt
            sortOrder = preset.sortOrder
        }
    }

    struct Presets: Encodable {
        var presets: [Preset]
    }

    /// A new saved sit: its name and plan (a missing plan field takes the core's default).
    struct NewPreset: Decodable {
        var name: String
        var plan: MeditationPlan
    }

    /// The fields to change: a new name, a whole new plan, a new place among the saved sits (0
    /// first; past the last is the last), or any of them.
    struct PresetChanges: Decodable {
        var name: String?
        var plan: MeditationPlan?
        var position: Int?
    }

    @Sendable func list(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Presets> {
        let catalog = try await catalog(for: request)
        return await JSONResponse(Presets(presets: try presets.presets().map { Preset($0, catalog: catalog) }))
    }

    @Sendable func show(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Preset> {
        await JSONResponse(Preset(try preset(context), catalog: try await catalog(for: request)))
    }

    @Sendable func add(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Preset> {
        let body = try await RequestBody.decode(NewPreset.self, from: request)
        let preset = try await presets.addPreset(name: body.name, plan: body.plan)
        return await JSONResponse(Preset(preset, catalog: try catalog(for: request)), status: .created)
    }

    @Sendable func edit(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Preset> {
        var preset = try await preset(context)
        let body = try await RequestBody.decode(PresetChanges.self, from: request)
        // Both checked before either is saved, so a refused change leaves the saved sit as it was.
        if let plan = body.plan {
            do { try plan.validate() } catch { throw MeditationPresetServiceError.invalid(.invalidPlan(error)) }
        }
        if let position = body.position, !(0...MeditationPreset.maximumPosition).contains(position) {
            throw MeditationPresetServiceError.invalid(.positionOutOfRange)
        }
        if let name = body.name, name != preset.name {
            preset = try await presets.renamePreset(preset, to: name)
        }
        if let plan = body.plan {
            preset = try await presets.editPreset(preset, plan: plan)
        }
        if let position = body.position {
            let id = preset.id
            preset = try await presets.movePreset(preset, to: position).first { $0.id == id } ?? preset
        }
        return await JSONResponse(Preset(preset, catalog: try catalog(for: request)))
    }

    @Sendable func delete(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await presets.deletePreset(try preset(context))
        return Response(status: .noContent)
    }

    private func preset(_ context: BasicRequestContext) async throws -> MeditationPreset {
        try await presets.preset(named: context.parameters.get("id") ?? "")
    }

    private func catalog(for request: Request) async throws -> StringCatalog {
        .shared(for: try await LanguageChoice.language(for: request, settings: settings))
    }
}

import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// `/api/v1/breathing/presets`: the built-in presets and the person's own; editing a built-in
/// saves a copy, as in the terminal.
struct BreathingPresetsController {
    let breathing: BreathingService
    let settings: SettingsService

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get(use: list)
        group.post(use: add)
        group.put(":id", use: edit)
        group.delete(":id", use: delete)
    }

    struct Preset: Encodable {
        var id: String
        var name: String
        var pattern: String
        var inhaleMs: Int64
        var holdAfterInhaleMs: Int64
        var exhaleMs: Int64
        var holdAfterExhaleMs: Int64
        var rounds: Int
        var isBuiltIn: Bool

        init(_ preset: BreathingPreset, catalog: StringCatalog) {
            id = preset.id
            name = preset.displayName(catalog)
            pattern = preset.pattern.text
            inhaleMs = preset.pattern.inhale.wholeMilliseconds
            holdAfterInhaleMs = preset.pattern.holdAfterInhale.wholeMilliseconds
            exhaleMs = preset.pattern.exhale.wholeMilliseconds
            holdAfterExhaleMs = preset.pattern.holdAfterExhale.wholeMilliseconds
            rounds = preset.rounds
            isBuiltIn = preset.isBuiltIn
        }
    }

    struct Presets: Encodable {
        var presets: [Preset]
    }

    /// A new preset: its name, a pattern such as `4-7-8-0` and rounds (defaults 4-0-4-0 × 10).
    struct NewPreset: Decodable {
        var name: String
        var pattern: String?
        var rounds: Int?
    }

    /// The fields to change.
    struct PresetChanges: Decodable {
        var name: String?
        var pattern: String?
        var rounds: Int?
    }

    @Sendable func list(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Presets> {
        let catalog = try await catalog(for: request)
        return await JSONResponse(Presets(presets: try breathing.presets().map { Preset($0, catalog: catalog) }))
    }

    @Sendable func add(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Preset> {
        let body = try await RequestBody.decode(NewPreset.self, from: request)
        let pattern = try body.pattern.map { text throws(BreathingError) in try BreathingPattern(parsing: text) }
        let preset = try await breathing.addPreset(
            name: body.name, pattern: pattern ?? .newPreset, rounds: body.rounds ?? BreathingPreset.newPresetRounds)
        return await JSONResponse(Preset(preset, catalog: try catalog(for: request)), status: .created)
    }

    @Sendable func edit(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Preset> {
        let original = try await preset(context)
        let body = try await RequestBody.decode(PresetChanges.self, from: request)
        let catalog = try await catalog(for: request)
        let pattern = try body.pattern.map { text throws(BreathingError) in try BreathingPattern(parsing: text) }
        var preset = original
        if pattern != nil || body.rounds != nil {
            preset = try await breathing.editPreset(preset, pattern: pattern, rounds: body.rounds, catalog: catalog)
        }
        if let name = body.name, name != preset.displayName(catalog) {
            preset = try await breathing.renamePreset(preset, to: name, catalog: catalog)
        }
        return JSONResponse(Preset(preset, catalog: catalog))
    }

    @Sendable func delete(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await breathing.deletePreset(try preset(context))
        return Response(status: .noContent)
    }

    private func preset(_ context: BasicRequestContext) async throws -> BreathingPreset {
        try await breathing.preset(named: context.parameters.get("id") ?? "")
    }

    private func catalog(for request: Request) async throws -> StringCatalog {
        .shared(for: try await LanguageChoice.language(for: request, settings: settings))
    }
}

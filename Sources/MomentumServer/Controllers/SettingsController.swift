import Foundation
import Hummingbird
import MomentumCore
import MomentumServices
import MomentumStoreContract

/// `GET/PUT/PATCH /api/v1/settings`: the settings in their backup form; every value is checked
/// by the core, and a bad one changes nothing. `PUT` replaces the whole object (fields left out
/// take their defaults); `PATCH` changes only the fields it names, merging nested objects.
struct SettingsController {
    let settings: SettingsService

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("settings", use: show)
        group.put("settings", use: replace)
        group.patch("settings", use: update)
    }

    @Sendable func show(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<MomentumSettings>
    {
        JSONResponse(try await settings.load())
    }

    @Sendable func replace(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MomentumSettings>
    {
        let wanted = try await RequestBody.decode(MomentumSettings.self, from: request)
        return await JSONResponse(try settings.replace(with: wanted))
    }

    @Sendable func update(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MomentumSettings>
    {
        guard
            let body = try await RequestBody.data(of: request),
            // try?: a body that is not JSON is refused like one that is not an object: 400, a
            // settings object is needed.
            let patch = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        else { throw APIError.badRequest(.apiSettingsObjectNeeded) }
        let current = try await settings.load()
        guard
            var merged = try JSONSerialization.jsonObject(with: JSONResponse<MomentumSettings>.encoder.encode(current))
                as? [String: Any]
        else { throw APIError.serverFault }
        if let unknown = patch.keys.sorted().first(where: { merged[$0] == nil && !Self.optionalKeys.contains($0) }) {
            throw JSONInputError.unknownField(unknown)
        }
        Self.merge(patch, into: &merged)
        let wanted = try RequestBody.decode(MomentumSettings.self, from: JSONSerialization.data(withJSONObject: merged))
        return await JSONResponse(try settings.replace(with: wanted))
    }

    /// Settings that are left out of the JSON while unset (`language` follows the system).
    static let optionalKeys: Set<String> = ["language"]

    /// Objects merge key by key; anything else (numbers, strings, lists, null) replaces.
    static func merge(_ patch: [String: Any], into target: inout [String: Any]) {
        for (key, value) in patch {
            if let nested = value as? [String: Any], var existing = target[key] as? [String: Any] {
                merge(nested, into: &existing)
                target[key] = existing
            } else {
                target[key] = value
            }
        }
    }
}

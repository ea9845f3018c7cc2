import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// `GET/PUT /api/v1/settings`: the settings in their backup form; every value is checked by the
/// core, and a bad one changes nothing.
struct SettingsController {
    let settings: SettingsService

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("settings", use: show)
        group.put("settings", use: replace)
    }

    @Sendable func show(_ request: Request, context: BasicRequestContext) throws -> JSONResponse<MomentumSettings> {
        JSONResponse(try settings.load())
    }

    @Sendable func replace(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MomentumSettings>
    {
        let wanted = try await RequestBody.decode(MomentumSettings.self, from: request)
        return JSONResponse(try settings.replace(with: wanted))
    }
}

import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// `GET /api/v1/time-zones`: the zones a person may count their days in, grouped by region and
/// named in the request's language (`?lang=`, else `Accept-Language`), with the server's own zone
/// that "automatic" follows.
struct TimeZonesController {
    let progress: ProgressService

    /// Grouped once: the list of zones does not change while the server runs.
    static let regions = TimeZoneRegions.known

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("time-zones", use: list)
    }

    @Sendable func list(_ request: Request, context: BasicRequestContext) -> JSONResponse<TimeZoneListView> {
        JSONResponse(
            TimeZoneListView(
                Self.regions, systemZone: progress.systemTimeZone, language: APIError.language(of: request)))
    }
}

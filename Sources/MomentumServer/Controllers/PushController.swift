import Foundation
import Hummingbird
import MomentumServices

/// Web Push (docs/notifications.md): `GET /api/v1/push/key`, the server's key that browsers
/// subscribe with.
struct PushController {
    let push: PushService

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("push/key", use: key)
    }

    struct KeyView: Encodable, Sendable {
        let publicKey: String
    }

    @Sendable func key(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<KeyView> {
        JSONResponse(KeyView(publicKey: try await push.publicKey()))
    }
}

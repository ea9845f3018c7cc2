import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// Web Push (docs/notifications.md): `GET /api/v1/push/key`, the server's key that browsers
/// subscribe with, and `/api/v1/push/subscriptions`, the person's own browsers — subscribed
/// (`POST`, the same endpoint again replaces it), listed (`GET`) and ended (`DELETE …/{id}`).
struct PushController {
    let push: PushService
    let subscriptions: PushSubscriptionService
    /// The push services beyond the public ones (`--push-allow`).
    let admitted: PushOrigins
    /// The push sender, for test notifications (nil: none runs, a test answers 503).
    let delivery: PushDelivery?
    let household: HouseholdService
    let person: Person.ID

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("push/key", use: key)
        group.get("push/subscriptions", use: list)
        group.post("push/subscriptions", use: subscribe)
        group.delete("push/subscriptions/:id", use: remove)
        group.post("push/subscriptions/:id/test", use: test)
    }

    /// What a test notification came to: `delivered`, `gone` (the push service no longer knows
    /// the subscription, which is removed) or `failed`, with what the push service answered.
    struct TestView: Encodable, Sendable {
        var outcome: String
        var reason: String?
    }

    struct KeyView: Encodable, Sendable {
        let publicKey: String
    }

    /// What `PushSubscription.toJSON()` gives, and the device's name (else the request's
    /// `X-Momentum-Device`).
    struct NewSubscription: Decodable {
        struct Keys: Decodable {
            var p256dh: String
            var auth: String
        }
        var endpoint: String
        /// Milliseconds since 1970, or `null`.
        var expirationTime: Double?
        var keys: Keys
        var deviceName: String?
    }

    /// A subscription as the person sees it: the device and how delivery went, and only the
    /// push service's origin — the endpoint itself is a capability URL, and the keys are secret.
    struct SubscriptionsView: Encodable {
        var subscriptions: [PushSubscriptionView]
    }

    @Sendable func key(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<KeyView> {
        JSONResponse(KeyView(publicKey: try await push.publicKey()))
    }

    @Sendable func list(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<SubscriptionsView>
    {
        JSONResponse(
            SubscriptionsView(subscriptions: try await subscriptions.subscriptions().map(PushSubscriptionView.init)))
    }

    @Sendable func subscribe(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<PushSubscriptionView>
    {
        let body = try await RequestBody.decode(NewSubscription.self, from: request)
        let expiresAt = body.expirationTime.map { Date(timeIntervalSince1970: $0 / 1000) }
        let kept: PushSubscription
        do {
            kept = try await subscriptions.subscribe(
                endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth,
                deviceName: body.deviceName ?? DeviceName.current ?? "", expiresAt: expiresAt, admitting: admitted)
        } catch {
            // A device's name is refused as the `X-Momentum-Device` header's is.
            guard case .deviceName(let refused) = error else { throw error }
            throw DeviceNameMiddleware<BasicRequestContext>.refusal(refused)
        }
        return JSONResponse(PushSubscriptionView(kept), status: .created)
    }

    @Sendable func test(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<TestView> {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
            try await subscriptions.subscriptions().contains(where: { $0.id == id })
        else { throw APIError.notFound(.errorPushNoSuchSubscription) }
        guard let delivery, let person = try await household.person(id: person) else {
            throw APIError.unavailable(.errorPushNotRunning)
        }
        let results = try await delivery.sendTest(to: person, only: id)
        guard let (_, settlement) = results.first else { throw APIError.notFound(.errorPushNoSuchSubscription) }
        return JSONResponse(TestView(outcome: settlement.outcome, reason: settlement.failure))
    }

    @Sendable func remove(_ request: Request, context: BasicRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
            try await subscriptions.remove(id: id)
        else { throw APIError.notFound(.errorPushNoSuchSubscription) }
        return Response(status: .noContent)
    }
}

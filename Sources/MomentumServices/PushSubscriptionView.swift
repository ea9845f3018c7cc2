import Foundation
import MomentumCore

/// One device's subscription as the API (`GET /api/v1/push/subscriptions`) and `momentum push
/// list --json` show it: its name, the push service's origin (never the endpoint, which is a
/// capability) and how delivery went. Absent dates are `null`.
public struct PushSubscriptionView: Encodable, Sendable, Equatable {
    public var id: String
    public var deviceName: String
    public var pushService: String
    public var createdAt: Date
    public var expiresAt: Date?
    public var lastDeliveredAt: Date?
    public var lastFailureAt: Date?
    public var lastFailure: String?

    public init(_ subscription: PushSubscription) {
        id = subscription.id.uuidString.lowercased()
        deviceName = subscription.deviceName
        // try?: a stored endpoint was checked when it was kept; one that no longer parses shows no origin
        pushService = (try? PushEndpoint(parsing: subscription.endpoint))?.origin ?? ""
        (createdAt, expiresAt) = (subscription.createdAt, subscription.expiresAt)
        (lastDeliveredAt, lastFailureAt, lastFailure) =
            (subscription.lastDeliveredAt, subscription.lastFailureAt, subscription.lastFailure)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(deviceName, forKey: .deviceName)
        try container.encode(pushService, forKey: .pushService)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(lastDeliveredAt, forKey: .lastDeliveredAt)
        try container.encode(lastFailureAt, forKey: .lastFailureAt)
        try container.encode(lastFailure, forKey: .lastFailure)
    }

    enum CodingKeys: String, CodingKey {
        case id, deviceName, pushService, createdAt, expiresAt, lastDeliveredAt, lastFailureAt, lastFailure
    }
}

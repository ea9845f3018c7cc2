import Foundation

/// One browser's Web Push subscription, for one person: where the server posts their
/// notifications (`endpoint`, a push service's URL), the keys the messages are encrypted to, the
/// device's name, and how delivery went. The endpoint and keys were checked when it was made
/// (`PushEndpoint`, `PushSubscriptionKeys` in the services).
public struct PushSubscription: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var endpoint: String
    /// The subscriber's P-256 public key and auth secret, base64url as the browser gave them.
    public var p256dh: String
    public var auth: String
    public var deviceName: String
    public var createdAt: Date
    /// When the push service said the subscription ends (`expirationTime`), if it said.
    public var expiresAt: Date?
    public var lastDeliveredAt: Date?
    public var lastFailureAt: Date?
    /// What the push service answered the last time a push failed ("410 Gone").
    public var lastFailure: String?

    /// At most this many subscriptions per person: their browsers, with room for ones that died
    /// silently (the oldest is let go when a new one comes).
    public static let maximumPerPerson = 20

    public init(
        id: UUID, endpoint: String, p256dh: String, auth: String, deviceName: String, createdAt: Date,
        expiresAt: Date? = nil, lastDeliveredAt: Date? = nil, lastFailureAt: Date? = nil, lastFailure: String? = nil
    ) {
        self.id = id
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.deviceName = deviceName
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.lastDeliveredAt = lastDeliveredAt
        self.lastFailureAt = lastFailureAt
        self.lastFailure = lastFailure
    }
}

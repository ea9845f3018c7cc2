import Foundation
import MomentumCore
import MomentumStoreContract

/// One person's Web Push subscriptions (docs/notifications.md): each browser that allowed
/// notifications subscribes with what its `PushSubscription.toJSON()` gives and the device's
/// name; the person sees and ends only their own.
public struct PushSubscriptionService: Sendable {
    let repository: any PushSubscriptionRepository
    let now: @Sendable () -> Date
    let makeID: @Sendable () -> UUID

    /// The longest a push service may say a subscription lasts (`expirationTime`) that is
    /// believed: ten years.
    public static let longestLife: TimeInterval = 10 * 365 * 86_400

    public init(
        repository: any PushSubscriptionRepository, now: @escaping @Sendable () -> Date,
        makeID: @escaping @Sendable () -> UUID
    ) {
        self.repository = repository
        self.now = now
        self.makeID = makeID
    }

    /// Keeps a browser's subscription (the same endpoint again replaces its keys and name): the
    /// endpoint must be a public push service or an `admitted` origin, the keys a P-256 point and
    /// a 16-byte secret, the name a device's name, and `expiresAt` (if any) in the future.
    public func subscribe(
        endpoint: String, p256dh: String, auth: String, deviceName: String, expiresAt: Date?,
        admitting admitted: PushOrigins
    ) async throws(PushSubscriptionError) -> PushSubscription {
        let checked: PushEndpoint
        do { checked = try PushEndpoint(endpoint, admitting: admitted) } catch { throw .endpoint(error) }
        do { _ = try PushSubscriptionKeys(p256dh: p256dh, auth: auth) } catch { throw .keys(error) }
        let name: String
        do { name = try DeviceName.validated(deviceName) } catch { throw .deviceName(error) }
        let now = now()
        if let expiresAt {
            guard expiresAt.timeIntervalSince1970.isFinite, expiresAt > now,
                expiresAt.timeIntervalSince(now) <= Self.longestLife
            else { throw .expiry }
        }
        let subscription = PushSubscription(
            id: makeID(), endpoint: checked.url, p256dh: p256dh, auth: auth, deviceName: name, createdAt: now,
            expiresAt: expiresAt)
        do {
            return try await repository.savePushSubscription(subscription)
        } catch {
            throw .store(error)
        }
    }

    /// The person's subscriptions, oldest first.
    public func subscriptions() async throws(StoreError) -> [PushSubscription] {
        try await repository.pushSubscriptions()
    }

    /// Ends the subscription `id`; `false` when the person has none by that id.
    @discardableResult
    public func remove(id: UUID) async throws(StoreError) -> Bool {
        try await repository.deletePushSubscription(id: id)
    }
}

/// Why a subscription is refused.
public enum PushSubscriptionError: Error, Equatable, Sendable {
    case endpoint(PushEndpointError)
    case keys(WebPushError)
    case deviceName(DeviceNameError)
    /// `expirationTime` is past, or further than ``PushSubscriptionService/longestLife``.
    case expiry
    case store(StoreError)
}

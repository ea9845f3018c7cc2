import Foundation
import MomentumCore
import MomentumStoreContract
import Synchronization

/// Web Push for the household (docs/notifications.md): the server's VAPID key, made on first use
/// and kept in the household's store, so every server on one database signs with the same key
/// and browsers' subscriptions outlive a restart.
public final class PushService: Sendable {
    private let store: any HouseholdStore
    private let now: @Sendable () -> Date
    private let makeKey: @Sendable () -> VAPIDKey
    /// The key once read: it never changes (it is not in backups, so a restore keeps it).
    private let kept = Mutex<VAPIDKey?>(nil)

    public init(
        store: any HouseholdStore, now: @escaping @Sendable () -> Date,
        makeKey: @escaping @Sendable () -> VAPIDKey = { VAPIDKey.generate() }
    ) {
        self.store = store
        self.now = now
        self.makeKey = makeKey
    }

    /// The household's key: the kept one, or a new one kept now.
    public func serverKey() async throws(PushServiceError) -> VAPIDKey {
        if let key = kept.withLock({ $0 }) { return key }
        let raw: Data
        do {
            raw = try await store.pushServerKey(keeping: makeKey().rawRepresentation, at: now())
        } catch {
            throw .store(error)
        }
        let key: VAPIDKey
        do {
            key = try VAPIDKey(rawRepresentation: raw)
        } catch {
            throw .push(error)
        }
        kept.withLock { $0 = key }
        return key
    }

    /// The public key browsers subscribe with (`applicationServerKey`), in base64url.
    public func publicKey() async throws(PushServiceError) -> String {
        try await serverKey().publicKey
    }
}

/// Why a push use case failed.
public enum PushServiceError: Error, Equatable, Sendable {
    case store(StoreError)
    case push(WebPushError)
}

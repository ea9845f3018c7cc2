import Foundation
import MomentumCore
import MomentumStoreContract
import MomentumStoreTestSupport
import Testing

/// A person's Web Push subscriptions on both stores: one per endpoint, the same endpoint again
/// keeping its id and creation, at most 20 (the oldest others go), each person's own.
@Suite("Push subscriptions on both stores")
struct PushSubscriptionStoreTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func subscription(_ index: Int, endpoint: String? = nil, name: String = "Phone") -> PushSubscription {
        PushSubscription(
            id: UUID(), endpoint: endpoint ?? "https://fcm.googleapis.com/fcm/send/\(index)", p256dh: "key\(index)",
            auth: "auth\(index)", deviceName: name, createdAt: Self.start.addingTimeInterval(Double(index)),
            expiresAt: index.isMultiple(of: 2) ? Self.start.addingTimeInterval(86_400) : nil)
    }

    private func repository(_ store: StoreUnderTest) throws -> any PushSubscriptionRepository {
        try #require(store.store as? any PushSubscriptionRepository)
    }

    @Test(arguments: StoreKind.available)
    func theSameEndpointAgainKeepsItsIdAndTakesTheNewKeysAndName(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let repository = try repository(store)
        let first = try await repository.savePushSubscription(subscription(0))
        #expect(first == subscription(0).with(id: first.id))
        var again = subscription(5, endpoint: first.endpoint, name: "Anna's phone")
        again.expiresAt = nil
        let replaced = try await repository.savePushSubscription(again)
        #expect(replaced.id == first.id && replaced.createdAt == first.createdAt)
        #expect(replaced.p256dh == "key5" && replaced.deviceName == "Anna's phone" && replaced.expiresAt == nil)
        let other = try await repository.savePushSubscription(subscription(1))
        await #expect(try repository.pushSubscriptions().map(\.id) == [first.id, other.id])

        await #expect(try repository.deletePushSubscription(id: first.id))
        await #expect(try !repository.deletePushSubscription(id: first.id))
        await #expect(try repository.pushSubscriptions().map(\.id) == [other.id])
    }

    @Test(arguments: StoreKind.available)
    func pastTwentyTheOldestOthersGo(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let repository = try repository(store)
        var kept: [UUID] = []
        for index in 0..<25 { kept.append(try await repository.savePushSubscription(subscription(index)).id) }
        await #expect(try repository.pushSubscriptions().map(\.id) == Array(kept.suffix(20)))
        // The oldest re-subscribing is kept (it is the one that just spoke), another goes.
        let oldest = try await repository.pushSubscriptions()[0]
        _ = try await repository.savePushSubscription(subscription(5, endpoint: oldest.endpoint))
        let now = try await repository.pushSubscriptions().map(\.id)
        #expect(now.count == 20 && now.contains(oldest.id))
    }

    @Test func eachPersonSeesOnlyTheirOwn() async throws {
        guard StoreKind.postgresURL != nil else { return }
        let store = try await StoreUnderTest(.postgres)
        let anna = try repository(store)
        let ben = try #require(store.postgresStore?.scoped(to: 2))
        let annas = try await anna.savePushSubscription(subscription(0))
        // Ben's browser may have the same endpoint (one browser, both signed in in turn).
        let bens = try await ben.savePushSubscription(subscription(1, endpoint: annas.endpoint))
        #expect(bens.id != annas.id)
        await #expect(try anna.pushSubscriptions().map(\.id) == [annas.id])
        await #expect(try ben.pushSubscriptions().map(\.id) == [bens.id])
        await #expect(try !ben.deletePushSubscription(id: annas.id))
        await #expect(try anna.pushSubscriptions().count == 1)
    }
}

extension PushSubscription {
    fileprivate func with(id: UUID) -> PushSubscription {
        var copy = self
        copy.id = id
        return copy
    }
}

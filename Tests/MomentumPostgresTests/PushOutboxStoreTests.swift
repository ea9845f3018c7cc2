import Foundation
import MomentumCore
import MomentumStoreContract
import MomentumStoreTestSupport
import Testing

/// A person's push outbox on both stores: one entry per reminder, instant and subscription; a
/// claim holds what it took for its lease; settling records the subscription's delivery or
/// failure, and a gone subscription takes its waiting pushes with it. On PostgreSQL two servers
/// claiming at once never take the same entry.
@Suite("Push outbox on both stores")
struct PushOutboxStoreTests {
    static let due = Date(timeIntervalSince1970: 1_800_000_000)

    private func subscription(_ index: Int) -> PushSubscription {
        PushSubscription(
            id: UUID(), endpoint: "https://fcm.googleapis.com/fcm/send/\(index)", p256dh: "key\(index)",
            auth: "auth\(index)", deviceName: "Phone \(index)", createdAt: Self.due.addingTimeInterval(-86_400))
    }

    private func entry(_ reminder: String, subscription: UUID, dueIn seconds: TimeInterval = 0) -> PushOutboxEntry {
        let due = Self.due.addingTimeInterval(seconds)
        return PushOutboxEntry(
            id: UUID(), reminderID: reminder, occurrenceID: "\(reminder).2027-01-15", dueAt: due,
            subscriptionID: subscription, usefulUntil: due.addingTimeInterval(3600))
    }

    private func stores(_ store: StoreUnderTest) throws -> any PushOutboxRepository & PushSubscriptionRepository {
        try #require(store.store as? any PushOutboxRepository & PushSubscriptionRepository)
    }

    @Test(arguments: StoreKind.available)
    func theSameReminderInstantAndSubscriptionIsKeptOnce(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let outbox = try stores(store)
        let phone = UUID()
        let laptop = UUID()
        #expect(
            try await outbox.enqueuePushes([
                entry("daily.a", subscription: phone), entry("daily.a", subscription: laptop),
            ])
                == 2)
        // A second planner (a restart, another server) plans the same: nothing new.
        #expect(try await outbox.enqueuePushes([entry("daily.a", subscription: phone)]) == 0)
        #expect(try await outbox.enqueuePushes([entry("daily.a", subscription: phone, dueIn: 60)]) == 1)
        let kept = try await outbox.pushOutbox()
        #expect(kept.count == 3 && kept.allSatisfy { $0.state == .pending && $0.attempts == 0 })
        #expect(kept.map(\.dueAt) == [Self.due, Self.due, Self.due.addingTimeInterval(60)])
    }

    @Test(arguments: StoreKind.available)
    func aClaimTakesWhatIsDueAndHoldsItForTheLease(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let outbox = try stores(store)
        let phone = UUID()
        try await outbox.enqueuePushes([
            entry("daily.a", subscription: phone), entry("daily.b", subscription: phone, dueIn: 30),
        ])
        // Not yet due.
        #expect(
            try await outbox.claimDuePushes(at: Self.due.addingTimeInterval(-1), lease: .seconds(30), limit: 10).isEmpty
        )
        let first = try await outbox.claimDuePushes(at: Self.due, lease: .seconds(30), limit: 10)
        #expect(first.map(\.reminderID) == ["daily.a"])
        // Held: a second claim within the lease does not take it again.
        #expect(
            try await outbox.claimDuePushes(at: Self.due.addingTimeInterval(29), lease: .seconds(30), limit: 10).isEmpty
        )
        // After the lease (its sender died) another claim takes it, with what has come due since.
        let again = try await outbox.claimDuePushes(at: Self.due.addingTimeInterval(30), lease: .seconds(30), limit: 10)
        #expect(Set(again.map(\.reminderID)) == ["daily.a", "daily.b"])
        #expect(
            try await outbox.claimDuePushes(at: Self.due.addingTimeInterval(31), lease: .seconds(30), limit: 1).isEmpty)
    }

    @Test(arguments: StoreKind.available)
    func settlingRecordsDeliveriesFailuresAndRetries(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let outbox = try stores(store)
        let phone = try await outbox.savePushSubscription(subscription(1))
        try await outbox.enqueuePushes([
            entry("daily.a", subscription: phone.id), entry("daily.b", subscription: phone.id),
        ])
        let claimed = try await outbox.claimDuePushes(at: Self.due, lease: .seconds(30), limit: 10)
        let a = try #require(claimed.first { $0.reminderID == "daily.a" })
        let b = try #require(claimed.first { $0.reminderID == "daily.b" })
        let sentAt = Self.due.addingTimeInterval(2)
        try await outbox.settlePush(id: a.id, .delivered, at: sentAt)
        try await outbox.settlePush(id: b.id, .retry(at: Self.due.addingTimeInterval(120), failure: "503"), at: sentAt)

        let kept = try await outbox.pushOutbox()
        let sent = try #require(kept.first { $0.id == a.id })
        #expect(sent.state == .sent && sent.finishedAt == sentAt && sent.attempts == 1)
        let retried = try #require(kept.first { $0.id == b.id })
        #expect(retried.state == .pending && retried.nextAttemptAt == Self.due.addingTimeInterval(120))
        #expect(retried.outcome == "503" && retried.attempts == 1 && retried.finishedAt == nil)
        let subscription = try #require(try await outbox.pushSubscriptions().first)
        #expect(subscription.lastDeliveredAt == sentAt && subscription.lastFailure == "503")
        #expect(try await outbox.sentPushOccurrences(since: Self.due) == ["daily.a.2027-01-15"])
        #expect(try await outbox.sentPushOccurrences(since: sentAt.addingTimeInterval(1)).isEmpty)

        // The retry is not due before its instant; then it is, and held again.
        #expect(
            try await outbox.claimDuePushes(at: Self.due.addingTimeInterval(119), lease: .seconds(30), limit: 10)
                .isEmpty)
        #expect(
            try await outbox.claimDuePushes(at: Self.due.addingTimeInterval(120), lease: .seconds(30), limit: 10).map(
                \.id) == [b.id])

        // Finished entries are forgotten after a while; pending ones never are.
        try await outbox.prunePushOutbox(finishedBefore: sentAt.addingTimeInterval(1))
        #expect(try await outbox.pushOutbox().map(\.id) == [b.id])
    }

    @Test(arguments: StoreKind.available)
    func aGoneSubscriptionTakesItsWaitingPushesWithIt(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let outbox = try stores(store)
        let phone = try await outbox.savePushSubscription(subscription(1))
        let laptop = try await outbox.savePushSubscription(subscription(2))
        try await outbox.enqueuePushes([
            entry("daily.a", subscription: phone.id), entry("daily.b", subscription: phone.id, dueIn: 3600),
            entry("daily.a", subscription: laptop.id),
        ])
        let claimed = try await outbox.claimDuePushes(at: Self.due, lease: .seconds(30), limit: 10)
        let phones = try #require(claimed.first { $0.subscriptionID == phone.id })
        try await outbox.settlePush(id: phones.id, .gone, at: Self.due)
        #expect(try await outbox.pushSubscriptions().map(\.id) == [laptop.id])
        let kept = try await outbox.pushOutbox()
        #expect(kept.filter { $0.subscriptionID == phone.id }.allSatisfy { $0.state == .dropped })
        #expect(kept.filter { $0.subscriptionID == phone.id }.count == 2)
        #expect(kept.first { $0.subscriptionID == laptop.id }?.state == .pending)

        // A push the policy refused leaves the subscription as it was.
        let laptops = try #require(claimed.first { $0.subscriptionID == laptop.id })
        try await outbox.settlePush(id: laptops.id, .dropped("no-longer-planned"), at: Self.due)
        let untouched = try #require(try await outbox.pushSubscriptions().first)
        #expect(untouched.lastFailure == nil && untouched.lastDeliveredAt == nil)
        #expect(try await outbox.pushOutbox().first { $0.id == laptops.id }?.outcome == "no-longer-planned")
    }

    /// Two servers claim at the same moment, many times: every entry is taken exactly once.
    @Test func twoServersClaimingAtOnceNeverTakeTheSameEntry() async throws {
        guard StoreKind.postgresURL != nil else { return }
        let store = try await StoreUnderTest(.postgres)
        let outbox = try stores(store)
        let otherOutbox = try #require(try await store.reopened() as? any PushOutboxRepository)
        let phone = UUID()
        try await outbox.enqueuePushes((0..<200).map { entry("daily.\($0)", subscription: phone) })
        var taken: [UUID] = []
        for _ in 0..<20 {
            async let mine = outbox.claimDuePushes(at: Self.due, lease: .seconds(30), limit: 10)
            async let theirs = otherOutbox.claimDuePushes(at: Self.due, lease: .seconds(30), limit: 10)
            taken += try await mine.map(\.id) + theirs.map(\.id)
        }
        #expect(taken.count == 200 && Set(taken).count == 200)
        withExtendedLifetime(store) {}
    }
}

import Foundation
import MomentumCore
import MomentumStore
import MomentumStoreContract
import MomentumStoreTestSupport
import Testing

@testable import MomentumPostgres

/// Two stores on one schema play two servers: one notifies, the other's notifier hears it.
/// Against a real PostgreSQL only (`scripts/test-postgres.sh`).
@Suite("PostgreSQL: notifications across servers", .enabled(if: StoreKind.postgresURL != nil))
struct PostgresNotifierTests {
    /// The two servers of a test; closed (both notifiers) when the test lets go.
    private final class TwoServers: Sendable {
        let test: StoreUnderTest
        let sender: PostgresNotifier
        let listener: PostgresNotifier
        let inbox = Inbox()

        init() async throws {
            test = try await StoreUnderTest(.postgres)
            guard let first = test.postgresStore,
                let second = await (try test.reopened() as? PostgresPersonStore)?.store
            else { throw TestStoreError.noPostgres }
            sender = try await PostgresNotifier.start(first)
            listener = try await PostgresNotifier.start(
                second, reconnectDelay: .init(first: .milliseconds(20), longest: .milliseconds(200)))
            listener.subscribe(inbox.receive)
        }

        deinit {
            sender.close()
            listener.close()
        }
    }

    @Test func aCommittedNotificationReachesTheOtherServerWithin200Milliseconds() async throws {
        let servers = try await TwoServers()
        let clock = ContinuousClock()
        var slowest = Duration.zero
        for sample in 0..<10 {
            let payload = "1:\(sample)"
            try await servers.sender.store.write { session throws(StoreError) in
                try await PostgresPersonStore.saveSettings(["sound": "\(sample)"], in: session, for: 1, at: .now)
                try await servers.sender.notify(payload, in: session)
            }
            // From the commit (the write has returned): the time the notification itself takes.
            let committed = clock.now
            let arrived = try #require(await servers.inbox.arrival(of: .notified(payload), within: .milliseconds(200)))
            slowest = max(slowest, arrived - committed)
        }
        #expect(slowest < .milliseconds(200), "slowest commit-to-handler time \(slowest)")
    }

    @Test func aRolledBackNotificationNeverArrives() async throws {
        let servers = try await TwoServers()
        await #expect(throws: StoreError.busy) {
            try await servers.sender.store.write { session throws(StoreError) in
                try await servers.sender.notify("1:rolled-back", in: session)
                throw StoreError.busy
            }
        }
        // Notifications arrive in commit order: once one sent later is here, an earlier one would
        // have been too.
        try await servers.sender.notify("1:marker")
        _ = try #require(await servers.inbox.arrival(of: .notified("1:marker"), within: .seconds(2)))
        #expect(servers.inbox.events == [.notified("1:marker")])
    }

    @Test func notificationsArriveInTheOrderTheyCommitted() async throws {
        let servers = try await TwoServers()
        var sent: [String] = []
        for index in 0..<40 {
            if index.isMultiple(of: 2) {
                try await servers.sender.notify("2:\(index)")
                sent.append("2:\(index)")
            } else {
                let payloads = ["2:\(index)a", "2:\(index)b", "2:\(index)c"]
                try await servers.sender.store.write { session throws(StoreError) in
                    for payload in payloads { try await servers.sender.notify(payload, in: session) }
                }
                sent += payloads
            }
        }
        let last = try #require(sent.last)
        _ = try #require(await servers.inbox.arrival(of: .notified(last), within: .seconds(5)))
        #expect(servers.inbox.events == sent.map { .notified($0) })
    }

    @Test func theSendersOwnServerHearsItToo() async throws {
        let servers = try await TwoServers()
        let own = Inbox()
        servers.sender.subscribe(own.receive)
        try await servers.sender.notify("3:1")
        _ = try #require(await own.arrival(of: .notified("3:1"), within: .seconds(2)))
    }

    @Test func anUnsubscribedHandlerHearsNothingMore() async throws {
        let servers = try await TwoServers()
        let leaving = Inbox()
        let subscription = servers.listener.subscribe(leaving.receive)
        try await servers.sender.notify("4:1")
        _ = try #require(await leaving.arrival(of: .notified("4:1"), within: .seconds(2)))
        servers.listener.unsubscribe(subscription)
        try await servers.sender.notify("4:2")
        _ = try #require(await servers.inbox.arrival(of: .notified("4:2"), within: .seconds(2)))
        #expect(leaving.events == [.notified("4:1")])
    }

    @Test func aKilledListenerConnectsAgainAndReportsThatItMayHaveMissedSomething() async throws {
        let servers = try await TwoServers()
        let killed = try #require(servers.listener.listenerBackendPID)
        let terminated = try await servers.sender.store.read { session throws(StoreError) in
            try await session.query("SELECT pg_terminate_backend(\(killed))").first?.columns(Bool.self)
        }
        #expect(terminated == true)
        _ = try #require(await servers.inbox.arrival(of: .mayHaveMissed, within: .seconds(5)))
        let replacement = try #require(servers.listener.listenerBackendPID)
        #expect(replacement != killed)
        // Listening again: what commits now arrives.
        try await servers.sender.notify("5:after")
        _ = try #require(await servers.inbox.arrival(of: .notified("5:after"), within: .seconds(2)))
    }

    @Test func aPayloadOfEightThousandBytesIsRefusedBeforeItIsSent() async throws {
        let servers = try await TwoServers()
        await #expect(throws: StoreError.self) {
            try await servers.sender.notify(String(repeating: "x", count: 8000))
        }
        let longest = String(repeating: "x", count: PostgresNotifier.maximumPayloadBytes)
        try await servers.sender.notify(longest)
        _ = try #require(await servers.inbox.arrival(of: .notified(longest), within: .seconds(2)))
    }

    @Test func aClosedNotifierCallsNoHandler() async throws {
        let servers = try await TwoServers()
        let closing = try await PostgresNotifier.start(servers.listener.store)
        let inbox = Inbox()
        closing.subscribe(inbox.receive)
        closing.close()
        try await servers.sender.notify("6:1")
        _ = try #require(await servers.inbox.arrival(of: .notified("6:1"), within: .seconds(2)))
        #expect(inbox.events.isEmpty)
    }
}

@Suite("PostgreSQL: notification channels")
struct PostgresNotificationChannelTests {
    @Test func eachSchemaHasAChannelOfItsOwn() {
        #expect(PostgresNotifier.channel(for: nil) == "momentum_changes")
        #expect(PostgresNotifier.channel(for: "club") == "momentum_changes_club")
        let long = String(repeating: "a", count: 63)
        let hashed = PostgresNotifier.channel(for: long)
        #expect(PostgresLocation.isSchemaName(hashed))
        #expect(hashed != PostgresNotifier.channel(for: String(repeating: "a", count: 62) + "b"))
        #expect(hashed == PostgresNotifier.channel(for: long))
    }
}

/// What a test's handler received, and when; a test waits for an event until a deadline, returning
/// as soon as it is there.
final class Inbox: @unchecked Sendable {
    // Every stored property is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var received: [(event: PostgresNotifier.Event, at: ContinuousClock.Instant)] = []

    func receive(_ event: PostgresNotifier.Event) {
        let now = ContinuousClock.now
        condition.lock()
        received.append((event, now))
        condition.unlock()
    }

    var events: [PostgresNotifier.Event] {
        condition.lock()
        defer { condition.unlock() }
        return received.map(\.event)
    }

    /// When `event` arrived, waiting for it at most `limit`; nil when it did not. It looks every
    /// millisecond without holding a thread (the notifier's reconnecting needs one), and the time
    /// it gives is when the handler was called.
    func arrival(of event: PostgresNotifier.Event, within limit: Duration) async -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + limit
        while true {
            if let found = arrived(event) { return found }
            guard ContinuousClock.now < deadline else { return nil }
            // try?: a cancelled test stops waiting; the last look below answers
            try? await Task.sleep(for: .milliseconds(1))
            if Task.isCancelled { return arrived(event) }
        }
    }

    private func arrived(_ event: PostgresNotifier.Event) -> ContinuousClock.Instant? {
        condition.lock()
        defer { condition.unlock() }
        return received.first(where: { $0.event == event })?.at
    }
}

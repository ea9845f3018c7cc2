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

        init() throws {
            test = try StoreUnderTest(.postgres)
            guard let first = test.postgresStore, let second = (try test.reopened() as? PostgresPersonStore)?.store
            else { throw TestStoreError.noPostgres }
            sender = try PostgresNotifier.start(first)
            listener = try PostgresNotifier.start(
                second, reconnectDelay: .init(first: .milliseconds(20), longest: .milliseconds(200)))
            listener.subscribe(inbox.receive)
        }

        deinit {
            sender.close()
            listener.close()
        }
    }

    @Test func aCommittedNotificationReachesTheOtherServerWithin200Milliseconds() throws {
        let servers = try TwoServers()
        let clock = ContinuousClock()
        var slowest = Duration.zero
        for sample in 0..<10 {
            let payload = "1:\(sample)"
            let sent = clock.now
            try servers.sender.store.write { session throws(StoreError) in
                try PostgresPersonStore.saveSettings(["sound": "\(sample)"], in: session, for: 1, at: .now)
                try servers.sender.notify(payload, in: session)
            }
            let arrived = try #require(servers.inbox.arrival(of: .notified(payload), within: .milliseconds(200)))
            slowest = max(slowest, arrived - sent)
        }
        #expect(slowest < .milliseconds(200), "slowest commit-to-handler time \(slowest)")
    }

    @Test func aRolledBackNotificationNeverArrives() throws {
        let servers = try TwoServers()
        #expect(throws: StoreError.busy) {
            try servers.sender.store.write { session throws(StoreError) in
                try servers.sender.notify("1:rolled-back", in: session)
                throw StoreError.busy
            }
        }
        // Notifications arrive in commit order: once one sent later is here, an earlier one would
        // have been too.
        try servers.sender.notify("1:marker")
        _ = try #require(servers.inbox.arrival(of: .notified("1:marker"), within: .seconds(2)))
        #expect(servers.inbox.events == [.notified("1:marker")])
    }

    @Test func notificationsArriveInTheOrderTheyCommitted() throws {
        let servers = try TwoServers()
        var sent: [String] = []
        for index in 0..<40 {
            if index.isMultiple(of: 2) {
                try servers.sender.notify("2:\(index)")
                sent.append("2:\(index)")
            } else {
                let payloads = ["2:\(index)a", "2:\(index)b", "2:\(index)c"]
                try servers.sender.store.write { session throws(StoreError) in
                    for payload in payloads { try servers.sender.notify(payload, in: session) }
                }
                sent += payloads
            }
        }
        let last = try #require(sent.last)
        _ = try #require(servers.inbox.arrival(of: .notified(last), within: .seconds(5)))
        #expect(servers.inbox.events == sent.map { .notified($0) })
    }

    @Test func theSendersOwnServerHearsItToo() throws {
        let servers = try TwoServers()
        let own = Inbox()
        servers.sender.subscribe(own.receive)
        try servers.sender.notify("3:1")
        _ = try #require(own.arrival(of: .notified("3:1"), within: .seconds(2)))
    }

    @Test func anUnsubscribedHandlerHearsNothingMore() throws {
        let servers = try TwoServers()
        let leaving = Inbox()
        let subscription = servers.listener.subscribe(leaving.receive)
        try servers.sender.notify("4:1")
        _ = try #require(leaving.arrival(of: .notified("4:1"), within: .seconds(2)))
        servers.listener.unsubscribe(subscription)
        try servers.sender.notify("4:2")
        _ = try #require(servers.inbox.arrival(of: .notified("4:2"), within: .seconds(2)))
        #expect(leaving.events == [.notified("4:1")])
    }

    @Test func aKilledListenerConnectsAgainAndReportsThatItMayHaveMissedSomething() throws {
        let servers = try TwoServers()
        let killed = try #require(servers.listener.listenerBackendPID)
        let terminated = try servers.sender.store.read { session throws(StoreError) in
            try session.query("SELECT pg_terminate_backend(\(killed))").first?.columns(Bool.self)
        }
        #expect(terminated == true)
        _ = try #require(servers.inbox.arrival(of: .mayHaveMissed, within: .seconds(5)))
        let replacement = try #require(servers.listener.listenerBackendPID)
        #expect(replacement != killed)
        // Listening again: what commits now arrives.
        try servers.sender.notify("5:after")
        _ = try #require(servers.inbox.arrival(of: .notified("5:after"), within: .seconds(2)))
    }

    @Test func aPayloadOfEightThousandBytesIsRefusedBeforeItIsSent() throws {
        let servers = try TwoServers()
        #expect(throws: StoreError.self) {
            try servers.sender.notify(String(repeating: "x", count: 8000))
        }
        let longest = String(repeating: "x", count: PostgresNotifier.maximumPayloadBytes)
        try servers.sender.notify(longest)
        _ = try #require(servers.inbox.arrival(of: .notified(longest), within: .seconds(2)))
    }

    @Test func aClosedNotifierCallsNoHandler() throws {
        let servers = try TwoServers()
        let closing = try PostgresNotifier.start(servers.listener.store)
        let inbox = Inbox()
        closing.subscribe(inbox.receive)
        closing.close()
        try servers.sender.notify("6:1")
        _ = try #require(servers.inbox.arrival(of: .notified("6:1"), within: .seconds(2)))
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
        condition.broadcast()
        condition.unlock()
    }

    var events: [PostgresNotifier.Event] {
        condition.lock()
        defer { condition.unlock() }
        return received.map(\.event)
    }

    /// When `event` arrived, waiting for it at most `limit`; nil when it did not.
    func arrival(of event: PostgresNotifier.Event, within limit: Duration) -> ContinuousClock.Instant? {
        let deadline = Date.now.addingTimeInterval(
            Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = received.first(where: { $0.event == event }) { return found.at }
            guard condition.wait(until: deadline) else {
                return received.first(where: { $0.event == event })?.at
            }
        }
    }
}

import Foundation
import MomentumCore

/// One push in a person's outbox (docs/notifications.md): a reminder due at an instant, for one
/// of their subscriptions. Kept in the database, so a restart neither loses a due reminder nor
/// sends it twice; the message itself is made when it leaves (the policy decides then).
public struct PushOutboxEntry: Sendable, Equatable, Identifiable {
    public enum State: String, Sendable, Equatable {
        /// Waiting for its instant, or for another attempt.
        case pending
        /// The push service took it.
        case sent
        /// It will not be sent (``outcome`` says why).
        case dropped
    }

    public var id: UUID
    /// The planner's reminder id (`daily.<id>`, `streak.reminder`, …).
    public var reminderID: String
    /// The occurrence (``PlannedReminder/occurrenceID``): what the day's limit counts.
    public var occurrenceID: String
    public var dueAt: Date
    public var subscriptionID: UUID
    /// After this it is not sent (and a push service keeps it no longer).
    public var usefulUntil: Date
    public var state: State = .pending
    public var attempts: Int = 0
    /// When it may be tried (again).
    public var nextAttemptAt: Date
    /// When it was sent or dropped.
    public var finishedAt: Date?
    /// Why it was dropped, or what the push service last answered.
    public var outcome: String?

    public init(
        id: UUID, reminderID: String, occurrenceID: String, dueAt: Date, subscriptionID: UUID, usefulUntil: Date
    ) {
        self.id = id
        self.reminderID = reminderID
        self.occurrenceID = occurrenceID
        self.dueAt = dueAt
        self.subscriptionID = subscriptionID
        self.usefulUntil = usefulUntil
        self.nextAttemptAt = dueAt
    }
}

/// What became of a claimed push.
public enum PushSettlement: Sendable, Hashable {
    /// The push service took it: the subscription's last delivery.
    case delivered
    /// It failed for now and is tried again at `at`: the subscription's last failure.
    case retry(at: Date, failure: String)
    /// It failed for good: the subscription's last failure.
    case failed(String)
    /// The push service says the subscription is gone (404, 410): it and its waiting pushes go.
    case gone
    /// It is not sent, and the subscription did nothing wrong (the policy said no, it expired).
    case dropped(String)
}

/// A person's push outbox. On PostgreSQL, with several servers, each push is claimed by one of
/// them (`FOR UPDATE SKIP LOCKED`) and held for a lease, so exactly one sends it.
public protocol PushOutboxRepository: Sendable {
    /// Adds the entries the outbox does not hold yet (the same reminder, instant and
    /// subscription); how many it added.
    @discardableResult func enqueuePushes(_ entries: [PushOutboxEntry]) async throws(StoreError) -> Int
    /// Up to `limit` pending entries whose attempt is due at `now` and that nobody holds, each
    /// held until `now + lease`, earliest first.
    func claimDuePushes(at now: Date, lease: Duration, limit: Int) async throws(StoreError) -> [PushOutboxEntry]
    /// Records what became of claimed entry `id` (and of its subscription).
    func settlePush(id: UUID, _ settlement: PushSettlement, at now: Date) async throws(StoreError)
    /// The occurrences sent at or after `since`.
    func sentPushOccurrences(since: Date) async throws(StoreError) -> Set<String>
    /// The entries of the outbox, earliest first (for tests and the terminal).
    func pushOutbox() async throws(StoreError) -> [PushOutboxEntry]
    /// Forgets sent and dropped entries that finished before `before`.
    func prunePushOutbox(finishedBefore before: Date) async throws(StoreError)
}

/// What a ``PushSettlement`` writes, the same on both stores.
public struct PushSettlementPlan: Sendable, Equatable {
    /// What happens to the entry's subscription.
    public enum SubscriptionEffect: Sendable, Equatable {
        case untouched
        case delivered
        case failed(String)
        /// Deleted, with every pending entry of it dropped (``goneOutcome``).
        case gone
    }

    /// The outcome of entries dropped because their subscription is gone.
    public static let goneOutcome = "subscription gone"

    public var state: PushOutboxEntry.State
    /// The next attempt's instant (a retry only).
    public var retryAt: Date?
    public var outcome: String?
    public var subscription: SubscriptionEffect

    public init(_ settlement: PushSettlement) {
        switch settlement {
        case .delivered:
            self = .init(state: .sent, retryAt: nil, outcome: nil, subscription: .delivered)
        case .retry(let at, let failure):
            self = .init(state: .pending, retryAt: at, outcome: failure, subscription: .failed(failure))
        case .failed(let failure):
            self = .init(state: .dropped, retryAt: nil, outcome: failure, subscription: .failed(failure))
        case .gone:
            self = .init(state: .dropped, retryAt: nil, outcome: Self.goneOutcome, subscription: .gone)
        case .dropped(let reason):
            self = .init(state: .dropped, retryAt: nil, outcome: reason, subscription: .untouched)
        }
    }

    private init(state: PushOutboxEntry.State, retryAt: Date?, outcome: String?, subscription: SubscriptionEffect) {
        self.state = state
        self.retryAt = retryAt
        self.outcome = outcome
        self.subscription = subscription
    }
}

import Foundation
import MomentumCore
import MomentumStoreContract

/// The push outbox's sender (docs/notifications.md): puts each person's due reminders in their
/// outbox shortly before they are due, and sends what is due, asking the anti-nag policy again
/// right before each leaves. Runs under the server's service group (``run(every:planEvery:)``);
/// tests call ``plan(at:)`` and ``send(at:)`` with the instants they choose.
///
/// ```swift
/// let delivery = PushDelivery(household: household, transport: HTTPPushTransport(admitting: origins), configuration: .init())
/// await delivery.plan(at: now)   // due soon → outbox
/// await delivery.send(at: now)   // due now → push services
/// ```
public final class PushDelivery: Sendable {
    public struct Configuration: Sendable {
        /// The VAPID token's `sub` (`--push-contact`).
        public var contact: VAPIDContact?
        /// Origins sent to without the public-address rule (`--push-allow`).
        public var admitted: PushOrigins
        /// How long a claimed push is held before another sender may take it.
        public var lease: Duration = .seconds(30)
        /// The most pushes of one person claimed at a time.
        public var batch = 100
        /// The most pushes in flight at once.
        public var parallel = 16
        /// How long sent and dropped pushes are remembered (the day's limit reads them).
        public var keepFinished: TimeInterval = 3 * 86_400

        public init(contact: VAPIDContact? = nil, admitted: PushOrigins = PushOrigins()) {
            self.contact = contact
            self.admitted = admitted
        }
    }

    /// What became of one push.
    public struct Report: Sendable, Equatable {
        public var personID: Person.ID
        public var entry: PushOutboxEntry
        public var settlement: PushSettlement
    }

    private let household: HouseholdService
    private let transport: any PushTransport
    private let configuration: Configuration
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID
    /// Hears of a store that failed a round (the server logs it; the next round tries again).
    private let failed: @Sendable (_ step: String, _ error: StoreError, _ person: Person.ID?) -> Void

    public init(
        household: HouseholdService, transport: any PushTransport, configuration: Configuration,
        now: @escaping @Sendable () -> Date = { Date() }, makeID: @escaping @Sendable () -> UUID = { UUID() },
        failed: @escaping @Sendable (_ step: String, _ error: StoreError, _ person: Person.ID?) -> Void = { _, _, _ in }
    ) {
        self.household = household
        self.transport = transport
        self.configuration = configuration
        self.now = now
        self.makeID = makeID
        self.failed = failed
    }

    // MARK: Planning

    /// Puts every person's reminders due within ``ReminderDelivery/lookahead`` of `now` in their
    /// outbox, one entry per subscription (an entry already there stays as it is); how many were added.
    @discardableResult
    public func plan(at now: Date) async -> Int {
        var added = 0
        for person in await everyone() {
            do throws(StoreError) {
                added += try await plan(for: person, at: now)
            } catch {
                failed("plan", error, person.id)
            }
        }
        return added
    }

    private func plan(for person: Person, at now: Date) async throws(StoreError) -> Int {
        let services = try await household.services(for: person)
        let subscriptions = try await services.pushSubscriptions.subscriptions().filter { $0.isLive(at: now) }
        guard !subscriptions.isEmpty else { return 0 }
        let plan = try await services.reminders.plan(at: now, horizonDays: 2)
        let entries = plan.reminders.filter { ReminderDelivery.isDueSoon($0, at: now) }.flatMap { reminder in
            subscriptions.map { subscription in
                PushOutboxEntry(
                    id: makeID(), reminderID: reminder.id, occurrenceID: reminder.occurrenceID, dueAt: reminder.fireAt,
                    subscriptionID: subscription.id,
                    usefulUntil: ReminderDelivery.usefulUntil(reminder.fireAt, timeZone: plan.timeZone))
            }
        }
        // Each tracker's question too (not a practice reminder: the policy's other rules do not move it).
        let asked = try await services.trackers.questions(
            from: now.addingTimeInterval(-TrackerQuestion.lateness),
            through: now.addingTimeInterval(ReminderDelivery.lookahead.inSeconds))
        let questions = asked.questions.flatMap { question in
            subscriptions.map { subscription in
                PushOutboxEntry(
                    id: makeID(), reminderID: question.reminderID, occurrenceID: question.occurrenceID,
                    dueAt: question.askAt, subscriptionID: subscription.id,
                    usefulUntil: ReminderDelivery.usefulUntil(question.askAt, timeZone: asked.timeZone))
            }
        }
        guard !entries.isEmpty || !questions.isEmpty else { return 0 }
        return try await services.store.enqueuePushes(entries + questions)
    }

    // MARK: Sending

    /// Sends every person's pushes due at `now` (first attempts and retries), each after the
    /// policy's send-time check, and records what became of them.
    @discardableResult
    public func send(at now: Date) async -> [Report] {
        var reports: [Report] = []
        for person in await everyone() {
            do throws(StoreError) {
                reports += try await send(for: person, at: now)
            } catch {
                failed("send", error, person.id)
            }
        }
        return reports
    }

    private func send(for person: Person, at now: Date) async throws(StoreError) -> [Report] {
        let services = try await household.services(for: person)
        let outbox = services.store
        let claimed = try await outbox.claimDuePushes(at: now, lease: configuration.lease, limit: configuration.batch)
        guard !claimed.isEmpty else { return [] }
        let subscriptions = Dictionary(
            try await services.pushSubscriptions.subscriptions().map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let language = try await services.settings.load().language ?? .english
        let key: VAPIDKey?
        do { key = try await household.push.serverKey() } catch { key = nil }
        var sends: [(PushOutboxEntry, PushRequest)] = []
        var settled: [(PushOutboxEntry, PushSettlement)] = []
        // One send-time check per reminder and instant, for all its subscriptions.
        let groups = Dictionary(grouping: claimed) { ReminderInstant(reminderID: $0.reminderID, dueAt: $0.dueAt) }
        for (due, entries) in groups.sorted(by: { $0.key.dueAt < $1.key.dueAt }) {
            let outgoing =
                TrackerQuestion.isQuestion(due.reminderID)
                ? try await ask(
                    due, usefulUntil: entries[0].usefulUntil, services: services, language: language, now: now)
                : Outgoing(try await decide(due, services: services, now: now), language: language)
            for entry in entries {
                switch prepare(entry, outgoing, subscriptions[entry.subscriptionID], key, now) {
                case .send(let request): sends.append((entry, request))
                case .settle(let settlement): settled.append((entry, settlement))
                }
            }
        }
        settled += await post(sends, now: now)
        var reports: [Report] = []
        for (entry, settlement) in settled {
            try await outbox.settlePush(id: entry.id, settlement, at: self.now())
            reports.append(Report(personID: person.id, entry: entry, settlement: settlement))
        }
        try await outbox.prunePushOutbox(finishedBefore: now.addingTimeInterval(-configuration.keepFinished))
        return reports
    }

    struct ReminderInstant: Hashable {
        var reminderID: String
        var dueAt: Date
    }

    /// The policy asked again: the plan made just before the instant, from the log as it is now.
    func decide(_ due: ReminderInstant, services: MomentumServices, now: Date) async throws(StoreError)
        -> ReminderDelivery.Decision
    {
        let plan = try await services.reminders.plan(at: ReminderDelivery.replanInstant(for: due.dueAt), horizonDays: 2)
        let sent = try await services.store.sentPushOccurrences(
            since: ReminderDelivery.dayStart(of: due.dueAt, timeZone: plan.timeZone))
        return ReminderDelivery.decide(
            reminderID: due.reminderID, dueAt: due.dueAt, plan: plan.reminders, deliveredToday: sent, now: now,
            timeZone: plan.timeZone)
    }

    private enum Preparation {
        case send(PushRequest)
        case settle(PushSettlement)
    }

    private func prepare(
        _ entry: PushOutboxEntry, _ outgoing: Outgoing, _ subscription: PushSubscription?, _ key: VAPIDKey?,
        _ now: Date
    ) -> Preparation {
        let message: PushMessage
        let topic: String?
        switch outgoing {
        case .refuse(let refusal): return .settle(.dropped(refusal))
        case .send(let outgoing, let outgoingTopic): (message, topic) = (outgoing, outgoingTopic)
        }
        guard let subscription, subscription.isLive(at: now) else { return .settle(.dropped("subscription ended")) }
        guard let key else { return .settle(.retry(at: retryInstant(entry, after: nil, now: now), failure: "no key")) }
        do {
            return .send(
                try request(
                    message, to: subscription, key: key, ttl: Int(entry.usefulUntil.timeIntervalSince(now)),
                    topic: topic, now: now))
        } catch {
            return .settle(.failed(error.summary))
        }
    }

    /// The request of `message` to `subscription`, its endpoint checked again (the admitted origins may have changed).
    private func request(
        _ message: PushMessage, to subscription: PushSubscription, key: VAPIDKey, ttl: Int, topic: String?, now: Date
    ) throws(PushPreparationError) -> PushRequest {
        let endpoint: PushEndpoint
        do { endpoint = try PushEndpoint(subscription.endpoint, admitting: configuration.admitted) } catch {
            throw .endpoint(error)
        }
        do {
            let keys = try PushSubscriptionKeys(p256dh: subscription.p256dh, auth: subscription.auth)
            return try WebPushRequest.make(
                payload: message.encoded(), to: endpoint, keys: keys, key: key, contact: configuration.contact,
                ttl: ttl,
                urgency: .normal, topic: topic, now: now)
        } catch {
            throw .push(error)
        }
    }

    /// Posts `sends`, at most ``Configuration/parallel`` at once; what each answer means.
    private func post(_ sends: [(PushOutboxEntry, PushRequest)], now: Date) async -> [(PushOutboxEntry, PushSettlement)]
    {
        await withTaskGroup(of: (PushOutboxEntry, PushSettlement).self) { group in
            var results: [(PushOutboxEntry, PushSettlement)] = []
            var pending = sends[...]
            func startNext() {
                guard let (entry, request) = pending.popFirst() else { return }
                group.addTask { (entry, await self.deliver(request, for: entry)) }
            }
            for _ in 0..<max(configuration.parallel, 1) { startNext() }
            for await result in group {
                results.append(result)
                startNext()
            }
            return results
        }
    }

    private func deliver(_ request: PushRequest, for entry: PushOutboxEntry) async -> PushSettlement {
        let answer: PushAnswer
        do {
            answer = PushAnswer(try await transport.send(request), at: now())
        } catch {
            answer = PushAnswer(error)
        }
        let now = now()
        switch answer {
        case .delivered: return .delivered
        case .gone: return .gone
        case .failed(let failure): return .failed(failure)
        case .retry(let after, let failure):
            let at = retryInstant(entry, after: after, now: now)
            guard at < entry.usefulUntil else { return .failed(failure) }
            return .retry(at: at, failure: failure)
        }
    }

    /// When to try `entry` again: when the push service said, or 30 s doubled with each attempt (at most an hour).
    private func retryInstant(_ entry: PushOutboxEntry, after: TimeInterval?, now: Date) -> Date {
        let backoff = min(30 * pow(2, Double(min(entry.attempts, 10))), 3600)
        let wait = after.map { min(max($0, 1), 86_400) } ?? backoff
        return now.addingTimeInterval(wait)
    }

    // MARK: Test pushes

    /// Sends the test notification to each of the person's subscriptions (or only to `only`)
    /// now, not through the outbox; what each push service answered. A subscription its push
    /// service says is gone is removed.
    public func sendTest(to person: Person, only: UUID? = nil) async throws(PushServiceError)
        -> [(PushSubscription, PushSettlement)]
    {
        let services: MomentumServices
        let subscriptions: [PushSubscription]
        let language: Language
        do {
            services = try await household.services(for: person)
            subscriptions = try await services.pushSubscriptions.subscriptions().filter { only == nil || $0.id == only }
            language = try await services.settings.load().language ?? .english
        } catch {
            throw .store(error)
        }
        let key = try await household.push.serverKey()
        var results: [(PushSubscription, PushSettlement)] = []
        for subscription in subscriptions {
            let now = now()
            let settlement: PushSettlement
            do {
                let request = try request(
                    PushMessage(testFor: subscription.deviceName, language: language, at: now), to: subscription,
                    key: key, ttl: 300, topic: nil, now: now)
                let answer: PushAnswer
                do { answer = PushAnswer(try await transport.send(request), at: now) } catch {
                    answer = PushAnswer(error)
                }
                settlement = PushSettlement(test: answer)
            } catch {
                settlement = .failed(error.summary)
            }
            if settlement == .gone {
                do { try await services.pushSubscriptions.remove(id: subscription.id) } catch { throw .store(error) }
            }
            results.append((subscription, settlement))
        }
        return results
    }

    // MARK: Running

    /// Plans every `planEvery` and sends every `every` until cancelled (the server's shutdown).
    public func run(every: Duration = .seconds(1), planEvery: Duration = .seconds(30)) async {
        var lastPlan: ContinuousClock.Instant?
        let clock = ContinuousClock()
        while !Task.isCancelled {
            let started = clock.now
            if lastPlan.map({ started - $0 >= planEvery }) ?? true {
                await plan(at: now())
                lastPlan = started
            }
            await send(at: now())
            do { try await Task.sleep(until: started + every, clock: clock) } catch { return }
        }
    }

    private func everyone() async -> [Person] {
        do { return try await household.people() } catch {
            failed("people", error, nil)
            return []
        }
    }
}

extension PushSubscription {
    /// Whether pushes may still go to it: not past the end its push service named.
    func isLive(at now: Date) -> Bool { expiresAt.map { $0 > now } ?? true }
}

extension PushSettlement {
    /// A test push's outcome as the API and `momentum push test --json` say it: `delivered`,
    /// `gone` or `failed`.
    public var outcome: String {
        switch self {
        case .delivered: "delivered"
        case .gone: "gone"
        default: "failed"
        }
    }

    /// What the push service answered, or why it was not reached.
    public var failure: String? {
        switch self {
        case .failed(let failure), .retry(_, let failure), .dropped(let failure): failure
        case .delivered, .gone: nil
        }
    }

    /// A test push's answer, without retries.
    init(test answer: PushAnswer) {
        switch answer {
        case .delivered: self = .delivered
        case .gone: self = .gone
        case .failed(let failure), .retry(_, let failure): self = .failed(failure)
        }
    }
}

/// Why a push could not be made.
enum PushPreparationError: Error {
    case endpoint(PushEndpointError)
    case push(WebPushError)

    var summary: String {
        switch self {
        case .endpoint(let error): "endpoint refused: \(error)"
        case .push(let error): "\(error)"
        }
    }
}

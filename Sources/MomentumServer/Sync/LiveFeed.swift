import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import MomentumCore
import MomentumServices
import Synchronization

/// The server's live feed: every change logged in its database — a merged push or a local write
/// made by a route — goes to every connected `/api/v1/live` WebSocket as
/// `{"seq": 12, "change": {…}}`, in the order of the log. A new connection first gets
/// `{"head": 11}`, the last sequence number at that moment, so a client knows where to pull from.
final class LiveFeed: Sendable {
    private let sync: SyncService
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let subscribers = Mutex<(next: Int, streams: [Int: AsyncStream<String>.Continuation])>((0, [:]))

    init(sync: SyncService, logger: Logger, now: @escaping @Sendable () -> Date) async {
        self.sync = sync
        self.logger = logger
        self.now = now
        await sync.observeChanges { [weak self] changes in self?.publish(changes) }
    }

    /// How many connections listen.
    var connections: Int { subscribers.withLock { $0.streams.count } }

    /// Tells every connection that things of `types` changed outside this person's own log (a
    /// timer someone shared with them): `{"nudge": ["focusTimer"]}`, no sequence number, so
    /// the browser re-reads those sections without thinking it missed changes of its own.
    func nudge(_ types: Set<SyncEntityType>) {
        let names = types.map { "\"\($0.rawValue)\"" }.sorted().joined(separator: ",")
        send("{\"nudge\":[\(names)]}")
    }

    /// Sends `text` (one JSON object, no sequence number) to every connection.
    func send(_ text: String) {
        subscribers.withLock { state in
            for continuation in state.streams.values { continuation.yield(text) }
        }
    }

    private func publish(_ changes: [LoggedChange]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A change that does not encode is left out and logged: the next sequence number then
        // shows the browsers a gap, and they re-read every section.
        let texts = changes.compactMap { change -> String? in
            do {
                return String(decoding: try encoder.encode(change), as: UTF8.self)
            } catch {
                logger.warning(
                    "a change left out of the live feed", metadata: ["seq": "\(change.seq)", "error": "\(error)"])
                return nil
            }
        }
        subscribers.withLock { state in
            for continuation in state.streams.values {
                for text in texts { continuation.yield(text) }
            }
        }
    }

    private func subscribe() -> (Int, AsyncStream<String>, AsyncStream<String>.Continuation) {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let id = subscribers.withLock { state in
            state.next += 1
            state.streams[state.next] = continuation
            return state.next
        }
        return (id, stream, continuation)
    }

    private func unsubscribe(_ id: Int) {
        let continuation = subscribers.withLock { $0.streams.removeValue(forKey: id) }
        continuation?.finish()
    }

    /// Serves one connection until the client closes it. What the client sends is ignored but a
    /// clock question, `{"clock": 1733150000123.5}` (its own clock, in milliseconds), answered at
    /// once with the server's clock, `{"clock": 1733150000123.5, "serverAt": 1733150004120}`: the
    /// round trips a page measures its clock's offset by (``ClockOffset``, docs/together.md).
    func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let (id, stream, own) = subscribe()
        defer { unsubscribe(id) }
        // A head that cannot be read is sent as 0: it differs from what a browser saw last, so
        // it re-reads every section, and so it does at the next change's gap.
        let head: Int64
        do {
            head = try await sync.head()
        } catch {
            logger.warning("the live feed's head could not be read", metadata: ["error": "\(error)"])
            head = 0
        }
        try await outbound.write(.text("{\"head\":\(head)}"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await text in stream { try await outbound.write(.text(text)) }
            }
            group.addTask { [now] in
                for try await message in inbound.messages(maxSize: Self.largestQuestion) {
                    guard case .text(let text) = message, let sentAt = Self.clockQuestion(text) else { continue }
                    own.yield(Self.clockAnswer(sentAt, serverAt: now()))
                }
            }
            _ = try await group.next()
            group.cancelAll()
        }
    }
}

extension LiveFeed {
    /// The longest message a page sends that is read (a clock question is some 30 bytes).
    static let largestQuestion = 256

    /// The device's reading of a clock question, `nil` for anything else (no other field, a
    /// finite number of milliseconds within the years a clock may read).
    static func clockQuestion(_ text: String) -> Double? {
        struct Question: Decodable { var clock: Double }
        guard text.utf8.count <= largestQuestion else { return nil }
        // try?: anything that is not a clock question is not answered, as before.
        guard let value = try? StrictJSON.decode(Question.self, from: Data(text.utf8), using: JSONDecoder()).clock
        else { return nil }
        return value.isFinite && abs(value) < 1e15 ? value : nil
    }

    /// The answer to a clock question: the reading it asked with and the server's clock.
    static func clockAnswer(_ sentAt: Double, serverAt: Date) -> String {
        let sent = sentAt.rounded(.towardZero) == sentAt ? String(Int64(sentAt)) : String(sentAt)
        return "{\"clock\":\(sent),\"serverAt\":\(Int64((serverAt.timeIntervalSince1970 * 1000).rounded()))}"
    }
}

/// Each person's live feed, made when their first WebSocket connects: a person's feed carries
/// only their own changes.
final class LiveFeeds: Sendable {
    private let household: HouseholdService
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let feeds = Mutex<[Person.ID: LiveFeed]>([:])
    /// The people whose changes are watched for timers they shared.
    private let watched = Mutex<Set<Person.ID>>([])

    init(household: HouseholdService, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.household = household
        self.logger = logger
        self.now = now
    }

    func feed(for person: Person.ID) async throws -> LiveFeed {
        if let feed = feeds.withLock({ $0[person] }) { return feed }
        let sync = try await household.services(forID: person).sync
        // Made outside the lock (it awaits the store to observe); one made meanwhile wins, and
        // this one goes (its observer holds it weakly).
        let made = await LiveFeed(sync: sync, logger: logger, now: now)
        let feed = feeds.withLock { feeds in
            if let earlier = feeds[person] { return earlier }
            feeds[person] = made
            return made
        }
        // Whoever may share a timer with this person is watched from now on.
        for someone in try await household.people() { try await watchSharedTimers(of: someone.id) }
        return feed
    }

    /// Nudges the live feeds of the people `owner` shared timers with whenever a timer or an item
    /// of `owner` changes — also when one of those people ticks it, since it is `owner`'s to log.
    func watchSharedTimers(of owner: Person.ID) async throws {
        guard watched.withLock({ $0.insert(owner).inserted }) else { return }
        let (household, logger) = (household, logger)
        let services: MomentumServices
        do {
            services = try await household.services(forID: owner)
        } catch {
            // Not watched after all: the next feed that asks tries again.
            watched.withLock { _ = $0.remove(owner) }
            throw error
        }
        await services.sync.observeChanges { [weak self] changes in
            let types = Set(changes.compactMap { SyncEntityType(rawValue: $0.change.type) })
                .intersection([.focusTimer, .checklistItem])
            guard let self, !types.isEmpty else { return }
            // Who shares the timer is the household's to say (a store read); the nudge follows it.
            Task {
                do {
                    self.nudge(try await household.peopleSharing(with: owner), types)
                } catch {
                    // Their browsers show the timer as it was until they next re-read it.
                    logger.warning("people sharing a timer could not be nudged", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    /// Nudges the open feeds of `people` about `types`.
    func nudge(_ people: Set<Person.ID>, _ types: Set<SyncEntityType>) {
        let open = feeds.withLock { feeds in people.compactMap { feeds[$0] } }
        for feed in open { feed.nudge(types) }
    }

    /// Sends `text` to the open feeds of `people`.
    func send(_ text: String, to people: Set<Person.ID>) {
        let open = feeds.withLock { feeds in people.compactMap { feeds[$0] } }
        for feed in open { feed.send(text) }
    }
}

/// The WebSocket routes, behind the same access check as the API: a connection gets the feed of
/// the person its credential (or, on loopback, its chosen profile) names.
func buildLiveRouter(
    configuration: ServerConfiguration, dependencies: ServerDependencies
) -> Router<BasicWebSocketRequestContext> {
    let router = Router(context: BasicWebSocketRequestContext.self)
    // The upgrade request passes the same path, host and origin checks as every request.
    router.addMiddleware {
        ErrorMiddleware(routes: RouteTable())
        PathSafetyMiddleware()
        RequestGuardMiddleware(policy: configuration.hostPolicy)
    }
    let feeds = dependencies.liveFeeds
    let access = HouseholdAccess(household: dependencies.household, isRequired: configuration.requiresToken)
    let guarded = router.group().add(middleware: AccessGuard(access: access, person: nil))
    guarded.ws("api/v1/live") { inbound, outbound, context in
        let feed = try await feeds.feed(for: try access.person(of: context.request))
        try await feed.serve(inbound: inbound, outbound: outbound)
    }
    return router
}

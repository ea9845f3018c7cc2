import Foundation
import Logging
import MomentumStoreContract
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// Tells every server on one PostgreSQL database that something changed: one connection per
/// process `LISTEN`s on the store's channel and hands each payload to the registered handlers; any
/// server `NOTIFY`s, inside a write transaction (delivered only if it commits) or on its own.
///
/// ```swift
/// let notifier = try PostgresNotifier.start(store)
/// let subscription = notifier.subscribe { event in
///     switch event {
///     case .notified(let payload): feeds.changed(payload)  // "42:1093": person 42, sequence 1093
///     case .mayHaveMissed: feeds.rereadFromCursors()
///     }
/// }
/// try store.write { session throws(StoreError) in
///     // … the change, then:
///     try notifier.notify("42:1093", in: session)
/// }
/// ```
///
/// Handlers run one at a time on the listening connection's event loop, in the order PostgreSQL
/// delivers (the order the sending transactions committed in); they must return quickly and never
/// block (hand the payload to an actor or a task). When the connection drops, the notifier
/// connects again after a short, growing delay and then sends ``Event/mayHaveMissed``: whatever
/// was notified meanwhile is gone, so a reader re-reads from its cursor. Call ``close()`` when
/// done: until then the notifier keeps itself alive to reconnect.
public final class PostgresNotifier: Sendable {
    /// What a handler is told.
    public enum Event: Sendable, Equatable {
        /// A payload from ``notify(_:in:)`` or ``notify(_:)`` on any server, this one included.
        case notified(String)
        /// The listening connection dropped and is back: notifications of the time between are
        /// lost.
        case mayHaveMissed
    }

    /// A registered handler, for ``unsubscribe(_:)``.
    public struct Subscription: Hashable, Sendable {
        let id: Int
    }

    /// How long the notifier waits before connecting again: `first` after a drop, doubled after
    /// each failed attempt up to `longest`.
    public struct ReconnectDelay: Sendable {
        public var first: Duration
        public var longest: Duration

        public init(first: Duration = .milliseconds(50), longest: Duration = .seconds(2)) {
            self.first = first
            self.longest = longest
        }
    }

    /// PostgreSQL's limit: a payload must be shorter than 8000 bytes (UTF-8).
    public static let maximumPayloadBytes = 7999

    public let store: PostgresStore
    /// The channel listened and notified on (see ``channel(for:)``).
    public let channel: String
    private let reconnectDelay: ReconnectDelay
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var handlers: [Int: @Sendable (Event) -> Void] = [:]
        var nextHandlerID = 0
        var connection: PostgresConnection?
        var backendPID: Int32?
        var reconnect: Task<Void, Never>?
        var isClosed = false
    }

    private init(store: PostgresStore, channel: String, reconnectDelay: ReconnectDelay, logger: Logger) {
        self.store = store
        self.channel = channel
        self.reconnectDelay = reconnectDelay
        self.logger = logger
    }

    /// The channel of the store's schema: `momentum_changes`, or `momentum_changes_SCHEMA` (a
    /// schema too long for that gets a hash of its name), so that stores in different schemas of
    /// one database never hear each other.
    public static func channel(for schema: String?) -> String {
        guard let schema else { return "momentum_changes" }
        let named = "momentum_changes_" + schema
        if named.utf8.count <= 63 { return named }
        // FNV-1a: the same in every process (Swift's `Hasher` is seeded per process).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in schema.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "momentum_changes_" + String(hash, radix: 16)
    }

    /// Connects and listens on `channel` (the store's own by default); returns once listening, so
    /// whatever commits afterwards is heard.
    public static func start(
        _ store: PostgresStore, channel: String? = nil, reconnectDelay: ReconnectDelay = ReconnectDelay(),
        logger: Logger = Logger(label: "momentum.postgres.notifier")
    ) async throws(StoreError) -> PostgresNotifier {
        let channel = channel ?? Self.channel(for: store.schema)
        guard PostgresLocation.isSchemaName(channel) else {
            throw .database(message: "notification channel refused: not a plain lower-case identifier")
        }
        let notifier = PostgresNotifier(store: store, channel: channel, reconnectDelay: reconnectDelay, logger: logger)
        do {
            try await notifier.listen()
        } catch {
            notifier.close()
            throw StoreError(postgres: error)
        }
        return notifier
    }

    /// Calls `handler` with every event from now on, until ``unsubscribe(_:)`` or ``close()``.
    @discardableResult
    public func subscribe(_ handler: @escaping @Sendable (Event) -> Void) -> Subscription {
        state.withLock { state in
            state.nextHandlerID += 1
            state.handlers[state.nextHandlerID] = handler
            return Subscription(id: state.nextHandlerID)
        }
    }

    public func unsubscribe(_ subscription: Subscription) {
        _ = state.withLock { $0.handlers.removeValue(forKey: subscription.id) }
    }

    /// Notifies every server's handlers when the transaction of `session` commits; nothing when it
    /// rolls back. Identical payloads of one transaction arrive once (PostgreSQL folds them).
    public func notify(_ payload: String, in session: PostgresSession) async throws(StoreError) {
        guard payload.utf8.count <= Self.maximumPayloadBytes, !payload.utf8.contains(0) else {
            throw .database(
                message:
                    "notification payload refused: \(payload.utf8.count) bytes, at most \(Self.maximumPayloadBytes), no NUL"
            )
        }
        try await session.execute("SELECT pg_notify(\(channel), \(payload))")
    }

    /// Notifies every server's handlers at once (outside a transaction).
    public func notify(_ payload: String) async throws(StoreError) {
        try await store.read { session throws(StoreError) in try await notify(payload, in: session) }
    }

    /// Stops listening and reconnecting; handlers are called no more.
    public func close() {
        let (connection, reconnect) = state.withLock { state in
            state.isClosed = true
            state.handlers = [:]
            defer {
                state.connection = nil
                state.reconnect = nil
            }
            return (state.connection, state.reconnect)
        }
        reconnect?.cancel()
        guard let connection else { return }
        // Not awaited: a handler may close its notifier.
        PostgresConnections.close(connection)
    }

    /// The listening connection's server process (`pg_backend_pid()`), while connected.
    var listenerBackendPID: Int32? { state.withLock { $0.backendPID } }

    // MARK: Listening

    /// Connects, listens, and keeps the connection; returns once PostgreSQL has confirmed the
    /// `LISTEN`.
    private func listen() async throws {
        let connection = try await store.pool.connect()
        connection.addListener(channel: channel) { _, message in
            self.deliver(.notified(message.payload))
        }
        do {
            // Queued behind the `LISTEN` the listener sends: when this answers, that one has.
            _ = try await connection.query("LISTEN \"\(unescaped: channel)\"", logger: logger).get()
            let result = try await connection.query("SELECT pg_backend_pid()", logger: logger).get()
            guard let row = result.rows.first else { throw PostgresNotifierFailure.noBackendPID }
            try keep(connection, backendPID: row.decode(Int32.self))
        } catch {
            // try?: the connection is given up either way; the error that stopped it is what counts
            try? await connection.close()
            throw error
        }
    }

    private func keep(_ connection: PostgresConnection, backendPID: Int32) throws {
        let kept = state.withLock { state in
            guard !state.isClosed else { return false }
            state.connection = connection
            state.backendPID = backendPID
            state.reconnect = nil
            return true
        }
        guard kept else { throw PostgresNotifierFailure.closed }
        connection.closeFuture.whenComplete { _ in self.connectionClosed(connection) }
    }

    private func connectionClosed(_ connection: PostgresConnection) {
        let reconnect = state.withLock { state in
            guard state.connection === connection else { return false }
            state.connection = nil
            state.backendPID = nil
            return !state.isClosed
        }
        guard reconnect else { return }
        logger.warning(
            "PostgreSQL notification connection dropped; connecting again", metadata: ["channel": "\(channel)"])
        scheduleReconnect(after: reconnectDelay.first)
    }

    private func scheduleReconnect(after delay: Duration) {
        let task = Task {
            // try?: a cancelled wait means the notifier closed; reconnecting finds it closed
            try? await Task.sleep(for: delay)
            await self.reconnect(after: delay)
        }
        let cancelled = state.withLock { state in
            if state.isClosed { return true }
            state.reconnect = task
            return false
        }
        if cancelled { task.cancel() }
    }

    private func reconnect(after delay: Duration) async {
        guard !state.withLock({ $0.isClosed }) else { return }
        do {
            try await listen()
            logger.info("PostgreSQL notification connection back", metadata: ["channel": "\(channel)"])
            deliver(.mayHaveMissed)
        } catch PostgresNotifierFailure.closed {
            return
        } catch {
            logger.warning(
                "PostgreSQL notification connection failed: \(StoreError(postgres: error))",
                metadata: ["channel": "\(channel)"])
            scheduleReconnect(after: min(delay * 2, reconnectDelay.longest))
        }
    }

    private func deliver(_ event: Event) {
        let handlers = state.withLock { state in
            state.handlers.sorted { $0.key < $1.key }.map(\.value)
        }
        for handler in handlers { handler(event) }
    }
}

/// Why a listening connection was not kept (for the log only).
private enum PostgresNotifierFailure: Error {
    case closed
    case noBackendPID
}

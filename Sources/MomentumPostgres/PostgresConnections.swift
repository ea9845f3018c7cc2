import Foundation
import Logging
import MomentumCore
import MomentumStoreContract
import NIOCore
import PostgresNIO
import Synchronization

/// The store's connections: a few, opened when needed and kept, handed out one caller at a time.
/// A caller who finds every one in use waits in line (``ConnectionGate``), without holding a
/// thread, at most the busy timeout; a connection that cannot be made fails the caller at once.
///
/// Not postgres-nio's `PostgresClient`: a lease of it waits for ever while the database cannot
/// be reached (it keeps trying to connect; vapor/postgres-nio#489, #565), and a server whose
/// database is down must say so, not hang every request (docs/postgres.md).
final class PostgresConnections: Sendable {
    let location: PostgresLocation
    let schema: String?
    let logger: Logger
    private let tls: PostgresConnection.Configuration.TLS
    private let connectTimeout: Duration
    private let busyTimeout: Duration
    private let gate: ConnectionGate
    private let state = Mutex(State())
    private let nextID = Atomic<Int>(0)

    private struct State {
        var idle: [PostgresConnection] = []
        var isClosed = false
    }

    init(
        location: PostgresLocation, schema: String?, tls: PostgresConnection.Configuration.TLS, size: Int,
        busyTimeout: TimeInterval, logger: Logger
    ) {
        self.location = location
        self.schema = schema
        self.logger = logger
        self.tls = tls
        self.busyTimeout = .milliseconds(Int64((busyTimeout * 1000).rounded()))
        connectTimeout = .seconds(Int64(busyTimeout.rounded(.up)))
        gate = ConnectionGate(size: size)
    }

    // postgres-nio insists that a connection is closed before it goes.
    deinit { close() }

    /// Runs `body` on a connection of the pool; `body`'s errors are rethrown as they are, the
    /// pool's as ``StoreError``.
    func withSession<T>(_ body: (PostgresSession) async throws -> T) async throws -> T {
        try await gate.enter(within: busyTimeout)
        defer { gate.leave() }
        let connection = try await checkOut()
        let result: Result<T, any Error>
        do {
            result = .success(
                try await body(PostgresSession(connection: connection, logger: logger, transaction: TransactionState()))
            )
        } catch {
            result = .failure(error)
        }
        checkIn(connection)
        return try result.get()
    }

    private func checkOut() async throws(StoreError) -> PostgresConnection {
        let reused: PostgresConnection?? = state.withLock { state in
            if state.isClosed { return .some(nil) }
            while let connection = state.idle.popLast() {
                if !connection.isClosed { return connection }
            }
            return nil
        }
        switch reused {
        case .some(.some(let connection)): return connection
        case .some(.none): throw .database(message: "PostgreSQL store is closed")
        case .none:
            do {
                return try await connect()
            } catch {
                throw StoreError(postgres: error)
            }
        }
    }

    private func checkIn(_ connection: PostgresConnection) {
        let keep = state.withLock { state in
            guard !state.isClosed, !connection.isClosed else { return false }
            state.idle.append(connection)
            return true
        }
        if !keep { Self.close(connection) }
    }

    /// A new connection configured like the pool's (the notifier's own too): it names the store's
    /// channel, where the revision trigger announces changes, and works in the store's schema.
    func connect() async throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls)
        configuration.options.connectTimeout = TimeAmount(connectTimeout)
        configuration.options.additionalStartupParameters = [
            ("momentum.channel", PostgresNotifier.channel(for: schema))
        ]
        if let schema { configuration.options.additionalStartupParameters.append(("search_path", schema)) }
        return try await PostgresConnection.connect(
            configuration: configuration, id: nextID.add(1, ordering: .relaxed).newValue, logger: logger)
    }

    /// Closes the idle connections; those in use close when they come back, and calls made
    /// afterwards fail.
    func close() {
        let idle = state.withLock { state in
            state.isClosed = true
            defer { state.idle = [] }
            return state.idle
        }
        for connection in idle { Self.close(connection) }
    }

    /// Closes `connection` without waiting for it (kept until it has: postgres-nio insists).
    static func close(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }
}

/// Counts the pool's connections in use: a caller who finds none free waits in line, and gives up
/// (``StoreError/busy``) when none came free within the timeout — `PostgresClient` itself would
/// wait for ever, and a change that holds one connection while it asks for another must not.
final class ConnectionGate: Sendable {
    private struct Waiter {
        var id: Int
        var continuation: CheckedContinuation<Bool, Never>
        /// Gives up for the waiter when the timeout has passed; cancelled when it is let in.
        var timeout: Task<Void, Never>?
    }

    private struct State {
        var free: Int
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state: Mutex<State>

    init(size: Int) { state = Mutex(State(free: max(1, size))) }

    func enter(within timeout: Duration) async throws(StoreError) {
        let admitted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            // One look under the lock: a slot freed a moment ago is taken, else the caller waits in
            // line (a `leave` can then only find it there).
            let id: Int? = state.withLock { state in
                if state.free > 0 {
                    state.free -= 1
                    return nil
                }
                state.nextID += 1
                state.waiters.append(Waiter(id: state.nextID, continuation: continuation))
                return state.nextID
            }
            guard let id else { return continuation.resume(returning: true) }
            let timer = Task {
                // try?: a cancelled wait means the waiter was let in; giving up then finds nobody
                try? await Task.sleep(for: timeout)
                self.giveUp(id)
            }
            state.withLock { state in
                if let index = state.waiters.firstIndex(where: { $0.id == id }) {
                    state.waiters[index].timeout = timer
                } else {
                    timer.cancel()
                }
            }
        }
        guard admitted else { throw .busy }
    }

    /// How many wait in line (for tests).
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// Hands the connection to the first in line, or frees it.
    func leave() {
        let next = state.withLock { state -> Waiter? in
            guard !state.waiters.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.timeout?.cancel()
        next?.continuation.resume(returning: true)
    }

    private func giveUp(_ id: Int) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: false)
    }
}

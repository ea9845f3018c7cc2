import Dispatch
import Foundation
import Logging
import MomentumCore
import MomentumStoreContract
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// A few open connections, handed out one caller at a time. A caller waits (blocking its thread)
/// while all are in use, up to the busy timeout.
final class ConnectionPool: Sendable {
    let location: PostgresLocation
    let schema: String?
    let logger: Logger
    /// How each connection is encrypted (``PostgresLocation/tls``).
    private let tls: PostgresConnection.Configuration.TLS
    private let busyTimeout: TimeInterval
    /// Counts the connections that may still be handed out.
    private let free: DispatchSemaphore
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
        self.tls = tls
        self.schema = schema
        self.busyTimeout = busyTimeout
        self.logger = logger
        free = DispatchSemaphore(value: size)
    }

    // postgres-nio insists that a connection is closed before it goes.
    deinit { close() }

    func withConnection<T>(_ body: (PostgresSession) throws(StoreError) -> T) throws(StoreError) -> T {
        guard free.wait(timeout: .now() + busyTimeout) == .success else { throw .busy }
        defer { free.signal() }
        let connection = try checkOut()
        let result: Result<T, StoreError>
        do throws(StoreError) {
            result = .success(
                try body(PostgresSession(connection: connection, logger: logger, transaction: TransactionState())))
        } catch {
            result = .failure(error)
        }
        checkIn(connection)
        return try result.get()
    }

    /// ``withConnection(_:)`` for a body that awaits (its queries are awaited, never waited for).
    func withAwaitedConnection<T>(_ body: (PostgresSession) async throws -> T) async throws -> T {
        guard free.wait(timeout: .now() + busyTimeout) == .success else { throw StoreError.busy }
        defer { free.signal() }
        let connection = try checkOut()
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

    private func checkOut() throws(StoreError) -> PostgresConnection {
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
        case .none: return try connect()
        }
    }

    private func checkIn(_ connection: PostgresConnection) {
        let keep = state.withLock { state in
            guard !state.isClosed, !connection.isClosed else { return false }
            state.idle.append(connection)
            return true
        }
        // try?: a connection that fails to close is gone either way; nothing of it is kept
        if !keep { try? connection.close().wait() }
    }

    private func connect() throws(StoreError) -> PostgresConnection {
        do {
            return try connectFuture().wait()
        } catch {
            throw StoreError(postgres: error)
        }
    }

    /// A new connection configured like the pool's own, outside the pool (the notifier's).
    func connectFuture() -> EventLoopFuture<PostgresConnection> {
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls)
        configuration.options.connectTimeout = .seconds(Int64(busyTimeout.rounded(.up)))
        // Every connection names the store's channel, where the revision trigger announces changes.
        configuration.options.additionalStartupParameters = [
            ("momentum.channel", PostgresNotifier.channel(for: schema))
        ]
        if let schema { configuration.options.additionalStartupParameters.append(("search_path", schema)) }
        return PostgresConnection.connect(
            on: PostgresStore.eventLoops.next(), configuration: configuration,
            id: nextID.add(1, ordering: .relaxed).newValue, logger: logger)
    }

    func close() {
        let idle = state.withLock { state in
            state.isClosed = true
            defer { state.idle = [] }
            return state.idle
        }
        // try?: a connection that fails to close is gone either way; nothing of it is kept
        for connection in idle { try? connection.close().wait() }
    }
}

import Foundation
import Logging
import MomentumCore
import MomentumStoreContract
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// The household's store on PostgreSQL: one database for everyone, every person's rows carrying
/// their `person_id` (see `docs/postgres.md`).
///
/// Every call is awaited (``PostgresConnections``): no thread is ever held while PostgreSQL
/// answers, or while a caller waits for a free connection.
///
/// ```swift
/// let store = try await PostgresStore.open(PostgresLocation(url: "postgres://momentum@127.0.0.1/momentum"))
/// let person = store.scoped(to: 1)
/// try await person.savePracticeRecord(record, at: now)
/// ```
public final class PostgresStore: Sendable {
    public let location: PostgresLocation
    /// The schema every connection works in (`search_path`); `nil` is the database's default.
    public let schema: String?
    /// Names this server in the changes its own writes log (unless the task has a
    /// ``MomentumCore/DeviceName/current``).
    public let device: String
    /// Makes a person's sync node id, once, when their replica is first used.
    let makeNodeID: @Sendable () -> String
    let pool: PostgresConnections
    /// The observers of each person's sync log (``PostgresPersonStore/observeChanges(_:)``).
    let syncFeed = PostgresSyncFeed()
    /// The household's people as last read (``people()``).
    let peopleCache = PeopleCache()
    /// Each person's store revision as last read, forgotten when any server announces a change
    /// (``PostgresPersonStore/logRevision()``).
    let revisions: RevisionCache
    /// Each person's pushes waiting to be merged together (group commit, per person).
    private let pushQueues = Mutex<[Person.ID: PushCommitQueue]>([:])
    /// The people whose log a write of this server found long enough to compact
    /// (``PostgresSyncReplica/isCompactionDue``), so a push need not ask the database.
    let compactionDue = Mutex<Set<Person.ID>>([])

    /// Each person's pull pages that can no longer change (made on their first pull).
    private let pullPageCaches = Mutex<[Person.ID: PullPageCache]>([:])

    /// The person's kept pull pages (``MomentumStore/PullPageCache``: a page with changes after it
    /// never changes, whichever server logs the next ones).
    func pullPages(of personID: Person.ID) -> PullPageCache {
        pullPageCaches.withLock { caches in
            if let cache = caches[personID] { return cache }
            let cache = PullPageCache()
            caches[personID] = cache
            return cache
        }
    }

    /// The person's group-commit queue (made on their first push).
    func pushQueue(for personID: Person.ID) -> PushCommitQueue {
        pushQueues.withLock { queues in
            if let queue = queues[personID] { return queue }
            let queue = PushCommitQueue()
            queues[personID] = queue
            return queue
        }
    }

    /// Connections kept open at most (per process).
    public static let defaultPoolSize = 8
    /// How long a person's store revision is kept at most without reading it again: changes are
    /// announced at once (`LISTEN/NOTIFY`); this bounds what a lost announcement can hide.
    public static let defaultRevisionAge: Duration = .milliseconds(100)

    private init(
        location: PostgresLocation, schema: String?, device: String, makeNodeID: @escaping @Sendable () -> String,
        pool: PostgresConnections, revisionAge: Duration
    ) {
        revisions = RevisionCache(maximumAge: revisionAge)
        self.location = location
        self.schema = schema
        self.device = device
        self.makeNodeID = makeNodeID
        self.pool = pool
    }

    /// Connects to `location` and brings the schema up to date (creating `schema` first when one is
    /// given). Several processes may open the same database at once: migrations run one at a time
    /// under an advisory lock. `device` names this server in synced changes (as
    /// ``MomentumStore/MomentumDatabase``'s); `makeNodeID` makes a person's sync node id.
    public static func open(
        _ location: PostgresLocation, schema: String? = nil, poolSize: Int = defaultPoolSize,
        busyTimeout: TimeInterval = StoreLimits.busyTimeout, device: String = "momentum",
        makeNodeID: @escaping @Sendable () -> String = { SyncNodeID.random() },
        revisionAge: Duration = defaultRevisionAge, logger: Logger = Logger(label: "momentum.postgres")
    ) async throws(StoreError) -> PostgresStore {
        if let schema, !PostgresLocation.isSchemaName(schema) {
            throw .database(message: "schema name refused: \(PostgresLocationError.badSchemaName)")
        }
        let tls: PostgresConnection.Configuration.TLS
        do throws(PostgresLocationError) {
            tls = try location.connectionTLS()
        } catch {
            throw .database(message: "TLS refused: \(error)")
        }
        let pool = PostgresConnections(
            location: location, schema: schema, tls: tls, size: max(1, poolSize), busyTimeout: busyTimeout,
            logger: logger)
        let store = PostgresStore(
            location: location, schema: schema, device: device, makeNodeID: makeNodeID, pool: pool,
            revisionAge: revisionAge)
        do throws(StoreError) {
            try await store.migrate()
        } catch {
            store.close()
            throw error
        }
        return store
    }

    /// Closes every connection (and stops listening for sync changes); calls made afterwards fail.
    public func close() {
        syncFeed.close()
        revisions.close()
        pool.close()
    }

    /// Runs `body` on one connection, outside a transaction (each statement commits on its own).
    @discardableResult
    public func read<T>(_ body: (PostgresSession) async throws(StoreError) -> T) async throws(StoreError) -> T {
        do {
            return try await pool.withSession { session in try await body(session) }
        } catch {
            throw StoreError(postgres: error)
        }
    }

    /// Runs `body` in one transaction on one connection: committed when it returns, rolled back
    /// when it throws. `BEGIN` goes with the first statement and `COMMIT` with the last when it is
    /// run by ``PostgresSession/executeAndCommit(_:)``: the caller waits for PostgreSQL once for
    /// each pair, not twice.
    @discardableResult
    public func write<T>(_ body: (PostgresSession) async throws(StoreError) -> T) async throws(StoreError) -> T {
        do {
            return try await writeRethrowing({ session in try await body(session) })
        } catch {
            throw StoreError(postgres: error)
        }
    }

    /// ``write(_:)`` for a body that also runs code with errors of its own (a run's or a Morse
    /// exchange's change, replayed in the transaction): such an error rolls the transaction back
    /// and is rethrown as itself; the store's errors are rethrown as they are.
    func writeRethrowing<T>(_ body: (PostgresSession) async throws -> T) async throws -> T {
        let (result, movedRevision) = try await pool.withSession { session in
            let transaction = session.transaction
            transaction.beginPending = true
            let result: T
            do {
                result = try await body(session)
            } catch {
                // What was never sent is never sent: the transaction ends here.
                transaction.unsent = []
                // A connection that cannot roll back is not handed out again.
                if !transaction.beginPending, !transaction.committed {
                    do {
                        try await session.execute("ROLLBACK")
                    } catch {
                        // try?: a connection that fails to close is gone either way; nothing of it is kept
                        try? await session.connection.close()
                    }
                }
                throw error
            }
            // A body that ran nothing has nothing to commit; statements still unsent go with the `COMMIT`.
            if !transaction.committed, !transaction.beginPending || !transaction.unsent.isEmpty {
                try await session.execute("COMMIT")
            }
            return (result, transaction.movedRevision)
        }
        // What this process wrote is read again at once (other servers hear the announcement).
        if movedRevision { revisions.forget() }
        return result
    }
}

/// Where a session's transaction stands, and what its statements did that matters once it commits.
final class TransactionState {
    /// `BEGIN` is still to be sent, with the first statement.
    var beginPending = false
    /// `COMMIT` was sent (and answered) with the last statement.
    var committed = false
    /// Statements whose answer nobody reads, sent ahead of the next statement that is awaited
    /// (``PostgresSession/sendWithNext(_:)``).
    var unsent: [PostgresQuery] = []
    /// A person's store revision moved: a practice record or a setting was written.
    var movedRevision = false
}

/// One leased connection: its queries are awaited.
public struct PostgresSession {
    let connection: PostgresConnection
    let logger: Logger
    let transaction: TransactionState

    /// Says that the statements run moved a person's store revision (a practice record or a
    /// setting written): this process forgets the revisions it keeps when the transaction commits.
    func movesRevision() { transaction.movedRevision = true }

    /// Sends `query` ahead of the next statement this transaction awaits (or its `COMMIT`), in
    /// the same flight — for a write whose answer nobody reads, so that it costs no wait of its
    /// own. Its failure is that next statement's (the transaction fails either way).
    func sendWithNext(_ query: PostgresQuery) { transaction.unsent.append(query) }

    /// Forgets what ``sendWithNext(_:)`` kept (before rolling back to a savepoint).
    func discardUnsent() { transaction.unsent = [] }

    /// Sends what ``sendWithNext(_:)`` kept, and awaits it.
    func sendUnsent() async throws(StoreError) {
        guard !transaction.unsent.isEmpty else { return }
        _ = try await results(of: [])
    }

    /// Runs `queries` in one flight (sent one after another without waiting in between) and
    /// returns each one's rows.
    func query(_ queries: [PostgresQuery]) async throws(StoreError) -> [[PostgresRow]] {
        try await results(of: queries).map(\.rows)
    }

    /// Runs `query` and returns every row.
    @discardableResult
    public func query(_ query: PostgresQuery) async throws(StoreError) -> [PostgresRow] {
        try await results(of: [query])[0].rows
    }

    /// Runs `query`; returns how many rows it inserted, changed or deleted.
    @discardableResult
    public func execute(_ query: PostgresQuery) async throws(StoreError) -> Int {
        try await results(of: [query])[0].metadata.rows ?? 0
    }

    /// Runs `query` as the last statement of the transaction and commits it, sending both at once
    /// (``PostgresStore/write(_:)`` then commits nothing more). How many rows `query` changed.
    @discardableResult
    func executeAndCommit(_ query: PostgresQuery) async throws(StoreError) -> Int {
        let changed = try await results(of: [query, "COMMIT"])[0].metadata.rows ?? 0
        transaction.committed = true
        return changed
    }

    /// Sends `queries` (after a pending `BEGIN` and the unsent statements) one after another without waiting in between —
    /// the connection runs them in order — then awaits every answer: their results, or the first
    /// failure. (A statement after a failed one fails too, or, for `COMMIT`, rolls back.)
    private func results(of queries: [PostgresQuery]) async throws(StoreError) -> [PostgresQueryResult] {
        var sent = transaction.unsent + queries
        transaction.unsent = []
        if transaction.beginPending {
            transaction.beginPending = false
            sent.insert("BEGIN", at: 0)
        }
        let answers = sent.map { connection.query($0, logger: logger) }
        var results: [PostgresQueryResult] = []
        var failure: (any Error)?
        for answer in answers {
            do {
                results.append(try await answer.get())
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw StoreError(postgres: failure) }
        return Array(results.suffix(queries.count))
    }
}

extension PostgresRow {
    /// The row's columns as `types`; a row that does not decode is a schema this program does not
    /// know, reported like any database failure.
    public func columns<each Column: PostgresDecodable>(_ types: (repeat each Column).Type) throws(StoreError) -> (
        repeat each Column
    ) {
        do {
            return try decode(types)
        } catch {
            throw .database(message: "PostgreSQL row did not decode: \(String(describing: type(of: error)))")
        }
    }
}

extension StoreError {
    /// A PostgreSQL failure as the store reports it: serialization failures, deadlocks and lock
    /// timeouts are ``busy`` (trying again works); the rest keep SQLSTATE and the server's
    /// message for the log (people see a sentence of their own, see `ErrorMessages`).
    init(postgres error: any Error) {
        if let store = error as? StoreError {
            self = store
            return
        }
        guard let error = error as? PSQLError else {
            self = .database(message: "PostgreSQL: \(String(describing: type(of: error)))")
            return
        }
        guard error.code == .server, let info = error.serverInfo else {
            self = .database(message: "PostgreSQL connection: \(error.code)")
            return
        }
        let state = info[.sqlState] ?? "?"
        switch state {
        case "40001", "40P01", "55P03": self = .busy
        case "53100": self = .diskFull
        default: self = .database(message: "PostgreSQL \(state): \(info[.message] ?? "")")
        }
    }
}

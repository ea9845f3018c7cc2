import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

extension MomentumDatabase {
    /// Calls `observer` with the changes of every transaction that logged any, after it commits:
    /// local edits through this database and merged pushes alike.
    public func observeChanges(_ observer: @escaping @Sendable ([LoggedChange]) -> Void) {
        changeObservers.withLock { $0.append(observer) }
    }

    /// A write that may log synced changes: `body` gets the replica; observers hear of the
    /// logged changes once the transaction has committed. Local changes are stamped with the
    /// task's ``DeviceName/current`` (the browser that asked for the write) if it has one, else
    /// with ``device``.
    func writeSynced<T>(
        _ body: (Database, SyncReplicaStore) throws -> (T, [LoggedChange])
    ) throws -> T {
        let (device, makeNodeID) = (DeviceName.current ?? device, makeNodeID)
        let observers = changeObservers.withLock { $0 }
        return try writer.write { db in
            let replica = SyncReplicaStore(db: db, device: device, makeNodeID: makeNodeID)
            let (result, written) = try body(db, replica)
            // The first write also logs the data already here (a setting saved before the replica
            // existed is only in the seed): those changes come first in the log.
            let logged = replica.seeded.changes + written
            // Told on the writer's queue, one transaction after another: in the order of the log.
            if !logged.isEmpty, !observers.isEmpty {
                db.afterNextTransaction { _ in
                    for observer in observers { observer(logged) }
                }
            }
            return result
        }
    }

    private func syncStep<T>(_ body: (Database, SyncReplicaStore) throws -> (T, [LoggedChange])) throws(SyncError) -> T
    {
        do {
            return try writeSynced(body)
        } catch {
            throw Self.syncError(error, path: path)
        }
    }

    static func syncError(_ error: any Error, path: String) -> SyncError {
        switch error {
        case let error as SyncError: error
        case let error as StoreError: .store(error)
        case let error as DatabaseError: .store(storeError(error, path: path))
        default: .store(.database(message: "\(error)"))
        }
    }

    // MARK: Server side

    /// Merges a pushed batch: checked whole first (with `now` for the drift limit), then applied
    /// in one transaction, each change that is not a duplicate logged with the next sequence
    /// number. Returns each change's sequence number (a duplicate's earlier one).
    public func acceptPush(_ messages: [ChangeMessage], at now: Date) throws(SyncError) -> [Int64?] {
        try acceptPushes([try ChangeBatch.checked(messages, at: now)], at: now)[0].get()
    }

    /// ``acceptPush(_:at:)`` for the server, where many devices push at once: the batch is checked
    /// here, then merged together with the batches that arrive while another group commits
    /// (``PushCommitQueue``), each in a savepoint of its own — one batch's failure leaves the
    /// others. The task waits without blocking a thread.
    public func acceptPushGrouped(_ messages: [ChangeMessage], at now: Date) async throws(SyncError) -> [Int64?] {
        let changes = try ChangeBatch.checked(messages, at: now)
        return try await pushCommits.accept(
            changes, at: now, merging: { batches, now in self.acceptPushes(batches, at: now) },
            // try?: a compaction that fails (another process writing) is tried again after the next group.
            afterwards: { _ = try? self.compactSyncLogIfDue() }
        ).get()
    }

    /// Merges checked batches in one transaction, each in its own savepoint: each batch's
    /// sequence numbers, or why it was refused (then nothing of it is kept). Each write that wins
    /// drops the logged writes it beats (`compacting`; off only in tests that need a log as
    /// versions before 2026-11-27 wrote it, every write kept until compaction ran).
    func acceptPushes(_ batches: [[Change]], at now: Date, compacting: Bool = true) -> [Result<[Int64?], SyncError>] {
        do {
            return try syncStep { db, replica in
                // The replica's own row first, outside the savepoints: a first push creates it.
                _ = try replica.clock(at: now)
                var outcomes: [Result<[Int64?], SyncError>] = []
                var logged: [LoggedChange] = []
                for changes in batches {
                    var result: SyncReplicaStore.RemoteResult?
                    do {
                        try db.inSavepoint {
                            result = try replica.applyRemote(changes, at: now, compacting: compacting)
                            return .commit
                        }
                    } catch {
                        outcomes.append(.failure(Self.syncError(error, path: path)))
                        continue
                    }
                    if let result {
                        outcomes.append(.success(result.seqs))
                        logged += result.logged
                    }
                }
                return (outcomes, logged)
            }
        } catch {
            return batches.map { _ in .failure(error) }
        }
    }

    /// The logged changes after `after`, at most `limit`, in order. A cursor beyond the head is
    /// refused (the client then pulls from 0).
    public func loggedChanges(after: Int64, limit: Int, at now: Date) throws(SyncError) -> SyncPage {
        let raw = try loggedChangeTexts(after: after, limit: limit, at: now)
        do {
            let changes = try raw.changes.map { logged in
                LoggedChange(
                    seq: logged.seq,
                    change: try JSONDecoder().decode(ChangeMessage.self, from: Data(logged.message.utf8)))
            }
            return SyncPage(changes: changes, last: raw.last, more: raw.more)
        } catch {
            throw .store(.database(message: "\(error)"))
        }
    }

    /// ``loggedChanges(after:limit:at:)`` with each change as the JSON text it was logged as, for
    /// the server's pull route, which passes the texts on without reading them.
    public func loggedChangeTexts(after: Int64, limit: Int, at now: Date) throws(SyncError) -> SyncTextPage {
        guard after >= 0, (1...StoreLimits.maximumPullLimit).contains(limit) else {
            throw .invalidPage(after: after, limit: limit)
        }
        try ensureReplica(at: now)
        // A read: pulls do not wait for pushes, nor pushes for pulls.
        let page: Result<SyncTextPage, SyncError>
        do {
            page = try read { db in
                let head = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM syncLog") ?? 0
                guard after <= head else { return .failure(.cursorBeyondHead(cursor: after, head: head)) }
                let rows = try Row.fetchAll(
                    db, sql: "SELECT seq, message FROM syncLog WHERE seq > ? ORDER BY seq LIMIT ?",
                    arguments: [after, limit])
                let changes = rows.map { row in SyncTextPage.Logged(seq: row["seq"], message: row["message"]) }
                let last = changes.last?.seq ?? after
                return .success(SyncTextPage(changes: changes, last: last, more: last < head))
            }
        } catch {
            throw .store(error)
        }
        return try page.get()
    }

    /// A pull's answer as the JSON the server sends — `{"changes":[{"seq":N,"change":{…}}…],
    /// "last":N,"more":B}` — in one read: SQLite writes the page around the logged texts, so no
    /// change becomes a string of its own (a page of 100 cost five streak queries before).
    /// The same page as ``loggedChangeTexts(after:limit:at:)``, and refused the same way.
    ///
    /// A page with more after it is kept (``PullPageCache``): the log only grows at its end, so
    /// such a page never changes — every device of a person pulls the same pages after a change,
    /// and a new one pulls the same backlog.
    public func pullPageJSON(after: Int64, limit: Int, at now: Date) throws(SyncError) -> Data {
        guard after >= 0, (1...StoreLimits.maximumPullLimit).contains(limit) else {
            throw .invalidPage(after: after, limit: limit)
        }
        if let kept = pullPages.page(after: after, limit: limit) { return kept }
        let page: Result<Data, SyncError>?
        do {
            page = try read { db -> Result<Data, SyncError>? in
                let state = try Row.fetchOne(
                    try db.cachedStatement(
                        sql: "SELECT EXISTS (SELECT 1 FROM syncReplica WHERE id = 1), (SELECT MAX(seq) FROM syncLog)"))
                guard let state, state[0] as Bool else { return nil }
                let head: Int64 = state[1] ?? 0
                guard after <= head else { return .failure(.cursorBeyondHead(cursor: after, head: head)) }
                // The subquery keeps the page in sequence order (its LIMIT stops SQLite from
                // flattening it), and `group_concat` joins in the order rows arrive.
                let row = try Row.fetchOne(
                    try db.cachedStatement(
                        sql: """
                            SELECT CAST(group_concat('{"seq":' || seq || ',"change":' || message || '}', ',') AS BLOB),
                                MAX(seq)
                            FROM (SELECT seq, message FROM syncLog WHERE seq > ? ORDER BY seq LIMIT ?)
                            """),
                    arguments: [after, limit])
                let changes: Data = row?[0] ?? Data()
                let last: Int64 = row?[1] ?? after
                var body = Data(capacity: changes.count + 64)
                body.append(contentsOf: #"{"changes":["#.utf8)
                body.append(changes)
                body.append(contentsOf: #"],"last":\#(last),"more":\#(last < head)}"#.utf8)
                if last < head { pullPages.keep(body, after: after, limit: limit) }
                return .success(body)
            }
        } catch {
            throw .store(error)
        }
        if let page { return try page.get() }
        // No replica yet: the first pull creates it (logging the data already here), then reads.
        try ensureReplica(at: now)
        return try pullPageJSON(after: after, limit: limit, at: now)
    }

    /// Creates the replica (and seeds it) when this database has none yet.
    private func ensureReplica(at now: Date) throws(SyncError) {
        let exists: Bool
        do {
            exists = try read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM syncReplica WHERE id = 1") ?? false }
        } catch {
            throw .store(error)
        }
        guard !exists else { return }
        try syncStep { _, replica in
            _ = try replica.clock(at: now)
            return ((), [])
        }
    }

    // MARK: Client side

    /// Makes this database a client of `serverURL`. A new server starts from cursor 0, and every
    /// local change ever logged here is queued for it (its duplicates are harmless).
    public func connectSyncServer(_ serverURL: String, at now: Date) throws(SyncError) {
        try syncStep { db, replica in
            _ = try replica.clock(at: now)
            let current = try String.fetchOne(db, sql: "SELECT serverURL FROM syncReplica WHERE id = 1")
            guard current != serverURL else { return ((), []) }
            try db.execute(sql: "UPDATE syncReplica SET serverURL = ?, cursor = 0 WHERE id = 1", arguments: [serverURL])
            try db.execute(sql: "DELETE FROM syncOutbox")
            try db.execute(sql: "INSERT INTO syncOutbox (seq) SELECT seq FROM syncLog WHERE origin = 'local'")
            return ((), [])
        }
    }

    /// The oldest local changes not yet acknowledged, at most `limit` (their local sequence numbers).
    public func pendingChanges(limit: Int = ChangeBatch.maximumCount) throws(StoreError) -> [LoggedChange] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT syncLog.seq, message FROM syncOutbox JOIN syncLog ON syncLog.seq = syncOutbox.seq
                    ORDER BY syncOutbox.seq LIMIT ?
                    """, arguments: [limit]
            ).map { row in
                LoggedChange(
                    seq: row["seq"],
                    change: try JSONDecoder().decode(ChangeMessage.self, from: Data((row["message"] as String).utf8)))
            }
        }
    }

    /// Drops acknowledged changes from the outbox.
    public func acknowledgePushed(_ seqs: [Int64]) throws(StoreError) {
        try write { db in
            for seq in seqs { try db.execute(sql: "DELETE FROM syncOutbox WHERE seq = ?", arguments: [seq]) }
        }
    }

    /// Merges a page pulled from the server and moves the cursor to `cursor`, in one transaction.
    /// Stamps too far ahead of this clock are applied anyway and reported.
    public func applyPulled(_ page: [LoggedChange], cursor: Int64, at now: Date) throws(SyncError) -> SyncPullResult {
        var changes: [Change] = []
        for entry in page {
            do {
                changes.append(try Change(entry.change))
            } catch {
                throw .invalidPulledChange(seq: entry.seq, error)
            }
        }
        return try syncStep { db, replica in
            let result = try replica.applyRemote(changes, at: now)
            try db.execute(sql: "UPDATE syncReplica SET cursor = ? WHERE id = 1", arguments: [cursor])
            return (SyncPullResult(applied: result.logged.count, farAhead: result.farAhead), result.logged)
        }
    }

    /// Notes a finished sync.
    public func markSynced(at now: Date) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "UPDATE syncReplica SET lastSyncAtMs = ? WHERE id = 1", arguments: [now.millisecondsSince1970])
        }
    }

    /// Where this replica stands.
    public func syncStatus() throws(StoreError) -> SyncStatus {
        try read { db in
            let row = try Row.fetchOne(db, sql: "SELECT node, serverURL, cursor, lastSyncAtMs FROM syncReplica")
            let pending = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM syncOutbox") ?? 0
            let head = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM syncLog") ?? 0
            let lastSync: Int64? = row?["lastSyncAtMs"]
            return SyncStatus(
                node: row?["node"], serverURL: row?["serverURL"], cursor: row?["cursor"] ?? 0, pending: pending,
                lastSyncAt: lastSync.map(Date.init(millisecondsSince1970:)), head: head)
        }
    }

    /// The last sequence number of this database's log (0 when nothing was logged).
    public func syncHead() throws(StoreError) -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM syncLog") ?? 0 }
    }

    /// The latest write of a synced field — its value, stamp and device — or `nil`.
    public func lastChange(of field: String, in key: SyncEntityKey) throws(StoreError) -> FieldVersion? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql:
                        "SELECT value, stamp, device FROM syncField WHERE entityType = ? AND entityId = ? AND field = ?",
                    arguments: [key.type.rawValue, key.id, field])
            else { return nil }
            return FieldVersion(
                value: try JSONDecoder().decode(SyncValue.self, from: Data((row["value"] as String).utf8)),
                stamp: try HybridTimestamp(parsing: row["stamp"]), device: row["device"])
        }
    }
}

import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

/// The server's side of sync for one person on PostgreSQL, as `MomentumDatabase+Sync.swift` is
/// on SQLite (docs/sync.md, docs/postgres.md "Sync"): pushes merged and logged, pulls read from
/// the log, observers hear every change logged for the person by any server.
extension PostgresPersonStore {

    /// A write that logs synced changes: `body` gets the person's replica, locked for the
    /// transaction (see ``PostgresSyncReplica``). Local changes are stamped with the task's
    /// ``MomentumCore/DeviceName/current`` (the browser that asked) if it has one, else with the
    /// store's `device`.
    func syncedWrite<T>(
        at now: Date, preloading keys: Set<SyncEntityKey>? = nil,
        _ body: (PostgresSession, PostgresSyncReplica) async throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        let device = DeviceName.current ?? store.device
        let (personID, makeNodeID, channel) = (personID, store.makeNodeID, PostgresNotifier.channel(for: store.schema))
        let (result, due) = try await store.write { session throws(StoreError) in
            let replica = try await PostgresSyncReplica.lock(
                in: session, for: personID, device: device, channel: channel, makeNodeID: makeNodeID,
                preloading: keys, at: now)
            let result = try await body(session, replica)
            try await replica.finish()
            return (result, replica.isCompactionDue)
        }
        if due { _ = store.compactionDue.withLock { $0.insert(personID) } }
        return result
    }

    /// Compacts the log when a write of this server found it due (asking nothing of the database
    /// otherwise); a compaction that fails (busy) is tried again after the next write finds it due.
    private func compactIfFoundDue() async {
        guard store.compactionDue.withLock({ $0.remove(personID) != nil }) else { return }
        // try?: a compaction that fails (busy) is tried again when the next write finds it due; the write it follows
        // has committed
        _ = try? await compactSyncLog()
    }

    // MARK: Pushes

    /// Merges a pushed batch: checked whole first (with `now` for the drift limit), then applied
    /// in one transaction, each change that is not a duplicate logged with the next sequence
    /// number; then compaction when due. Each change's sequence number (a duplicate's earlier one).
    public func acceptPush(_ messages: [ChangeMessage], at now: Date) async throws(SyncError) -> [Int64?] {
        let seqs = try await acceptPushes([try ChangeBatch.checked(messages, at: now)], at: now)[0].get()
        await compactIfFoundDue()
        return seqs
    }

    /// ``acceptPush(_:at:)`` for the server, where many devices push at once: the batch is checked
    /// here, then merged together with the person's batches that arrive while another group
    /// commits (``MomentumStore/PushCommitQueue``, one per person and store), each in a savepoint
    /// of its own — one batch's failure leaves the others. The task waits without blocking a
    /// thread; the merging runs on the queue's own.
    public func acceptPushGrouped(_ messages: [ChangeMessage], at now: Date) async throws(SyncError) -> [Int64?] {
        let changes = try ChangeBatch.checked(messages, at: now)
        return try await store.pushQueue(for: personID).accept(
            changes, at: now, mergingAwaited: { batches, now in await self.acceptPushes(batches, at: now) },
            afterwards: { await self.compactIfFoundDue() }
        ).get()
    }

    /// Merges checked batches in one transaction (holding the person's replica row): each batch's
    /// sequence numbers, or why it was refused (then nothing of it is kept, and the numbers it
    /// would have taken go to the next batch). All batches go in together first, merged as one
    /// (the engine merges change after change, so the merged state and the log are what one batch
    /// after another gives; the person's rows are decided once for the group, in id order — at a
    /// timer's 100 items or two sits named alike, which one gets the row or the name may differ
    /// from batch by batch, as SQLite merges): one load and one write for the group, however many
    /// batches it has. Only when that fails are they
    /// merged again each in a savepoint of its own, so that one batch's failure leaves the others
    /// (a savepoint costs round trips, and batches almost never fail).
    func acceptPushes(_ batches: [[Change]], at now: Date) async -> [Result<[Int64?], SyncError>] {
        let changes = batches.flatMap(\.self)
        do {
            // What the merge loads is read with the lock of the replica, in one wait.
            return try await syncedWrite(at: now, preloading: SyncReplicaEngine.keysToLoad(for: changes)) {
                _, replica throws(StoreError) in
                var seqs = try await replica.applyRemote(changes, at: now)[...]
                return batches.map { changes in
                    defer { seqs = seqs.dropFirst(changes.count) }
                    return .success(Array(seqs.prefix(changes.count)))
                }
            }
        } catch {
            guard batches.count > 1 else { return [.failure(.store(error))] }
        }
        do {
            return try await syncedWrite(at: now) { session, replica throws(StoreError) in
                var outcomes: [Result<[Int64?], SyncError>] = []
                for changes in batches {
                    replica.flush()
                    let mark = replica.mark()
                    try await session.execute("SAVEPOINT push")
                    do throws(StoreError) {
                        let seqs = try await replica.applyRemote(changes, at: now)
                        replica.flush()
                        try await session.execute("RELEASE SAVEPOINT push")
                        outcomes.append(.success(seqs))
                    } catch {
                        session.discardUnsent()
                        try await session.execute("ROLLBACK TO SAVEPOINT push")
                        replica.restore(mark)
                        outcomes.append(.failure(.store(error)))
                    }
                }
                return outcomes
            }
        } catch {
            return batches.map { _ in .failure(.store(error)) }
        }
    }

    // MARK: Pulls

    /// A pull's answer as the JSON the server sends — `{"changes":[{"seq":N,"change":{…}}…],
    /// "last":N,"more":B}` — byte for byte what SQLite gives for the same log, written by
    /// PostgreSQL around the logged texts in one statement (one snapshot: the head and the page
    /// agree). A cursor below 0 or a limit outside 1…1000 is ``SyncError/invalidPage(after:limit:)``,
    /// one beyond the head ``SyncError/cursorBeyondHead(cursor:head:)``. The first pull of a person
    /// creates their replica (logging the data already there). A page with changes after it is
    /// kept, as on SQLite (``MomentumStore/PullPageCache``): the log grows only at its end, on
    /// every server, so that page never changes.
    public func pullPageJSON(after: Int64, limit: Int, at now: Date) async throws(SyncError) -> Data {
        guard after >= 0, (1...StoreLimits.maximumPullLimit).contains(limit) else {
            throw .invalidPage(after: after, limit: limit)
        }
        let kept = store.pullPages(of: personID)
        if let page = kept.page(after: after, limit: limit) { return page }
        let row: PostgresRow?
        do {
            row = try await store.read { session throws(StoreError) in
                try await session.query(
                    """
                    SELECT r.head, p.body, p.last FROM sync_replica r, LATERAL (
                        SELECT string_agg('{"seq":' || seq || ',"change":' || message || '}', ',' ORDER BY seq) AS body,
                            MAX(seq) AS last
                        FROM (SELECT seq, message FROM sync_log WHERE person_id = \(personID) AND seq > \(after)
                            ORDER BY seq LIMIT \(Int64(limit))) page) p
                    WHERE r.person_id = \(personID)
                    """
                ).first
            }
        } catch {
            throw .store(error)
        }
        guard let row else {
            try await ensureReplica(at: now)
            return try await pullPageJSON(after: after, limit: limit, at: now)
        }
        let (head, changes, lastSeq): (Int64, String?, Int64?)
        do {
            (head, changes, lastSeq) = try row.columns((Int64, String?, Int64?).self)
        } catch {
            throw .store(error)
        }
        guard after <= head else { throw .cursorBeyondHead(cursor: after, head: head) }
        let last = lastSeq ?? after
        var body = Data(capacity: (changes?.utf8.count ?? 0) + 64)
        body.append(contentsOf: #"{"changes":["#.utf8)
        body.append(contentsOf: (changes ?? "").utf8)
        body.append(contentsOf: #"],"last":\#(last),"more":\#(last < head)}"#.utf8)
        if last < head { kept.keep(body, after: after, limit: limit) }
        return body
    }

    /// The logged changes after `after`, at most `limit`, in order (decoded; what observers get).
    func loggedChanges(after: Int64, limit: Int) async throws(StoreError) -> [LoggedChange] {
        let rows = try await store.read { session throws(StoreError) in
            try await session.query(
                """
                SELECT seq, message FROM sync_log WHERE person_id = \(personID) AND seq > \(after)
                ORDER BY seq LIMIT \(Int64(limit))
                """)
        }
        var changes: [LoggedChange] = []
        changes.reserveCapacity(rows.count)
        for row in rows {
            let (seq, message) = try row.columns((Int64, String).self)
            do {
                changes.append(
                    LoggedChange(
                        seq: seq, change: try JSONDecoder().decode(ChangeMessage.self, from: Data(message.utf8))))
            } catch {
                throw .corruptRow(table: "sync_log", id: "\(seq)", reason: "\(error)")
            }
        }
        return changes
    }

    /// The logged changes after `after` as a page (``pullPageJSON(after:limit:at:)`` decoded).
    public func loggedChanges(after: Int64, limit: Int, at now: Date) async throws(SyncError) -> SyncPage {
        let data = try await pullPageJSON(after: after, limit: limit, at: now)
        do {
            return try JSONDecoder().decode(SyncPage.self, from: data)
        } catch {
            throw .store(.database(message: "\(error)"))
        }
    }

    /// Creates the person's replica (and seeds it) when they have none yet.
    private func ensureReplica(at now: Date) async throws(SyncError) {
        do {
            try await syncedWrite(at: now) { _, _ throws(StoreError) in }
        } catch {
            throw .store(error)
        }
    }

    // MARK: Reads

    /// The last sequence number of the person's log (0 when nothing was logged).
    public func syncHead() async throws(StoreError) -> Int64 {
        try await store.read { session throws(StoreError) in
            let rows = try await session.query("SELECT head FROM sync_replica WHERE person_id = \(personID)")
            return try rows.first?.columns(Int64.self) ?? 0
        }
    }

    /// The latest write of a synced field — its value, stamp and device — or `nil`.
    public func lastChange(of field: String, in key: SyncEntityKey) async throws(StoreError) -> FieldVersion? {
        let rows = try await store.read { session throws(StoreError) in
            try await session.query(
                """
                SELECT value, stamp, device FROM sync_field WHERE person_id = \(personID)
                    AND entity_type = \(key.type.rawValue) AND entity_id = \(key.id) AND field = \(field)
                """)
        }
        guard let row = rows.first else { return nil }
        let (value, stamp, device) = try row.columns((String, String, String).self)
        do {
            return FieldVersion(
                value: try JSONDecoder().decode(SyncValue.self, from: Data(value.utf8)),
                stamp: try HybridTimestamp(parsing: stamp), device: device)
        } catch {
            throw .corruptRow(table: "sync_field", id: "\(key)/\(field)", reason: "\(error)")
        }
    }

    /// Calls `observer` with the changes logged for this person by any server on the database
    /// (this one included) from now on, in log order, each once — shortly after they commit
    /// (``PostgresSyncFeed``: `LISTEN/NOTIFY`, then a read of the log).
    public func observeChanges(_ observer: @escaping @Sendable ([LoggedChange]) -> Void) async {
        await store.syncFeed.observe(personID, in: store, observer)
    }
}

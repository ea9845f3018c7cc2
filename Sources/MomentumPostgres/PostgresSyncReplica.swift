import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

/// One person's sync replica inside one write transaction: what SQLite's `SyncReplicaStore` is
/// for a person's file, on the `sync_…` tables (schema v7). The merge is ``ReplicaState``'s and
/// the local changes ``LocalSyncChanges``'; this loads what they need and writes back what they
/// decided.
///
/// ``lock(in:for:device:makeNodeID:at:)`` locks the person's `sync_replica` row (`FOR UPDATE`,
/// creating and seeding it the first time) before anything else of the transaction: every
/// transaction that logs for a person, on any server, holds that row until it commits, so the
/// sequence numbers it takes from `head` commit in the order they were taken — no gap a puller
/// could see, no number given twice. ``finish()`` writes the clock and the head back and sends
/// `NOTIFY` (`person:head`), which PostgreSQL delivers only when the transaction commits.
///
/// Each wait for PostgreSQL costs a busy server far more than the work it carries, so the replica
/// waits few times: the row is locked and read — with `BEGIN` before it and, for a push, the
/// merged state of the changed entities loaded after it — in one flight; what the merge decided
/// about the `sync_…` tables (fields, deletions, links, log) is kept here and written in one
/// statement, together with the clock, the head and the `NOTIFY` when ``finish()`` writes it
/// (``PendingSyncWrites``); the rows' writes go in the same flight
/// (``PostgresSession/sendWithNext(_:)``), with the `COMMIT`. A group of pushes of timers waits
/// twice: the lock and load, then the writes and `COMMIT` (three times when the merge reads stored
/// rows: the items filed under a timer, records, settings, the sits' names).
final class PostgresSyncReplica: AsyncSyncReplicaPrimitives {
    let session: PostgresSession
    let personID: Person.ID
    let device: String
    let channel: String
    private(set) var clock: HybridLogicalClock
    private(set) var head: Int64
    /// How far compaction had looked when the row was locked.
    let compactedThrough: Int64
    /// Everything this transaction logged, in log order (a first use's seed included).
    private(set) var logged: [LoggedChange] = []
    /// What is decided but not yet written (``flush()``).
    private var pending = PendingSyncWrites()
    private var loggedSeqs: [LogKey: Int64] = [:]
    /// The state read with the lock, for the first ``load(_:)``: forgotten once anything is
    /// written or loaded.
    private var preloaded: (keys: Set<SyncEntityKey>, state: ReplicaState)?

    fileprivate struct LogKey: Hashable {
        var stamp: String
        var type: String
        var id: String
        var field: String?
    }

    private init(
        session: PostgresSession, personID: Person.ID, device: String, channel: String, clock: HybridLogicalClock,
        head: Int64, compactedThrough: Int64
    ) {
        self.session = session
        self.personID = personID
        self.device = device
        self.channel = channel
        self.clock = clock
        self.head = head
        self.compactedThrough = compactedThrough
    }

    /// Locks the person's replica row for the rest of the transaction, creating it (a new node
    /// id, and local changes for the data already there) the first time.
    ///
    /// `preloading` keys (``SyncReplicaEngine/keysToLoad(for:)``) are loaded in the same flight as
    /// the lock, after it: the first ``load(_:)`` of exactly them then waits for nothing.
    static func lock(
        in session: PostgresSession, for personID: Person.ID, device: String, channel: String,
        makeNodeID: () -> String, preloading keys: Set<SyncEntityKey>? = nil, at now: Date
    ) async throws(StoreError) -> PostgresSyncReplica {
        // One statement: created the first time, else "updated" to itself — either way the row is
        // locked until the transaction ends (a second server creating it at the same moment
        // waits here for the first to commit), and `xmax = 0` only for a row this statement made.
        let lock: PostgresQuery = """
            INSERT INTO sync_replica AS r (person_id, node) VALUES (\(personID), \(makeNodeID()))
            ON CONFLICT (person_id) DO UPDATE SET node = r.node
            RETURNING r.node, r.last_stamp, r.head, r.compacted_through, r.xmax = 0
            """
        let answers = try await session.query([lock] + (keys.map { [loadQuery($0, for: personID)] } ?? []))
        guard let row = answers[0].first else {
            throw .database(message: "sync replica of person \(personID) is missing")
        }
        let (node, last, head, compactedThrough, created) = try row.columns(
            (String, String?, Int64, Int64, Bool).self)
        let clock: HybridLogicalClock
        do {
            clock = try HybridLogicalClock(node: node, last: try last.map { try HybridTimestamp(parsing: $0) })
        } catch {
            throw .corruptRow(table: "sync_replica", id: "\(personID)", reason: "\(error)")
        }
        let replica = PostgresSyncReplica(
            session: session, personID: personID, device: device, channel: channel, clock: clock, head: head,
            compactedThrough: compactedThrough)
        // A new replica is seeded first, which the state read ahead does not know.
        if created {
            try await replica.seed(at: now)
        } else if let keys {
            replica.preloaded = (keys, try state(from: answers[1]))
        }
        return replica
    }

    /// The data written before the person synced becomes local changes, so a first sync sends it.
    private func seed(at now: Date) async throws(StoreError) {
        let timers = try await PostgresPersonStore.focusTimers(in: session, for: personID)
        let records = try await PostgresPersonStore.loggedRecords(in: session, for: personID).map(\.record)
        let presets = try await PostgresPersonStore.meditationPresets(in: session, for: personID)
        let settings = try await PostgresPersonStore.settingValues(in: session, for: personID)
        try await SyncReplicaEngine.seed(
            timers: timers, records: records, meditationPresets: presets, storedSettings: settings, clock: &clock,
            device: device, at: now, in: self)
    }

    /// Writes what is pending, the clock and the head back, and announces what was logged (on
    /// commit) — one statement, sent with the `COMMIT`. Call once, last in the transaction.
    func finish() async throws(StoreError) {
        var statement = pending.statement(for: personID)
        let (stamp, head, person) = (
            statement.bind(clock.last?.description), statement.bind(self.head), statement.bind(personID)
        )
        statement.addPart("UPDATE sync_replica SET last_stamp = \(stamp), head = \(head) WHERE person_id = \(person)")
        if !logged.isEmpty {
            let (channel, payload) = (statement.bind(channel), statement.bind("\(personID):\(self.head)"))
            statement.finish(with: "SELECT pg_notify(\(channel), \(payload))")
        }
        pending = PendingSyncWrites()
        try await session.executeAndCommit(statement.query)
    }

    /// Whether compaction has this replica's log to look at (``StoreLimits/compactionInterval``).
    var isCompactionDue: Bool { head - compactedThrough >= StoreLimits.compactionInterval }

    /// Where the replica stands in memory (the log written up to it): what a savepoint's
    /// rollback returns to.
    struct Mark {
        fileprivate var clock: HybridLogicalClock
        fileprivate var head: Int64
        fileprivate var logged: Int
        fileprivate var loggedSeqs: [LogKey: Int64]
    }

    /// Call with nothing pending (``flush()``), right after a savepoint.
    func mark() -> Mark { Mark(clock: clock, head: head, logged: logged.count, loggedSeqs: loggedSeqs) }

    /// Forgets what was done since `mark`, after the transaction rolled back to its savepoint.
    func restore(_ mark: Mark) {
        clock = mark.clock
        head = mark.head
        logged.removeLast(logged.count - mark.logged)
        loggedSeqs = mark.loggedSeqs
        pending = PendingSyncWrites()
    }

    // MARK: Local changes and changes from elsewhere

    /// Turns the new values of entities written here into stamped changes, merged and logged as
    /// local (``SyncReplicaEngine/recordLocal(sets:deletes:clock:device:at:in:)``).
    func recordLocal(sets: [(SyncEntityKey, [String: SyncValue])], deletes: [SyncEntityKey], at now: Date)
        async
        throws(StoreError)
    {
        try await SyncReplicaEngine.recordLocal(
            sets: sets, deletes: deletes, clock: &clock, device: device, at: now, in: self)
    }

    /// Merges checked changes from elsewhere, dropping the writes they beat from the log
    /// (``SyncReplicaEngine/applyRemote(_:clock:at:compacting:in:)``). Each change's sequence
    /// number (a duplicate's earlier one).
    func applyRemote(_ changes: [Change], at now: Date) async throws(StoreError) -> [Int64?] {
        try await SyncReplicaEngine.applyRemote(changes, clock: &clock, at: now, compacting: true, in: self).seqs
    }

    // MARK: The log

    func failure(_ error: any Error) -> StoreError { .database(message: "\(error)") }

    func execute(_ writes: [SyncReplicaEngine.Write], at now: Date) async throws(StoreError)
        -> SyncReplicaEngine.Executed
    {
        var executed = SyncReplicaEngine.Executed()
        for write in writes {
            switch write {
            case .persist(let changes): try persist(changes)
            case .log(let change, let origin):
                let entry = try await appendToLog(change, origin: origin)
                executed.logged.append(entry)
                executed.seqs.append(entry.seq)
            case .findLogged(let change): executed.seqs.append(try await seqOfLogged(change))
            case .dropWritesBeaten(let change): pending.dropWrites(beatenBy: change)
            case .removeRow(let key): removeRow(key)
            case .saveTimer(let timer): session.sendWithNext(PostgresPersonStore.upsert(timer, for: personID))
            case .saveItem(let item, let timerID): saveItem(item, timerID: timerID)
            case .saveRecord(let record): try saveRecord(record, at: now)
            case .saveSettingValues(let values):
                try await PostgresPersonStore.saveSettings(values, in: session, for: personID, at: now)
            case .saveMeditationPreset(let preset):
                session.sendWithNext(try PostgresPersonStore.upsert(preset, for: personID, replacingCreatedAt: true))
            }
        }
        return executed
    }

    func appendToLog(_ change: Change, origin: String) async throws(StoreError) -> LoggedChange {
        let message = ChangeMessage(change)
        let text: String
        do {
            text = try message.logText()
        } catch {
            throw .database(message: "change did not encode: \(error)")
        }
        head += 1
        pending.log(change, message: text, origin: origin, seq: head)
        loggedSeqs[Self.logKey(change)] = loggedSeqs[Self.logKey(change)] ?? head
        let entry = LoggedChange(seq: head, change: message)
        logged.append(entry)
        // What is kept in memory stays bounded: a long seed's log goes out a thousand at a time.
        if pending.logCount >= 1000 {
            flush()
            try await session.sendUnsent()
        }
        return entry
    }

    private static func logKey(_ change: Change) -> LogKey {
        LogKey(
            stamp: change.stamp.description, type: change.entity.type.rawValue, id: change.entity.id,
            field: change.loggedField)
    }

    /// Writes what is pending (fields, deletions, links, log entries), in one statement sent with
    /// the next that is awaited (``PostgresSession/sendWithNext(_:)``).
    func flush() {
        guard !pending.isEmpty else { return }
        let statement = pending.statement(for: personID)
        pending = PendingSyncWrites()
        session.sendWithNext(statement.query)
    }

    func seqOfLogged(_ change: Change) async throws(StoreError) -> Int64? {
        let key = Self.logKey(change)
        if let seq = loggedSeqs[key] { return seq }
        let rows = try await session.query(
            """
            SELECT seq FROM sync_log WHERE person_id = \(personID) AND stamp = \(key.stamp)
                AND entity_type = \(key.type) AND entity_id = \(key.id) AND field IS NOT DISTINCT FROM \(key.field)
            ORDER BY seq LIMIT 1
            """)
        return try rows.first?.columns(Int64.self)
    }

    // MARK: Loading and saving the replica

    /// The merged state of `keys`, the timers each item named and every item that named a loaded
    /// timer: everything ``ReplicaState/apply(_:)`` reads for them — in one statement (after
    /// writing what is pending, which it must see).
    func load(_ keys: Set<SyncEntityKey>) async throws(StoreError) -> ReplicaState {
        defer { preloaded = nil }
        if let preloaded, preloaded.keys == keys, pending.isEmpty, session.transaction.unsent.isEmpty {
            return preloaded.state
        }
        flush()
        return try Self.state(from: try await session.query(Self.loadQuery(keys, for: personID)))
    }

    private static func loadQuery(_ keys: Set<SyncEntityKey>, for personID: Person.ID) -> PostgresQuery {
        let (item, timer) = (SyncEntityType.checklistItem.rawValue, SyncEntityType.focusTimer.rawValue)
        // The kind of each row: f a field's version, d a deletion, t an item's timer.
        return
            """
            WITH given (entity_type, entity_id) AS (
                SELECT * FROM unnest(\(keys.map(\.type.rawValue))::text[], \(keys.map(\.id))::text[])),
            timers (id) AS (
                SELECT entity_id FROM given WHERE entity_type = \(timer)
                UNION SELECT timer_id FROM sync_item_timer WHERE person_id = \(personID)
                    AND item_id IN (SELECT entity_id FROM given WHERE entity_type = \(item))),
            keys (entity_type, entity_id) AS (
                SELECT entity_type, entity_id FROM given
                UNION SELECT \(timer), id FROM timers
                UNION SELECT \(item), item_id FROM sync_item_timer WHERE person_id = \(personID)
                    AND timer_id IN (SELECT id FROM timers))
            SELECT 'f', f.entity_type, f.entity_id, f.field, f.value, f.stamp, f.device
                FROM keys k JOIN sync_field f ON f.person_id = \(personID) AND f.entity_type = k.entity_type
                    AND f.entity_id = k.entity_id
            UNION ALL SELECT 'd', d.entity_type, d.entity_id, NULL, NULL, d.stamp, d.device
                FROM keys k JOIN sync_deletion d ON d.person_id = \(personID) AND d.entity_type = k.entity_type
                    AND d.entity_id = k.entity_id
            UNION ALL SELECT 't', \(item), t.item_id, t.timer_id, NULL, NULL, NULL
                FROM keys k JOIN sync_item_timer t ON t.person_id = \(personID) AND t.item_id = k.entity_id
                WHERE k.entity_type = \(item)
            """
    }

    private static func state(from rows: [PostgresRow]) throws(StoreError) -> ReplicaState {
        var entities: [SyncEntityType: [String: [String: FieldVersion]]] = [:]
        var deletions: [SyncEntityKey: Deletion] = [:]
        var timersOfItems: [String: Set<String>] = [:]
        for row in rows {
            let (kind, typeName, id, field, value, stamp, device) = try row.columns(
                (String, String, String, String?, String?, String?, String?).self)
            if kind == "t", let field {
                timersOfItems[id, default: []].insert(field)
                continue
            }
            guard let type = SyncEntityType(rawValue: typeName), let stamp, let device else {
                throw .corruptRow(table: "sync_field", id: "\(typeName)/\(id)", reason: "unknown entity type")
            }
            do {
                let stamped = try HybridTimestamp(parsing: stamp)
                if kind == "d" {
                    deletions[SyncEntityKey(type: type, id: id)] = Deletion(stamp: stamped, device: device)
                } else if let field, let value {
                    let version = FieldVersion(
                        value: try JSONDecoder().decode(SyncValue.self, from: Data(value.utf8)), stamp: stamped,
                        device: device)
                    entities[type, default: [:]][id, default: [:]][field] = version
                }
            } catch {
                throw .corruptRow(
                    table: kind == "d" ? "sync_deletion" : "sync_field", id: "\(typeName)/\(id)", reason: "\(error)")
            }
        }
        return ReplicaState(entities: entities, deletions: deletions, timersOfItems: timersOfItems)
    }

    /// Keeps what differs between two states of the loaded entities, to be written with the
    /// next statement that writes (``flush()``, ``finish()``).
    private func persist(_ changes: SyncReplicaEngine.StateChanges) throws(StoreError) {
        for (type, id, field) in changes.removedFields { pending.removeField(type: type, id: id, field: field) }
        for (type, id, field, version) in changes.writtenFields {
            pending.writeField(type: type, id: id, field: field, version, value: try Self.json(version.value))
        }
        for (key, deletion) in changes.deletions { pending.writeDeletion(key, deletion) }
        for (item, timer) in changes.links { pending.link(item: item, timer: timer) }
    }

    static func json(_ value: SyncValue) throws(StoreError) -> String {
        do {
            return try value.logText()
        } catch {
            throw .database(message: "sync value did not encode: \(error)")
        }
    }
}

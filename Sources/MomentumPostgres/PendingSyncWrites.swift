import Foundation
import MomentumCore
import PostgresNIO

/// What a transaction decided about a person's `sync_…` tables and has not written yet: field
/// versions written or removed, deletions, an item's timers, log entries. ``statement(for:)``
/// writes all of it in one statement (a data-modifying `WITH` part per table), so a merge costs
/// one round trip to PostgreSQL however many tables it touches (``PostgresSyncReplica``).
///
/// A later decision about the same field (or deletion) replaces an earlier one: one statement
/// must never write a row twice.
struct PendingSyncWrites {
    private struct FieldKey: Hashable {
        var type: String
        var id: String
        var field: String
    }

    private enum FieldWrite {
        case removed
        case written(value: String, stamp: String, device: String)
    }

    private struct Link: Hashable {
        var item: String
        var timer: String
    }

    private struct LogEntry {
        var change: Change
        var message: String
        var origin: String
        var seq: Int64
        /// Beaten by a write merged after it in this statement: never written.
        var isDropped = false
    }

    private var fields: [FieldKey: FieldWrite] = [:]
    private var deletions: [SyncEntityKey: Deletion] = [:]
    private var links: Set<Link> = []
    private var entries: [LogEntry] = []
    /// Per field, the entries written to it not dropped yet (their indexes in `entries`).
    private var entriesOfField: [FieldKey: [Int]] = [:]
    /// Per field, the stamp of the newest merged write that beat what the log held before this
    /// statement: the log's writes of the field with a lower stamp are deleted.
    private var beaten: [FieldKey: String] = [:]

    var isEmpty: Bool {
        fields.isEmpty && deletions.isEmpty && links.isEmpty && entries.isEmpty && beaten.isEmpty
    }
    /// Log entries waiting.
    var logCount: Int { entries.count }

    mutating func removeField(type: SyncEntityType, id: String, field: String) {
        fields[FieldKey(type: type.rawValue, id: id, field: field)] = .removed
    }

    /// `value` is the version's value as the JSON text the table keeps.
    mutating func writeField(type: SyncEntityType, id: String, field: String, _ version: FieldVersion, value: String) {
        fields[FieldKey(type: type.rawValue, id: id, field: field)] = .written(
            value: value, stamp: version.stamp.description, device: version.device)
    }

    mutating func writeDeletion(_ key: SyncEntityKey, _ deletion: Deletion) { deletions[key] = deletion }

    mutating func link(item: String, timer: String) { links.insert(Link(item: item, timer: timer)) }

    /// `message` is the change as the JSON text pulls send.
    mutating func log(_ change: Change, message: String, origin: String, seq: Int64) {
        if let field = change.loggedField {
            entriesOfField[FieldKey(type: change.entity.type.rawValue, id: change.entity.id, field: field), default: []]
                .append(entries.count)
        }
        entries.append(LogEntry(change: change, message: message, origin: origin, seq: seq))
    }

    /// SQLite's `dropWritesBeaten(by:)`: a merged write that won, logged already, takes the log's
    /// writes of its field with a lower stamp with it — those this statement was to write are not
    /// written, those written before are deleted by it. A checklist item's `timerID` writes stay.
    mutating func dropWrites(beatenBy change: Change) {
        let stamp = change.stamp.description
        for field in change.fieldsWhoseOlderWritesItBeats {
            let key = FieldKey(type: change.entity.type.rawValue, id: change.entity.id, field: field)
            entriesOfField[key] = entriesOfField[key]?.filter { index in
                guard entries[index].change.stamp < change.stamp else { return true }
                entries[index].isDropped = true
                return false
            }
            if beaten[key].map({ $0 < stamp }) ?? true { beaten[key] = stamp }
        }
    }

    /// One statement writing everything pending for `personID`; the caller may add parts of its
    /// own and ends it with ``SQLStatement/finish(with:)``.
    func statement(for personID: Person.ID) -> SQLStatement {
        var statement = SQLStatement()
        let person = statement.bind(personID)
        addFields(to: &statement, person: person)
        if !deletions.isEmpty {
            let keys = Array(deletions.keys)
            let (types, ids) = (statement.bind(keys.map(\.type.rawValue)), statement.bind(keys.map(\.id)))
            let stamps = statement.bind(keys.map { deletions[$0]?.stamp.description ?? "" })
            let devices = statement.bind(keys.map { deletions[$0]?.device ?? "" })
            statement.addPart(
                """
                INSERT INTO sync_deletion (person_id, entity_type, entity_id, stamp, device)
                SELECT \(person), * FROM unnest(\(types)::text[], \(ids)::text[], \(stamps)::text[], \(devices)::text[])
                ON CONFLICT (person_id, entity_type, entity_id) DO UPDATE SET stamp = EXCLUDED.stamp,
                    device = EXCLUDED.device
                """)
        }
        if !links.isEmpty {
            let (items, timers) = (statement.bind(links.map(\.item)), statement.bind(links.map(\.timer)))
            statement.addPart(
                """
                INSERT INTO sync_item_timer (person_id, item_id, timer_id)
                SELECT \(person), * FROM unnest(\(items)::text[], \(timers)::text[]) ON CONFLICT DO NOTHING
                """)
        }
        addLog(to: &statement, person: person)
        return statement
    }

    private func addFields(to statement: inout SQLStatement, person: String) {
        var gone: (types: [String], ids: [String], fields: [String]) = ([], [], [])
        var written = (types: [String](), ids: [String](), fields: [String](), values: [String]())
        var (stamps, devices) = ([String](), [String]())
        for (key, write) in fields {
            switch write {
            case .removed:
                gone.types.append(key.type)
                gone.ids.append(key.id)
                gone.fields.append(key.field)
            case .written(let value, let stamp, let device):
                written.types.append(key.type)
                written.ids.append(key.id)
                written.fields.append(key.field)
                written.values.append(value)
                stamps.append(stamp)
                devices.append(device)
            }
        }
        if !gone.ids.isEmpty {
            let (types, ids, names) = (
                statement.bind(gone.types), statement.bind(gone.ids), statement.bind(gone.fields)
            )
            statement.addPart(
                """
                DELETE FROM sync_field f USING unnest(\(types)::text[], \(ids)::text[], \(names)::text[])
                    AS g(entity_type, entity_id, field)
                WHERE f.person_id = \(person) AND f.entity_type = g.entity_type AND f.entity_id = g.entity_id
                    AND f.field = g.field
                """)
        }
        if !written.ids.isEmpty {
            let (types, ids, names) = (
                statement.bind(written.types), statement.bind(written.ids), statement.bind(written.fields)
            )
            let (values, stampList, deviceList) = (
                statement.bind(written.values), statement.bind(stamps), statement.bind(devices)
            )
            statement.addPart(
                """
                INSERT INTO sync_field (person_id, entity_type, entity_id, field, value, stamp, device)
                SELECT \(person), * FROM unnest(\(types)::text[], \(ids)::text[], \(names)::text[],
                    \(values)::text[], \(stampList)::text[], \(deviceList)::text[])
                ON CONFLICT (person_id, entity_type, entity_id, field) DO UPDATE SET value = EXCLUDED.value,
                    stamp = EXCLUDED.stamp, device = EXCLUDED.device
                """)
        }
    }

    private func addLog(to statement: inout SQLStatement, person: String) {
        if !beaten.isEmpty {
            // Sees the log as it was before this statement: never the entries it inserts. Rows a
            // compaction is deleting meanwhile are left to it (`SKIP LOCKED`): it waits for this
            // transaction's replica row after its deletions, so waiting for them here would be a
            // deadlock.
            let keys = Array(beaten.keys)
            let (types, ids) = (statement.bind(keys.map(\.type)), statement.bind(keys.map(\.id)))
            let (names, stamps) = (statement.bind(keys.map(\.field)), statement.bind(keys.map { beaten[$0] ?? "" }))
            statement.addPart(
                """
                DELETE FROM sync_log WHERE person_id = \(person) AND seq IN (
                    SELECT l.seq FROM sync_log l
                    JOIN unnest(\(types)::text[], \(ids)::text[], \(names)::text[], \(stamps)::text[])
                        AS b(entity_type, entity_id, field, stamp)
                    ON l.entity_type = b.entity_type AND l.entity_id = b.entity_id AND l.field = b.field
                        AND l.stamp < b.stamp
                    WHERE l.person_id = \(person)
                    FOR UPDATE OF l SKIP LOCKED)
                """)
        }
        let entries = entries.filter { !$0.isDropped }
        guard !entries.isEmpty else { return }
        // A deletion has no field: "" here (a field name is never empty), NULL in the table.
        let fields = entries.map { $0.change.loggedField ?? "" }
        let (seqs, stamps) = (
            statement.bind(entries.map(\.seq)), statement.bind(entries.map { $0.change.stamp.description })
        )
        let (types, ids) = (
            statement.bind(entries.map { $0.change.entity.type.rawValue }),
            statement.bind(entries.map { $0.change.entity.id })
        )
        let (names, messages, origins) = (
            statement.bind(fields), statement.bind(entries.map(\.message)), statement.bind(entries.map(\.origin))
        )
        statement.addPart(
            """
            INSERT INTO sync_log (person_id, seq, stamp, entity_type, entity_id, field, message, origin)
            SELECT \(person), seq, stamp, entity_type, entity_id, NULLIF(field, ''), message, origin
            FROM unnest(\(seqs)::bigint[], \(stamps)::text[], \(types)::text[], \(ids)::text[], \(names)::text[],
                \(messages)::text[], \(origins)::text[])
                AS given(seq, stamp, entity_type, entity_id, field, message, origin)
            ORDER BY given.seq
            """)
    }
}

/// A statement built from parts — data-modifying `WITH` parts, then one `SELECT` — whose values
/// are bound (`$1`, `$2`, …), never spliced into its text.
struct SQLStatement {
    private var parts: [String] = []
    private var select = "SELECT 1"
    private var binds = PostgresBindings()

    /// Binds `value` and answers its placeholder.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value?) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    /// Adds a data-modifying statement (it runs once, whether or not the end reads it).
    mutating func addPart(_ sql: String) { parts.append(sql) }

    /// The statement's last part, a `SELECT`.
    mutating func finish(with select: String) { self.select = select }

    var query: PostgresQuery {
        let with = parts.enumerated().map { "w\($0.offset) AS (\($0.element))" }.joined(separator: ",\n")
        return PostgresQuery(unsafeSQL: (parts.isEmpty ? "" : "WITH \(with)\n") + select, binds: binds)
    }
}

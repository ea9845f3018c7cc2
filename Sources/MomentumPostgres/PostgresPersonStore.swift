import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

extension PostgresStore {
    /// The store as one person of the household sees it: every read and write is theirs only.
    public func scoped(to personID: Person.ID) -> PostgresPersonStore {
        PostgresPersonStore(store: self, personID: personID)
    }
}

/// One person's data on PostgreSQL: what ``MomentumStore/MomentumDatabase`` is for one person's
/// SQLite file. Every statement filters on `person_id`. Settings and the log are here; focus
/// timers, presets, programs and the Morse course in the `PostgresPersonStore+…` files.
///
/// Writes of synced entities log their changes for sync in the same transaction, as SQLite's do
/// (``syncedWrite(at:_:)``, `PostgresPersonStore+Sync.swift`).
public struct PostgresPersonStore: Sendable {
    public let store: PostgresStore
    public let personID: Person.ID

    static let recordColumns =
        "id, kind, start_ms, end_ms, counted_seconds, energy_kilocalories, details, device, created_at_ms, updated_at_ms"

    // MARK: Settings

    /// Every stored setting, key → JSON text.
    public func settingValues() async throws(StoreError) -> [String: String] {
        try await store.read { session throws(StoreError) in try await Self.settingValues(in: session, for: personID) }
    }

    static func settingValues(in session: PostgresSession, for personID: Person.ID) async throws(StoreError)
        -> [String: String]
    {
        var values: [String: String] = [:]
        for row in try await session.query("SELECT key, value FROM setting WHERE person_id = \(personID)") {
            let (key, value) = try row.columns((String, String).self)
            values[key] = value
        }
        return values
    }

    /// Stores the given settings in one transaction (keys not given are left as they are) and logs
    /// each synced setting whose text changed.
    public func saveSettingValues(_ values: [String: String], at now: Date) async throws(StoreError) {
        try await syncedWrite(at: now) { session, replica throws(StoreError) in
            let stored = try await Self.settingValues(in: session, for: personID)
            try await Self.saveSettings(values, in: session, for: personID, at: now)
            try await replica.recordLocal(
                sets: LocalSyncChanges.settings(from: stored, to: stored.merging(values) { $1 }), deletes: [], at: now)
        }
    }

    static func saveSettings(
        _ values: [String: String], in session: PostgresSession, for personID: Person.ID, at now: Date
    )
        async
        throws(StoreError)
    {
        guard !values.isEmpty else { return }
        let keys = Array(values.keys)
        let texts = keys.map { values[$0] ?? "" }
        try await session.execute(
            """
            INSERT INTO setting (person_id, key, value, updated_at_ms)
            SELECT \(personID), key, value, \(now.millisecondsSince1970) FROM unnest(\(keys)::text[], \(texts)::text[]) AS given(key, value)
            ON CONFLICT (person_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at_ms = EXCLUDED.updated_at_ms
            """)
        session.movesRevision()
    }

    // MARK: Practice log

    /// Adds a record, or replaces the one with the same id (keeping when it was first created),
    /// and logs the fields that differ from the stored record.
    public func savePracticeRecord(_ record: PracticeRecord, at now: Date) async throws(StoreError) {
        try await syncedWrite(at: now) { session, replica throws(StoreError) in
            // A stored row that no longer reads counts as absent: every field of the saved one is logged.
            let existing: LoggedRecord?
            do throws(StoreError) {
                existing = try await Self.loggedRecord(
                    id: record.id.uuidString.lowercased(), in: session, for: personID)
            } catch {
                guard case .corruptRow = error else { throw error }
                existing = nil
            }
            try await session.execute(
                Self.insert([LoggedRecord(record: record, createdAt: now, updatedAt: now)], for: personID, upsert: true)
            )
            session.movesRevision()
            let (key, fields) = LocalSyncChanges.record(record)
            let changed = LocalSyncChanges.changedFields(fields, from: existing?.record.syncFields)
            try await replica.recordLocal(sets: [(key, changed)], deletes: [], at: now)
        }
    }

    /// Records matching `query`, oldest first.
    public func practiceRecords(matching query: PracticeLogQuery = PracticeLogQuery()) async throws(StoreError)
        -> [PracticeRecord]
    {
        var binds = PostgresBindings()
        binds.append(personID)
        var sql = "SELECT \(Self.recordColumns) FROM practice_record WHERE person_id = $1"
        if let kind = query.kind {
            binds.append(kind.rawValue)
            sql += " AND kind = $\(binds.count)"
        }
        if let since = query.since {
            binds.append(since.millisecondsSince1970)
            sql += " AND start_ms >= $\(binds.count)"
        }
        if let until = query.until {
            binds.append(until.millisecondsSince1970)
            sql += " AND start_ms < $\(binds.count)"
        }
        sql += " ORDER BY start_ms, id"
        let rows = try await store.read { session throws(StoreError) in
            try await session.query(PostgresQuery(unsafeSQL: sql, binds: binds))
        }
        var records: [PracticeRecord] = []
        records.reserveCapacity(rows.count)
        for row in rows { records.append(try Self.logged(row).record) }
        return records
    }

    /// Every record with when it was written and changed, oldest first: what exports write.
    public func loggedRecords() async throws(StoreError) -> [LoggedRecord] {
        try await store.read { session throws(StoreError) in try await Self.loggedRecords(in: session, for: personID) }
    }

    static func loggedRecords(in session: PostgresSession, for personID: Person.ID) async throws(StoreError)
        -> [LoggedRecord]
    {
        let rows = try await session.query(
            PostgresQuery(
                unsafeSQL: "SELECT \(recordColumns) FROM practice_record WHERE person_id = $1 ORDER BY start_ms, id",
                binds: binds(personID)))
        var records: [LoggedRecord] = []
        records.reserveCapacity(rows.count)
        for row in rows { records.append(try logged(row)) }
        return records
    }

    /// The stored record with `id`, or `nil`.
    static func loggedRecord(id: String, in session: PostgresSession, for personID: Person.ID) async throws(StoreError)
        -> LoggedRecord?
    {
        var binds = binds(personID)
        binds.append(id)
        let rows = try await session.query(
            PostgresQuery(
                unsafeSQL: "SELECT \(recordColumns) FROM practice_record WHERE person_id = $1 AND id = $2",
                binds: binds))
        return try rows.first.map { row throws(StoreError) in try logged(row) }
    }

    /// Adds imported records and (for a backup) replaces settings, in one transaction: everything
    /// or, if anything fails (a record already there, say), nothing. Logs every imported record
    /// and the settings whose synced text changed.
    public func importLog(_ records: [LoggedRecord], settingValues: [String: String], at now: Date)
        async
        throws(StoreError)
    {
        try await syncedWrite(at: now) { session, replica throws(StoreError) in
            let stored = try await Self.settingValues(in: session, for: personID)
            // 11 parameters a row; PostgreSQL takes at most 65535 in one statement.
            var start = records.startIndex
            while start < records.endIndex {
                let end = min(start + 1000, records.endIndex)
                try await session.execute(Self.insert(Array(records[start..<end]), for: personID, upsert: false))
                session.movesRevision()
                start = end
            }
            try await Self.saveSettings(settingValues, in: session, for: personID, at: now)
            try await replica.recordLocal(
                sets: records.map { LocalSyncChanges.record($0.record) }
                    + LocalSyncChanges.settings(from: stored, to: stored.merging(settingValues) { $1 }),
                deletes: [], at: now)
        }
    }

    /// Every record's kind, start and counted seconds: the input of days, streaks and statistics.
    public func practiceEntries() async throws(StoreError) -> [PracticeEntry] {
        let rows = try await store.read { session throws(StoreError) in
            try await session.query(
                "SELECT kind, start_ms, counted_seconds FROM practice_record WHERE person_id = \(personID)")
        }
        var entries: [PracticeEntry] = []
        entries.reserveCapacity(rows.count)
        for row in rows {
            let (kindName, startMs, counted) = try row.columns((String, Int64, Int).self)
            guard let kind = PracticeKind(rawValue: kindName) else {
                throw StoreError.corruptRow(table: "practice_record", id: "?", reason: "unknown kind \(kindName)")
            }
            entries.append(
                PracticeEntry(kind: kind, start: Date(millisecondsSince1970: startMs), countedSeconds: counted))
        }
        return entries
    }

    /// A number that changes whenever this person's records or settings are written, by any server:
    /// kept between reads while no server announced a change of it (``RevisionCache``).
    public func logRevision() async throws(StoreError) -> Int64 {
        try await store.revisions.revision(of: personID, in: store, read: readLogRevision)
    }

    private func readLogRevision() async throws(StoreError) -> Int64 {
        try await store.read { session throws(StoreError) in
            let rows = try await session.query("SELECT value FROM store_revision WHERE person_id = \(personID)")
            guard let row = rows.first else { return 0 }
            return try row.columns(Int64.self)
        }
    }

    /// Deletes the record with `id`; returns whether there was one.
    @discardableResult
    public func deletePracticeRecord(id: UUID, at now: Date) async throws(StoreError) -> Bool {
        let id = id.uuidString.lowercased()
        return try await syncedWrite(at: now) { session, replica throws(StoreError) in
            guard
                try await session.execute("DELETE FROM practice_record WHERE person_id = \(personID) AND id = \(id)")
                    > 0
            else { return false }
            session.movesRevision()
            try await replica.recordLocal(sets: [], deletes: [SyncEntityKey(type: .practiceRecord, id: id)], at: now)
            return true
        }
    }

    // MARK: Rows

    static func binds(_ values: Int64...) -> PostgresBindings {
        var binds = PostgresBindings()
        for value in values { binds.append(value) }
        return binds
    }

    /// One INSERT of many records; `upsert` replaces a record with the same id but keeps when it was
    /// first created, otherwise such a record fails the statement.
    static func insert(_ records: [LoggedRecord], for personID: Person.ID, upsert: Bool) -> PostgresQuery {
        var binds = PostgresBindings(capacity: records.count * 11)
        var rows: [String] = []
        rows.reserveCapacity(records.count)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for logged in records {
            let record = logged.record
            let first = binds.count + 1
            binds.append(personID)
            binds.append(record.id.uuidString.lowercased())
            binds.append(record.kind.rawValue)
            binds.append(record.start.millisecondsSince1970)
            binds.append(record.end.millisecondsSince1970)
            binds.append(Int64(record.countedSeconds))
            binds.append(record.energyKilocalories)
            // try?: encoding texts cannot fail (JSONEncoder throws only for non-finite numbers); details are texts
            binds.append((try? encoder.encode(record.details)).map { String(decoding: $0, as: UTF8.self) } ?? "{}")
            binds.append(record.device)
            binds.append(logged.createdAt.millisecondsSince1970)
            binds.append(logged.updatedAt.millisecondsSince1970)
            rows.append("(" + (first..<first + 11).map { "$\($0)" }.joined(separator: ", ") + ")")
        }
        var sql = """
            INSERT INTO practice_record (person_id, \(recordColumns))
            VALUES \(rows.joined(separator: ", "))
            """
        if upsert {
            sql += """

                ON CONFLICT (person_id, id) DO UPDATE SET kind = EXCLUDED.kind, start_ms = EXCLUDED.start_ms,
                    end_ms = EXCLUDED.end_ms, counted_seconds = EXCLUDED.counted_seconds,
                    energy_kilocalories = EXCLUDED.energy_kilocalories, details = EXCLUDED.details,
                    device = EXCLUDED.device, updated_at_ms = EXCLUDED.updated_at_ms
                """
        }
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    /// A stored row as a record, checked as the core checks every record.
    static func logged(_ row: PostgresRow) throws(StoreError) -> LoggedRecord {
        let (id, kindName, startMs, endMs, counted, energy, detailsJSON, device, createdMs, updatedMs) =
            try row.columns((String, String, Int64, Int64, Int, Double?, String, String, Int64, Int64).self)
        func corrupt(_ reason: String) -> StoreError { .corruptRow(table: "practice_record", id: id, reason: reason) }
        guard let uuid = UUID(uuidString: id) else { throw corrupt("id is not a UUID") }
        guard let kind = PracticeKind(rawValue: kindName) else { throw corrupt("unknown kind \(kindName)") }
        // try?: details that do not read are thrown as a corrupt row just below
        guard let details = try? JSONDecoder().decode([String: String].self, from: Data(detailsJSON.utf8)) else {
            throw corrupt("details are not a JSON object of strings")
        }
        do {
            let record = try PracticeRecord(
                id: uuid, kind: kind, start: Date(millisecondsSince1970: startMs),
                end: Date(millisecondsSince1970: endMs), countedSeconds: counted, energyKilocalories: energy,
                details: details, device: device)
            return LoggedRecord(
                record: record, createdAt: Date(millisecondsSince1970: createdMs),
                updatedAt: Date(millisecondsSince1970: updatedMs))
        } catch {
            throw corrupt("\(error)")
        }
    }
}

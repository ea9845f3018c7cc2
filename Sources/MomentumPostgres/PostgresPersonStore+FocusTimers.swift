import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

/// One person's focus timers and their checklists on PostgreSQL, as SQLite keeps them in
/// `focusTimer` and `checklistItem` (`MomentumDatabase+FocusTimers.swift`).
extension PostgresPersonStore {
    /// Every focus timer with its checklist, in their order (one statement: one snapshot).
    public func focusTimers() async throws(StoreError) -> [FocusTimer] {
        try await store.read { session throws(StoreError) in try await Self.focusTimers(in: session, for: personID) }
    }

    /// Reads the timers, lets `change` decide what to write from them, and writes it, all in one
    /// transaction that first locks the person's row of `focus_timer_lock`: a second change, on
    /// this server or another, waits until this one has committed and then reads what it wrote,
    /// so a completion is logged once. Whatever `change` throws (or a saved timer's check) is
    /// rethrown and nothing is written.
    @discardableResult
    public func changeFocusTimers<Result: Sendable>(
        at now: Date, _ change: ([FocusTimer]) throws -> (FocusTimerChanges, Result)
    ) async throws -> Result {
        var refusal: (any Error)?
        do {
            // The replica's row first (every transaction that logs takes it first), then the timers'.
            return try await syncedWrite(at: now) { session, replica throws(StoreError) in
                try await Self.lockFocusTimers(in: session, for: personID)
                let timers = try await Self.focusTimers(in: session, for: personID)
                let changes: FocusTimerChanges
                let result: Result
                do {
                    (changes, result) = try change(timers)
                    for timer in changes.saved { try timer.validate() }
                } catch let error as StoreError {
                    throw error
                } catch {
                    refusal = error
                    throw StoreError.database(message: "focus timer change refused")
                }
                try await Self.write(changes, in: session, for: personID, at: now)
                let (sets, deletes) = LocalSyncChanges.focusTimers(
                    before: timers, saved: changes.saved, deleted: changes.deleted, records: changes.records)
                try await replica.recordLocal(sets: sets, deletes: deletes, at: now)
                return result
            }
        } catch {
            if let refusal { throw refusal }
            throw error
        }
    }

    static func lockFocusTimers(in session: PostgresSession, for personID: Person.ID) async throws(StoreError) {
        try await session.execute(
            "INSERT INTO focus_timer_lock (person_id) VALUES (\(personID)) ON CONFLICT (person_id) DO NOTHING")
        try await session.execute("SELECT person_id FROM focus_timer_lock WHERE person_id = \(personID) FOR UPDATE")
    }

    static func write(_ changes: FocusTimerChanges, in session: PostgresSession, for personID: Person.ID, at now: Date)
        async
        throws(StoreError)
    {
        if !changes.deleted.isEmpty {
            // Their items go with them (ON DELETE CASCADE).
            let ids = changes.deleted.map { $0.uuidString.lowercased() }
            try await session.execute(
                "DELETE FROM focus_timer WHERE person_id = \(personID) AND id = ANY(\(ids)::text[])")
        }
        for timer in changes.saved {
            try await session.execute(upsert(timer, for: personID))
            let timerID = timer.id.uuidString.lowercased()
            let kept = timer.items.map { $0.id.uuidString.lowercased() }
            try await session.execute(
                """
                DELETE FROM checklist_item
                WHERE person_id = \(personID) AND timer_id = \(timerID) AND NOT (id = ANY(\(kept)::text[]))
                """)
            guard !timer.items.isEmpty else { continue }
            let items = timer.items
            try await session.execute(
                """
                INSERT INTO checklist_item (person_id, id, timer_id, text, done, sort_order, created_at_ms, updated_at_ms)
                SELECT \(personID), given.id, \(timerID), given.text, given.done, given.sort_order, given.created_at_ms,
                    given.updated_at_ms
                FROM unnest(\(kept)::text[], \(items.map(\.text))::text[], \(items.map(\.done))::boolean[],
                    \(items.map { Int64($0.sortOrder) })::bigint[],
                    \(items.map(\.createdAt.millisecondsSince1970))::bigint[],
                    \(items.map(\.updatedAt.millisecondsSince1970))::bigint[])
                    WITH ORDINALITY AS given(id, text, done, sort_order, created_at_ms, updated_at_ms, n)
                ORDER BY given.n
                ON CONFLICT (person_id, id) DO UPDATE SET timer_id = EXCLUDED.timer_id, text = EXCLUDED.text,
                    done = EXCLUDED.done, sort_order = EXCLUDED.sort_order, created_at_ms = EXCLUDED.created_at_ms,
                    updated_at_ms = EXCLUDED.updated_at_ms
                """)
        }
        if !changes.records.isEmpty {
            let logged = changes.records.map { LoggedRecord(record: $0, createdAt: now, updatedAt: now) }
            try await session.execute(insert(logged, for: personID, upsert: false))
            session.movesRevision()
        }
    }

    /// Adds a timer or replaces every column of the one with the same id (its place stays).
    static func upsert(_ timer: FocusTimer, for personID: Person.ID) -> PostgresQuery {
        let run = FocusRunColumns(timer.run)
        return """
            INSERT INTO focus_timer (person_id, \(unescaped: timerColumns))
            VALUES (\(personID), \(timer.id.uuidString.lowercased()), \(timer.name), \(timer.duration.wholeMilliseconds),
                \(timer.icon), \(timer.color), \(timer.notes), \(Int64(timer.sortOrder)),
                \(timer.createdAt.millisecondsSince1970), \(timer.updatedAt.millisecondsSince1970),
                \(run.state), \(run.startedAtMs), \(run.resumedAtMs), \(run.pausedAtMs), \(run.completedAtMs),
                \(run.elapsedMs))
            ON CONFLICT (person_id, id) DO UPDATE SET name = EXCLUDED.name, duration_ms = EXCLUDED.duration_ms,
                icon = EXCLUDED.icon, color = EXCLUDED.color, notes = EXCLUDED.notes, sort_order = EXCLUDED.sort_order,
                created_at_ms = EXCLUDED.created_at_ms, updated_at_ms = EXCLUDED.updated_at_ms,
                run_state = EXCLUDED.run_state, started_at_ms = EXCLUDED.started_at_ms,
                resumed_at_ms = EXCLUDED.resumed_at_ms, paused_at_ms = EXCLUDED.paused_at_ms,
                completed_at_ms = EXCLUDED.completed_at_ms, elapsed_ms = EXCLUDED.elapsed_ms
            """
    }

    static let timerColumns =
        "id, name, duration_ms, icon, color, notes, sort_order, created_at_ms, updated_at_ms, run_state, started_at_ms, resumed_at_ms, paused_at_ms, completed_at_ms, elapsed_ms"

    /// The person's timers with their items: one statement, so timers and items are of one moment.
    static func focusTimers(in session: PostgresSession, for personID: Person.ID) async throws(StoreError)
        -> [FocusTimer]
    {
        let rows = try await session.query(
            """
            SELECT t.id, t.name, t.duration_ms, t.icon, t.color, t.notes, t.sort_order, t.created_at_ms,
                t.updated_at_ms, t.run_state, t.started_at_ms, t.resumed_at_ms, t.paused_at_ms, t.completed_at_ms,
                t.elapsed_ms, i.id, i.text, i.done, i.sort_order, i.created_at_ms, i.updated_at_ms
            FROM focus_timer t
            LEFT JOIN checklist_item i ON i.person_id = t.person_id AND i.timer_id = t.id
            WHERE t.person_id = \(personID)
            ORDER BY t.sort_order, t.position, i.sort_order, i.position
            """)
        var timers: [FocusTimer] = []
        var current: (id: String, cells: PostgresRandomAccessRow, items: [ChecklistItem])?
        for row in rows {
            let cells = row.makeRandomAccess()
            let id: String = try cells.value(0)
            if current?.id != id {
                if let done = current { timers.append(try timer(done.cells, items: done.items)) }
                current = (id, cells, [])
            }
            // NULL: a timer without items (the join found none).
            let itemID: String? = try cells.value(15)
            if let itemID { current?.items.append(try item(cells, id: itemID)) }
        }
        if let done = current { timers.append(try timer(done.cells, items: done.items)) }
        return timers
    }

    /// A stored timer, checked as the core checks every timer.
    static func timer(_ cells: PostgresRandomAccessRow, items: [ChecklistItem]) throws(StoreError) -> FocusTimer {
        let id: String = try cells.value(0)
        func corrupt(_ reason: String) -> StoreError { .corruptRow(table: "focus_timer", id: id, reason: reason) }
        guard let uuid = UUID(uuidString: id) else { throw corrupt("id is not a UUID") }
        let state: String = try cells.value(9)
        let run = FocusRunColumns(
            state: state, startedAtMs: try cells.value(10), resumedAtMs: try cells.value(11),
            pausedAtMs: try cells.value(12), completedAtMs: try cells.value(13), elapsedMs: try cells.value(14)
        ).run
        guard let run else { throw corrupt("run state \(state) lacks its instants") }
        let durationMs: Int64 = try cells.value(2)
        let sortOrder: Int = try cells.value(6)
        let createdMs: Int64 = try cells.value(7)
        let updatedMs: Int64 = try cells.value(8)
        do {
            return try FocusTimer(
                id: uuid, name: try cells.value(1), duration: .milliseconds(durationMs), icon: try cells.value(3),
                color: try cells.value(4), notes: try cells.value(5), sortOrder: sortOrder,
                createdAt: Date(millisecondsSince1970: createdMs), updatedAt: Date(millisecondsSince1970: updatedMs),
                items: items, run: run)
        } catch {
            throw corrupt("\(error)")
        }
    }

    /// A stored checklist item (columns 15 to 20 of the timers' statement).
    static func item(_ cells: PostgresRandomAccessRow, id: String) throws(StoreError) -> ChecklistItem {
        guard let uuid = UUID(uuidString: id) else {
            throw .corruptRow(table: "checklist_item", id: id, reason: "id is not a UUID")
        }
        let text: String = try cells.value(16)
        let done: Bool = try cells.value(17)
        let sortOrder: Int = try cells.value(18)
        let createdMs: Int64 = try cells.value(19)
        let updatedMs: Int64 = try cells.value(20)
        do {
            return try ChecklistItem(
                id: uuid, text: text, done: done, sortOrder: sortOrder,
                createdAt: Date(millisecondsSince1970: createdMs), updatedAt: Date(millisecondsSince1970: updatedMs))
        } catch {
            throw .corruptRow(table: "checklist_item", id: id, reason: "\(error)")
        }
    }
}

extension PostgresRandomAccessRow {
    /// The column at `index` as `T`; a column that does not decode is reported like any database
    /// failure (as ``PostgresNIO/PostgresRow/columns(_:)``).
    func value<T: PostgresDecodable>(_ index: Int, as type: T.Type = T.self) throws(StoreError) -> T {
        do {
            return try self[index].decode(T.self)
        } catch {
            throw .database(message: "PostgreSQL column \(index) did not decode: \(String(describing: type))")
        }
    }
}

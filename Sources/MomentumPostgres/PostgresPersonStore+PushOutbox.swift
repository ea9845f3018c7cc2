import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

/// One person's push outbox on PostgreSQL, as SQLite keeps it (`MomentumDatabase+PushOutbox.swift`).
/// Several servers send from one database: a claim locks the due rows it takes and skips those
/// another server is claiming (`FOR UPDATE SKIP LOCKED`), and holds them for a lease, so each
/// row is sent by exactly one server; a server that dies holding rows lets them go when the lease ends.
extension PostgresPersonStore {
    private static let outboxColumns = """
        id, reminder_id, occurrence_id, due_at_ms, subscription_id, useful_until_ms, state, attempts,
        next_attempt_at_ms, finished_at_ms, outcome
        """

    @discardableResult
    public func enqueuePushes(_ entries: [PushOutboxEntry]) async throws(StoreError) -> Int {
        guard !entries.isEmpty else { return 0 }
        return try await store.write { session throws(StoreError) in
            var added = 0
            for e in entries {
                added += try await session.execute(
                    """
                    INSERT INTO push_outbox (person_id, id, reminder_id, occurrence_id, due_at_ms, subscription_id,
                        useful_until_ms, state, attempts, next_attempt_at_ms, finished_at_ms, outcome)
                    VALUES (\(personID), \(e.id.uuidString.lowercased()), \(e.reminderID), \(e.occurrenceID),
                        \(e.dueAt.millisecondsSince1970), \(e.subscriptionID.uuidString.lowercased()),
                        \(e.usefulUntil.millisecondsSince1970), \(e.state.rawValue), \(Int64(e.attempts)),
                        \(e.nextAttemptAt.millisecondsSince1970), \(e.finishedAt?.millisecondsSince1970), \(e.outcome))
                    ON CONFLICT (person_id, reminder_id, due_at_ms, subscription_id) DO NOTHING
                    """)
            }
            return added
        }
    }

    public func claimDuePushes(at now: Date, lease: Duration, limit: Int) async throws(StoreError)
        -> [PushOutboxEntry]
    {
        let nowMs = now.millisecondsSince1970
        let until = now.addingTimeInterval(lease.inSeconds).millisecondsSince1970
        // Asked every second by every server: a read first, so a round with nothing due writes nothing.
        let anyDue = try await store.read { session throws(StoreError) in
            try await !session.query(
                """
                SELECT 1 FROM push_outbox
                WHERE person_id = \(personID) AND state = 'pending' AND next_attempt_at_ms <= \(nowMs)
                    AND (claimed_until_ms IS NULL OR claimed_until_ms <= \(nowMs))
                LIMIT 1
                """
            ).isEmpty
        }
        guard anyDue else { return [] }
        let rows = try await store.write { session throws(StoreError) in
            try await session.query(
                PostgresQuery(
                    unsafeSQL: """
                        UPDATE push_outbox SET claimed_until_ms = $1
                        WHERE person_id = $2 AND id IN (
                            SELECT id FROM push_outbox
                            WHERE person_id = $2 AND state = 'pending' AND next_attempt_at_ms <= $3
                                AND (claimed_until_ms IS NULL OR claimed_until_ms <= $3)
                            ORDER BY next_attempt_at_ms, position LIMIT $4
                            FOR UPDATE SKIP LOCKED)
                        RETURNING \(Self.outboxColumns)
                        """,
                    binds: Self.outboxBinds(until, personID, nowMs, Int64(max(limit, 0)))))
        }
        var entries: [PushOutboxEntry] = []
        for row in rows { entries.append(try Self.outboxEntry(row)) }
        return entries.sorted { ($0.nextAttemptAt, $0.dueAt) < ($1.nextAttemptAt, $1.dueAt) }
    }

    public func settlePush(id: UUID, _ settlement: PushSettlement, at now: Date) async throws(StoreError) {
        let idText = id.uuidString.lowercased()
        let nowMs = now.millisecondsSince1970
        let plan = PushSettlementPlan(settlement)
        try await store.write { session throws(StoreError) in
            let found = try await session.query(
                """
                UPDATE push_outbox SET state = \(plan.state.rawValue), attempts = attempts + 1,
                    next_attempt_at_ms = COALESCE(\(plan.retryAt?.millisecondsSince1970), next_attempt_at_ms),
                    claimed_until_ms = NULL, finished_at_ms = \(plan.state == .pending ? nil : nowMs),
                    outcome = \(plan.outcome)
                WHERE person_id = \(personID) AND id = \(idText)
                RETURNING subscription_id
                """)
            guard let row = found.first else { return }
            let subscription = try row.columns(String.self)
            switch plan.subscription {
            case .delivered:
                try await session.execute(
                    """
                    UPDATE push_subscription SET last_delivered_at_ms = \(nowMs)
                    WHERE person_id = \(personID) AND id = \(subscription)
                    """)
            case .failed(let failure):
                try await session.execute(
                    """
                    UPDATE push_subscription SET last_failure_at_ms = \(nowMs), last_failure = \(failure)
                    WHERE person_id = \(personID) AND id = \(subscription)
                    """)
            case .gone:
                try await session.execute(
                    "DELETE FROM push_subscription WHERE person_id = \(personID) AND id = \(subscription)")
                try await session.execute(
                    """
                    UPDATE push_outbox SET state = 'dropped', claimed_until_ms = NULL, finished_at_ms = \(nowMs),
                        outcome = \(PushSettlementPlan.goneOutcome)
                    WHERE person_id = \(personID) AND subscription_id = \(subscription) AND state = 'pending'
                    """)
            case .untouched:
                break
            }
        }
    }

    public func sentPushOccurrences(since: Date) async throws(StoreError) -> Set<String> {
        let rows = try await store.read { session throws(StoreError) in
            try await session.query(
                """
                SELECT DISTINCT occurrence_id FROM push_outbox
                WHERE person_id = \(personID) AND state = 'sent' AND finished_at_ms >= \(since.millisecondsSince1970)
                """)
        }
        var occurrences: Set<String> = []
        for row in rows { occurrences.insert(try row.columns(String.self)) }
        return occurrences
    }

    public func pushOutbox() async throws(StoreError) -> [PushOutboxEntry] {
        let rows = try await store.read { session throws(StoreError) in
            try await session.query(
                PostgresQuery(
                    unsafeSQL:
                        "SELECT \(Self.outboxColumns) FROM push_outbox WHERE person_id = $1 ORDER BY due_at_ms, position",
                    binds: Self.outboxBinds(personID)))
        }
        var entries: [PushOutboxEntry] = []
        for row in rows { entries.append(try Self.outboxEntry(row)) }
        return entries
    }

    public func prunePushOutbox(finishedBefore before: Date) async throws(StoreError) {
        try await store.read { session throws(StoreError) in
            try await session.execute(
                """
                DELETE FROM push_outbox
                WHERE person_id = \(personID) AND state <> 'pending' AND finished_at_ms < \(before.millisecondsSince1970)
                """)
        }
    }

    private static func outboxBinds(_ values: Int64...) -> PostgresBindings {
        var binds = PostgresBindings()
        for value in values { binds.append(value) }
        return binds
    }

    private static func outboxEntry(_ row: PostgresRow) throws(StoreError) -> PushOutboxEntry {
        let (
            idText, reminderID, occurrenceID, due, subscriptionText, usefulUntil, stateText, attempts, next, finished,
            outcome
        ) =
            try row.columns((String, String, String, Int64, String, Int64, String, Int64, Int64, Int64?, String?).self)
        guard let id = UUID(uuidString: idText), let subscription = UUID(uuidString: subscriptionText),
            let state = PushOutboxEntry.State(rawValue: stateText)
        else {
            throw .corruptRow(table: "push_outbox", id: idText, reason: "id, subscription or state does not read")
        }
        var entry = PushOutboxEntry(
            id: id, reminderID: reminderID, occurrenceID: occurrenceID, dueAt: Date(millisecondsSince1970: due),
            subscriptionID: subscription, usefulUntil: Date(millisecondsSince1970: usefulUntil))
        entry.state = state
        entry.attempts = Int(attempts)
        entry.nextAttemptAt = Date(millisecondsSince1970: next)
        entry.finishedAt = finished.map(Date.init(millisecondsSince1970:))
        entry.outcome = outcome
        return entry
    }
}

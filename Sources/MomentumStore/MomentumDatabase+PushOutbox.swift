import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

/// The person's push outbox (docs/notifications.md), in their own database. One server sends
/// from an SQLite household, so a claim is a write transaction that marks the rows held.
extension MomentumDatabase {
    private static let outboxColumns = """
        id, reminderID, occurrenceID, dueAtMs, subscriptionID, usefulUntilMs, state, attempts, nextAttemptAtMs,
        finishedAtMs, outcome
        """

    @discardableResult
    public func enqueuePushes(_ entries: [PushOutboxEntry]) throws(StoreError) -> Int {
        try write { db in
            var added = 0
            for entry in entries {
                try db.execute(
                    sql: """
                        INSERT INTO pushOutbox (\(Self.outboxColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (reminderID, dueAtMs, subscriptionID) DO NOTHING
                        """,
                    arguments: [
                        entry.id.uuidString.lowercased(), entry.reminderID, entry.occurrenceID,
                        entry.dueAt.millisecondsSince1970, entry.subscriptionID.uuidString.lowercased(),
                        entry.usefulUntil.millisecondsSince1970, entry.state.rawValue, entry.attempts,
                        entry.nextAttemptAt.millisecondsSince1970, entry.finishedAt?.millisecondsSince1970,
                        entry.outcome,
                    ])
                added += db.changesCount
            }
            return added
        }
    }

    public func claimDuePushes(at now: Date, lease: Duration, limit: Int) throws(StoreError) -> [PushOutboxEntry] {
        let nowMs = now.millisecondsSince1970
        // Asked every second: a read first, so a round with nothing due takes no write lock.
        let anyDue = try read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM pushOutbox WHERE state = 'pending' AND nextAttemptAtMs <= ?
                        AND (claimedUntilMs IS NULL OR claimedUntilMs <= ?))
                    """,
                arguments: [nowMs, nowMs]) ?? false
        }
        guard anyDue else { return [] }
        let rows = try write { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.outboxColumns) FROM pushOutbox
                    WHERE state = 'pending' AND nextAttemptAtMs <= ? AND (claimedUntilMs IS NULL OR claimedUntilMs <= ?)
                    ORDER BY nextAttemptAtMs, rowid LIMIT ?
                    """,
                arguments: [nowMs, nowMs, max(limit, 0)])
            let until = now.addingTimeInterval(lease.inSeconds).millisecondsSince1970
            for row in rows {
                try db.execute(
                    sql: "UPDATE pushOutbox SET claimedUntilMs = ? WHERE id = ?",
                    arguments: [until, row["id"] as String])
            }
            return rows
        }
        var entries: [PushOutboxEntry] = []
        for row in rows { entries.append(try Self.outboxEntry(row)) }
        return entries
    }

    public func settlePush(id: UUID, _ settlement: PushSettlement, at now: Date) throws(StoreError) {
        let idText = id.uuidString.lowercased()
        let nowMs = now.millisecondsSince1970
        try write { db in
            guard
                let subscription = try String.fetchOne(
                    db, sql: "SELECT subscriptionID FROM pushOutbox WHERE id = ?", arguments: [idText])
            else { return }
            let plan = PushSettlementPlan(settlement)
            try db.execute(
                sql: """
                    UPDATE pushOutbox SET state = ?, attempts = attempts + 1, nextAttemptAtMs = COALESCE(?, nextAttemptAtMs),
                        claimedUntilMs = NULL, finishedAtMs = ?, outcome = ?
                    WHERE id = ?
                    """,
                arguments: [
                    plan.state.rawValue, plan.retryAt?.millisecondsSince1970,
                    plan.state == .pending ? nil : nowMs, plan.outcome, idText,
                ])
            switch plan.subscription {
            case .delivered:
                try db.execute(
                    sql: "UPDATE pushSubscription SET lastDeliveredAtMs = ? WHERE id = ?",
                    arguments: [nowMs, subscription])
            case .failed(let failure):
                try db.execute(
                    sql: "UPDATE pushSubscription SET lastFailureAtMs = ?, lastFailure = ? WHERE id = ?",
                    arguments: [nowMs, failure, subscription])
            case .gone:
                try db.execute(sql: "DELETE FROM pushSubscription WHERE id = ?", arguments: [subscription])
                try db.execute(
                    sql: """
                        UPDATE pushOutbox SET state = 'dropped', claimedUntilMs = NULL, finishedAtMs = ?, outcome = ?
                        WHERE subscriptionID = ? AND state = 'pending'
                        """,
                    arguments: [nowMs, PushSettlementPlan.goneOutcome, subscription])
            case .untouched:
                break
            }
        }
    }

    public func sentPushOccurrences(since: Date) throws(StoreError) -> Set<String> {
        try read { db in
            Set(
                try String.fetchAll(
                    db, sql: "SELECT DISTINCT occurrenceID FROM pushOutbox WHERE state = 'sent' AND finishedAtMs >= ?",
                    arguments: [since.millisecondsSince1970]))
        }
    }

    public func pushOutbox() throws(StoreError) -> [PushOutboxEntry] {
        let rows = try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.outboxColumns) FROM pushOutbox ORDER BY dueAtMs, rowid")
        }
        var entries: [PushOutboxEntry] = []
        for row in rows { entries.append(try Self.outboxEntry(row)) }
        return entries
    }

    public func prunePushOutbox(finishedBefore before: Date) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "DELETE FROM pushOutbox WHERE state <> 'pending' AND finishedAtMs < ?",
                arguments: [before.millisecondsSince1970])
        }
    }

    private static func outboxEntry(_ row: Row) throws(StoreError) -> PushOutboxEntry {
        let idText: String = row["id"]
        let subscriptionText: String = row["subscriptionID"]
        let stateText: String = row["state"]
        guard let id = UUID(uuidString: idText), let subscription = UUID(uuidString: subscriptionText),
            let state = PushOutboxEntry.State(rawValue: stateText)
        else {
            throw .corruptRow(table: "pushOutbox", id: idText, reason: "id, subscription or state does not read")
        }
        var entry = PushOutboxEntry(
            id: id, reminderID: row["reminderID"], occurrenceID: row["occurrenceID"],
            dueAt: Date(millisecondsSince1970: row["dueAtMs"]), subscriptionID: subscription,
            usefulUntil: Date(millisecondsSince1970: row["usefulUntilMs"]))
        entry.state = state
        entry.attempts = row["attempts"]
        entry.nextAttemptAt = Date(millisecondsSince1970: row["nextAttemptAtMs"])
        entry.finishedAt = (row["finishedAtMs"] as Int64?).map(Date.init(millisecondsSince1970:))
        entry.outcome = row["outcome"]
        return entry
    }
}

import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

/// One person's Morse training sessions and QSO contacts in progress on PostgreSQL
/// (`morse_exchange`, schema v10): each one's stored form as JSON text, written and read by the
/// server, so that a session started through one server is answered through another
/// (docs/postgres.md). `kind` keeps the two apart (`training`, `qso`).
extension PostgresPersonStore {
    /// Writes a new exchange of `kind`, after deleting those of the same kind idle since before
    /// `idleBeforeMs` (since 1970): its stored form and the instant of its last request.
    public func insertMorseExchange(
        id: UUID, kind: String, state: String, lastActivityMs: Int64, forgettingIdleBefore idleBeforeMs: Int64
    ) async throws(StoreError) {
        let key = id.uuidString.lowercased()
        try await store.write { session throws(StoreError) in
            try await session.execute(
                """
                DELETE FROM morse_exchange
                WHERE person_id = \(personID) AND kind = \(kind) AND last_activity_ms < \(idleBeforeMs)
                """)
            try await session.execute(
                """
                INSERT INTO morse_exchange (person_id, id, kind, state, last_activity_ms)
                VALUES (\(personID), \(key), \(kind), \(state), \(lastActivityMs))
                ON CONFLICT (person_id, id) DO UPDATE SET
                    kind = EXCLUDED.kind, state = EXCLUDED.state, last_activity_ms = EXCLUDED.last_activity_ms
                """)
        }
    }

    /// The stored form of the exchange `id` of `kind`, nil when there is none.
    public func morseExchange(id: UUID, kind: String) async throws(StoreError) -> String? {
        let key = id.uuidString.lowercased()
        return try await store.read { session throws(StoreError) -> String? in
            let rows = try await session.query(
                "SELECT state FROM morse_exchange WHERE person_id = \(personID) AND id = \(key) AND kind = \(kind)")
            guard let row = rows.first else { return nil }
            return try row.columns(String.self)
        }
    }

    /// Deletes the exchange `id` of `kind`; nothing when there is none.
    public func deleteMorseExchange(id: UUID, kind: String) async throws(StoreError) {
        let key = id.uuidString.lowercased()
        try await store.write { session throws(StoreError) in
            try await session.execute(
                "DELETE FROM morse_exchange WHERE person_id = \(personID) AND id = \(key) AND kind = \(kind)")
        }
    }

    /// Changes the exchange `id` of `kind` in one transaction that holds its row (`SELECT … FOR
    /// UPDATE`): a second change of the same exchange, on this server or another, waits until this
    /// one has committed and then reads what it wrote. `change` gets the stored form and answers
    /// the new one, the instant of the last request and its result. Nil when there is no such
    /// exchange; whatever `change` throws is rethrown as itself and nothing is written.
    public func changeMorseExchange<Result>(
        id: UUID, kind: String,
        _ change: (String) async throws -> (state: String, lastActivityMs: Int64, result: Result)
    ) async throws -> Result? {
        let key = id.uuidString.lowercased()
        return try await store.writeRethrowing({ session -> Result? in
            let rows = try await session.query(
                """
                SELECT state FROM morse_exchange
                WHERE person_id = \(personID) AND id = \(key) AND kind = \(kind) FOR UPDATE
                """)
            guard let row = rows.first else { return nil }
            let changed = try await change(try row.columns(String.self))
            try await session.execute(
                """
                UPDATE morse_exchange SET state = \(changed.state), last_activity_ms = \(changed.lastActivityMs)
                WHERE person_id = \(personID) AND id = \(key)
                """)
            return changed.result
        })
    }
}

import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

/// One person's practice runs in progress on PostgreSQL (`practice_run`, schema v9): each run's
/// stored form as JSON text, written and read by the server, so that a run started through one
/// server is paused through another (docs/postgres.md).
extension PostgresPersonStore {
    /// Writes a new run: its stored form, when it ended (nil while it goes on) and when it was written.
    public func insertPracticeRun(id: UUID, state: String, endedAtMs: Int64?, at now: Date) async throws(StoreError) {
        let key = id.uuidString.lowercased()
        let ms = now.millisecondsSince1970
        try await store.write { session throws(StoreError) in
            try await session.execute(
                """
                INSERT INTO practice_run (person_id, id, state, ended_at_ms, updated_at_ms)
                VALUES (\(personID), \(key), \(state), \(endedAtMs), \(ms))
                """)
        }
    }

    /// The stored form of the run `id`, nil when there is none.
    public func practiceRun(id: UUID) async throws(StoreError) -> String? {
        let key = id.uuidString.lowercased()
        return try await store.read { session throws(StoreError) -> String? in
            let rows = try await session.query(
                "SELECT state FROM practice_run WHERE person_id = \(personID) AND id = \(key)")
            guard let row = rows.first else { return nil }
            return try row.columns(String.self)
        }
    }

    /// The stored form of every run, by id.
    public func practiceRuns() async throws(StoreError) -> [String] {
        try await store.read { session throws(StoreError) in
            try await session.query("SELECT state FROM practice_run WHERE person_id = \(personID) ORDER BY id").map {
                row throws(StoreError) in try row.columns(String.self)
            }
        }
    }

    /// Deletes the runs that ended before `milliseconds` (since 1970); runs still going stay.
    @discardableResult
    public func deletePracticeRuns(endedBefore milliseconds: Int64) async throws(StoreError) -> Int {
        try await store.write { session throws(StoreError) in
            try await session.execute(
                "DELETE FROM practice_run WHERE person_id = \(personID) AND ended_at_ms < \(milliseconds)")
        }
    }

    /// Changes the run `id` in one transaction that holds its row (`SELECT … FOR UPDATE`): a
    /// second change of the same run, on this server or another, waits until this one has
    /// committed and then reads what it wrote. `change` gets the stored form and answers the new
    /// one, when the run ended, and its result. Nil when there is no such run; whatever `change`
    /// throws is rethrown as itself and nothing is written.
    public func changePracticeRun<Result>(
        id: UUID, at now: Date, _ change: (String) async throws -> (state: String, endedAtMs: Int64?, result: Result)
    ) async throws -> Result? {
        let key = id.uuidString.lowercased()
        let ms = now.millisecondsSince1970
        return try await store.writeRethrowing({ session -> Result? in
            let rows = try await session.query(
                "SELECT state FROM practice_run WHERE person_id = \(personID) AND id = \(key) FOR UPDATE")
            guard let row = rows.first else { return nil }
            let changed = try await change(try row.columns(String.self))
            try await session.execute(
                """
                UPDATE practice_run SET state = \(changed.state), ended_at_ms = \(changed.endedAtMs),
                    updated_at_ms = \(ms)
                WHERE person_id = \(personID) AND id = \(key)
                """)
            return changed.result
        })
    }
}

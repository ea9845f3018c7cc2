import Foundation
import MomentumCore

/// Where one person's practice runs in progress are kept when every server of the household must
/// see them: rows of the run's stored form (JSON text the server writes and reads). On PostgreSQL
/// a change holds the run's row for its whole transaction (docs/postgres.md); on SQLite the one
/// server keeps its runs in memory and has none of this.
public protocol PracticeRunStore: Sendable {
    /// Writes a new run: its stored form, when it ended (nil while it goes on).
    func insertPracticeRun(id: UUID, state: String, endedAtMs: Int64?, at now: Date) async throws(StoreError)
    /// The stored form of the run `id`, nil when there is none.
    func practiceRun(id: UUID) async throws(StoreError) -> String?
    /// The stored form of every run.
    func practiceRuns() async throws(StoreError) -> [String]
    /// Deletes the runs that ended before `milliseconds` (since 1970).
    @discardableResult
    func deletePracticeRuns(endedBefore milliseconds: Int64) async throws(StoreError) -> Int
    /// Changes the run `id` by `change`, one change of a run at a time across servers; nil when
    /// there is no such run, and nothing written when `change` throws.
    func changePracticeRun<Result>(
        id: UUID, at now: Date, _ change: (String) async throws -> (state: String, endedAtMs: Int64?, result: Result)
    ) async throws -> Result?
}

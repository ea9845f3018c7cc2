import Foundation
import MomentumCore
import MomentumServices
import MomentumStore
import MomentumStoreContract

/// Where one person's practice runs in progress are kept: in this server's memory
/// (``RunRegistry``, on SQLite) or in the database every server of the household shares
/// (``StoredRunRegistry``, on PostgreSQL). The controllers see only this.
protocol PracticeRuns: Sendable {
    func add(_ run: PracticeRun) async throws
    func run(id: UUID) async throws -> PracticeRun?
    /// Every run, in no promised order; callers sort.
    func all() async throws -> [PracticeRun]
    /// Forgets runs that ended before `instant` (``PracticeRun/endedAt``).
    func forget(endedBefore instant: WallInstant) async throws
    /// Changes the run with `id` by `change`, keeping the change only when it succeeds; one change
    /// of a run at a time. Throws "no such run" (404) when there is none.
    func update<Result: Sendable>(id: UUID, _ change: @Sendable (inout PracticeRun) async throws -> Result) async throws
        -> Result
}

extension RunRegistry: PracticeRuns {}

/// The runs of one person in the database (``PracticeRunStore``, PostgreSQL): a run started
/// through one server is paused through another. Each run is read from its stored form
/// (``PracticeRun/Stored``), replayed and, after a change, written back, all in one transaction
/// that holds the run's row; a change that logs the practice (a stop) logs it through the
/// services on another connection meanwhile.
struct StoredRunRegistry: PracticeRuns {
    let store: any PracticeRunStore
    let now: @Sendable () -> Date

    func add(_ run: PracticeRun) async throws {
        try await store.insertPracticeRun(
            id: run.id, state: try run.storedText(), endedAtMs: run.endedAt?.millisecondsSince1970, at: now())
    }

    func run(id: UUID) async throws -> PracticeRun? {
        try await store.practiceRun(id: id).map { text throws(StoreError) in try PracticeRun(storedText: text) }
    }

    func all() async throws -> [PracticeRun] {
        try await store.practiceRuns().map { text throws(StoreError) in try PracticeRun(storedText: text) }
    }

    func forget(endedBefore instant: WallInstant) async throws {
        try await store.deletePracticeRuns(endedBefore: instant.millisecondsSince1970)
    }

    func update<Result: Sendable>(id: UUID, _ change: @Sendable (inout PracticeRun) async throws -> Result) async throws
        -> Result
    {
        let changed = try await store.changePracticeRun(id: id, at: now()) { text in
            var run = try PracticeRun(storedText: text)
            let result = try await change(&run)
            return (state: try run.storedText(), endedAtMs: run.endedAt?.millisecondsSince1970, result: result)
        }
        guard let changed else { throw APIError.notFound(.apiNoRun, ["id": id.uuidString.lowercased()]) }
        return changed
    }
}

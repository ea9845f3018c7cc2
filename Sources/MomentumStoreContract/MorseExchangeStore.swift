import Foundation
import MomentumCore

/// Where one person's Morse training sessions and QSO contacts in progress are kept when every
/// server of the household must see them: rows of each one's stored form (JSON text the server
/// writes and reads), told apart by `kind`. On PostgreSQL a change holds the row for its whole
/// transaction (docs/postgres.md); on SQLite the one server keeps them in memory and has none of
/// this.
public protocol MorseExchangeStore: Sendable {
    /// Writes a new exchange of `kind`, after deleting those of the same kind whose last request
    /// was before `idleBeforeMs` (milliseconds since 1970).
    func insertMorseExchange(
        id: UUID, kind: String, state: String, lastActivityMs: Int64, forgettingIdleBefore idleBeforeMs: Int64
    ) async throws(StoreError)
    /// The stored form of the exchange `id` of `kind`, nil when there is none.
    func morseExchange(id: UUID, kind: String) async throws(StoreError) -> String?
    /// Deletes the exchange `id` of `kind`.
    func deleteMorseExchange(id: UUID, kind: String) async throws(StoreError)
    /// Changes the exchange `id` of `kind` by `change`, one change of it at a time across servers;
    /// nil when there is no such exchange, and nothing written when `change` throws.
    func changeMorseExchange<Result>(
        id: UUID, kind: String,
        _ change: (String) async throws -> (state: String, lastActivityMs: Int64, result: Result)
    ) async throws -> Result?
}

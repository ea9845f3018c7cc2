import Foundation
import MomentumCore
import MomentumServices
import MomentumStore
import MomentumStoreContract

/// Where one person's Morse training sessions or QSO contacts in progress are kept: in this
/// server's memory (``ExpiringRegistry``, on SQLite) or in the database every server of the
/// household shares (``StoredMorseExchanges``, on PostgreSQL). The Morse controller sees only
/// this. One is forgotten when it ends, or once it has been idle for two hours when another is
/// added.
protocol MorseExchanges<Value>: Sendable {
    associatedtype Value: Expiring

    func add(_ value: Value) async throws
    /// The value `id`; throws "not found" (404) when there is none.
    func value(id: UUID) async throws -> Value
    /// Changes the value `id` with `change`, keeping the change only when it succeeds; one change
    /// of a value at a time. Throws "not found" (404) when there is none.
    func update<T: Sendable>(id: UUID, _ change: @Sendable (inout Value) async throws -> T) async throws -> T
    func remove(id: UUID) async throws
}

extension ExpiringRegistry: MorseExchanges {}

/// What the database keeps of a Morse exchange: its stored form as JSON text, from which it is
/// rebuilt by replaying what happened through the core's own types.
protocol StoredMorseExchange: Expiring {
    /// The row's `kind`: `training` or `qso`.
    static var storedKind: String { get }
    func storedText() throws(StoreError) -> String
    init(storedText: String) throws(StoreError)
}

/// The Morse exchanges of one kind of one person in the database (``MorseExchangeStore``,
/// PostgreSQL): a session started through one server is answered through another. Each change
/// reads the stored form, replays it, applies the change and writes it back, all in one
/// transaction that holds the row.
struct StoredMorseExchanges<Value: StoredMorseExchange>: MorseExchanges {
    let store: any MorseExchangeStore
    /// The answer for an id not kept (with the id as `{id}`).
    let unknown: StringKey

    func add(_ value: Value) async throws {
        let idleBefore = value.lastActivity.addingTimeInterval(-ExpiringRegistry<Value>.idleLimit.inSeconds)
        try await store.insertMorseExchange(
            id: value.id, kind: Value.storedKind, state: try value.storedText(),
            lastActivityMs: WallInstant(value.lastActivity).millisecondsSince1970,
            forgettingIdleBefore: WallInstant(idleBefore).millisecondsSince1970)
    }

    func value(id: UUID) async throws -> Value {
        guard let text = try await store.morseExchange(id: id, kind: Value.storedKind) else { throw notFound(id) }
        return try Value(storedText: text)
    }

    func update<T: Sendable>(id: UUID, _ change: @Sendable (inout Value) async throws -> T) async throws -> T {
        let changed = try await store.changeMorseExchange(id: id, kind: Value.storedKind) { text in
            var value = try Value(storedText: text)
            let result = try await change(&value)
            return (
                state: try value.storedText(), lastActivityMs: WallInstant(value.lastActivity).millisecondsSince1970,
                result
            )
        }
        guard let changed else { throw notFound(id) }
        return changed
    }

    func remove(id: UUID) async throws {
        try await store.deleteMorseExchange(id: id, kind: Value.storedKind)
    }

    private func notFound(_ id: UUID) -> APIError { .notFound(unknown, ["id": id.uuidString.lowercased()]) }
}

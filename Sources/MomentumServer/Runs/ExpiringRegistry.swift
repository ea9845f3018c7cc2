import Foundation
import MomentumCore

/// What a registry keeps: an id and the instant of its last request.
protocol Expiring: Sendable {
    var id: UUID { get }
    var lastActivity: Date { get }
}

/// Things the browser works through over several requests — Morse sessions, QSOs — by id. One
/// is forgotten when it ends, or after two hours without a request (a closed tab: a session's
/// attempts were never saved, like an unfinished terminal session).
actor ExpiringRegistry<Value: Expiring> {
    static var idleLimit: Duration { .seconds(2 * 3600) }
    private var values: [UUID: Value] = [:]
    private let turns = ChangeTurns<UUID>()
    private let unknown: StringKey

    /// `unknown` is the answer for an id not kept (with the id as `{id}`).
    init(unknown: StringKey) { self.unknown = unknown }

    func add(_ value: Value) {
        let limit = value.lastActivity.addingTimeInterval(-Self.idleLimit.inSeconds)
        // A value being changed is not idle: its change is about to keep it.
        values = values.filter { $0.value.lastActivity >= limit || turns.isChanging($0.key) }
        values[value.id] = value
    }

    func value(id: UUID) throws -> Value {
        guard let value = values[id] else { throw APIError.notFound(unknown, ["id": id.uuidString.lowercased()]) }
        return value
    }

    /// Changes the value `id` with `change`; a thrown error leaves it as it was.
    func update<T: Sendable>(id: UUID, _ change: @Sendable (inout Value) async throws -> T) async throws -> T {
        try await turns.run(id) {
            var value = try value(id: id)
            let result = try await change(&value)
            // A value removed meanwhile (or gone idle) stays removed.
            if values[id] != nil { values[id] = value }
            return result
        }
    }

    func remove(id: UUID) { values[id] = nil }
}

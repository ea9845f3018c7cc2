import Foundation

/// One change of each key at a time, the others waiting their turn in the order they came: what
/// a registry's change needs once it awaits (a run's stop logs its record while it holds the run).
///
/// Kept by one actor (the registry) and used only on it: every call passes the actor's isolation.
final class ChangeTurns<Key: Hashable & Sendable> {
    private var changing: Set<Key> = []
    private var waiting: [Key: [CheckedContinuation<Void, Never>]] = [:]

    /// Runs `body` as the only change of `key`, once the changes of `key` before it have ended.
    func run<T: Sendable>(
        _ key: Key, isolation: isolated (any Actor) = #isolation, _ body: () async throws -> T
    ) async throws -> T {
        await take(key, isolation: isolation)
        do {
            let result = try await body()
            end(key)
            return result
        } catch {
            end(key)
            throw error
        }
    }

    /// Whether a change of `key` is running (or waiting its turn).
    func isChanging(_ key: Key) -> Bool { changing.contains(key) }

    private func take(_ key: Key, isolation: isolated (any Actor)) async {
        guard changing.contains(key) else {
            changing.insert(key)
            return
        }
        // The turn is handed over by `end`: `changing` keeps the key meanwhile.
        await withCheckedContinuation(isolation: isolation) { waiting[key, default: []].append($0) }
    }

    private func end(_ key: Key) {
        guard var queue = waiting[key], !queue.isEmpty else {
            changing.remove(key)
            return
        }
        let next = queue.removeFirst()
        waiting[key] = queue.isEmpty ? nil : queue
        next.resume()
    }
}

/// The work of a test that could deadlock (callers waiting in line for connections or locks) has
/// to finish within `limit`, counted from here: unlike the `.timeLimit` trait, the time a test
/// waited for its PostgreSQL slot before (``StoreUnderTest``) does not count. When `limit` passes
/// first, `body` is cancelled and ``DeadlinePassed`` thrown once it has ended: work that ignores
/// cancellation is still waited for, so keep a generous `.timeLimit` trait as the backstop.
public func finishing<T: Sendable>(
    within limit: Duration, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw DeadlinePassed(limit: limit) }
        return value
    }
}

/// Work that did not finish within its limit (``finishing(within:_:)``).
public struct DeadlinePassed: Error, CustomStringConvertible {
    public let limit: Duration
    public var description: String { "did not finish within \(limit)" }
}

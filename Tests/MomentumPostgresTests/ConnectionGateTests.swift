import MomentumStoreContract
import MomentumStoreTestSupport
import Synchronization
import Testing

@testable import MomentumPostgres

/// The line for the pool's connections (``ConnectionGate``): first come first served, a slot
/// freed while someone waits goes to them, and a wait ends as busy at its timeout. No database.
struct ConnectionGateTests {
    @Test func aWaitEndsAsBusyAtItsTimeoutAndTheSlotIsThereAfterwards() async throws {
        let gate = ConnectionGate(size: 1)
        try await gate.enter(within: .seconds(5))
        await #expect(throws: StoreError.busy) { try await gate.enter(within: .milliseconds(20)) }
        gate.leave()
        try await gate.enter(within: .milliseconds(20))
        gate.leave()
    }

    @Test func aSlotFreedWhileSomeoneWaitsGoesToThemInTheOrderTheyCame() async throws {
        let gate = ConnectionGate(size: 1)
        try await gate.enter(within: .seconds(5))
        let order = Recorded<[Int]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<3 {
                group.addTask {
                    try await gate.enter(within: .seconds(30))
                    order.value.withLock { $0.append(index) }
                    gate.leave()
                }
                // Each in line before the next comes.
                while gate.waiting < index + 1 { await Task.yield() }
            }
            gate.leave()
            try await group.waitForAll()
        }
        #expect(order.value.withLock { $0 } == [0, 1, 2])
        // Every slot is back: as many callers as slots go in at once.
        try await gate.enter(within: .milliseconds(20))
    }

    @Test(.timeLimit(.minutes(1)))
    func manyCallersOnFewSlotsAllGetIn() async throws {
        let gate = ConnectionGate(size: 2)
        let inside = Recorded((now: 0, most: 0))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    try await gate.enter(within: .seconds(30))
                    inside.value.withLock {
                        $0.now += 1
                        $0.most = max($0.most, $0.now)
                    }
                    await Task.yield()
                    inside.value.withLock { $0.now -= 1 }
                    gate.leave()
                }
            }
            try await group.waitForAll()
        }
        #expect(inside.value.withLock { $0.most } <= 2)
    }
}

/// The deadline the pool's tests put on work that could deadlock: work that never ends is
/// cancelled and fails the test; work that ends gives its value.
struct DeadlineTests {
    @Test func workThatDoesNotEndFailsAtTheDeadline() async throws {
        await #expect(throws: DeadlinePassed.self) {
            try await finishing(within: .milliseconds(10)) { try await Task.sleep(for: .seconds(600)) }
        }
    }

    @Test func workThatEndsGivesItsValue() async throws {
        let value = try await finishing(within: .seconds(600)) { 42 }
        #expect(value == 42)
    }
}

/// A value tasks of a test change together.
private final class Recorded<Value: Sendable>: Sendable {
    let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
}

import Foundation
import MomentumCore
import Testing

@testable import MomentumServer

/// A registry's change may await (a run's stop logs its record while it holds the run): the
/// changes of one value still happen one at a time, each seeing the one before.
@Suite("One change of a registry's value at a time")
struct ChangeTurnsTests {
    struct Tally: Expiring {
        let id: UUID
        var lastActivity: Date
        var count: Int
    }

    /// A change that waits, inside, until `release` is opened; says when it has begun.
    struct Gate: Sendable {
        let began: AsyncStream<Void>
        let beginning: AsyncStream<Void>.Continuation
        let release: AsyncStream<Void>
        let opening: AsyncStream<Void>.Continuation

        init() {
            (began, beginning) = AsyncStream<Void>.makeStream()
            (release, opening) = AsyncStream<Void>.makeStream()
        }

        func enter() async {
            beginning.yield()
            for await _ in release { return }
        }
    }

    let id = UUID()
    let registry = ExpiringRegistry<Tally>(unknown: .apiNoContact)

    init() async {
        await registry.add(Tally(id: id, lastActivity: Date(timeIntervalSince1970: 1_800_000_000), count: 0))
    }

    @Test func aSecondChangeWaitsForTheFirstAndSeesWhatItChanged() async throws {
        let gate = Gate()
        let (registry, id) = (registry, id)
        let first = Task {
            try await registry.update(id: id) { tally in
                await gate.enter()
                tally.count += 1
                return tally.count
            }
        }
        for await _ in gate.began { break }
        // The second change is asked for while the first is inside; it may not start meanwhile.
        let second = Task {
            try await registry.update(id: id) { tally in
                tally.count += 10
                return tally.count
            }
        }
        for _ in 0..<50 { await Task.yield() }
        gate.opening.yield()
        #expect(try await first.value == 1)
        #expect(try await second.value == 11)
        #expect(try await registry.value(id: id).count == 11)
    }

    @Test func aFailedChangeKeepsNothingAndLetsTheNextOneIn() async throws {
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await registry.update(id: id) { tally in
                tally.count = 99
                throw Refused()
            }
        }
        #expect(
            try await registry.update(id: id) { tally in
                tally.count += 1
                return tally.count
            } == 1)
    }

    @Test func aValueRemovedDuringItsChangeStaysRemoved() async throws {
        let gate = Gate()
        let (registry, id) = (registry, id)
        let change = Task {
            try await registry.update(id: id) { tally in
                await gate.enter()
                tally.count += 1
            }
        }
        for await _ in gate.began { break }
        await registry.remove(id: id)
        gate.opening.yield()
        try await change.value
        await #expect(throws: APIError.self) { try await registry.value(id: id) }
    }

    @Test func aValueBeingChangedIsNotForgottenAsIdleMeanwhile() async throws {
        let gate = Gate()
        let (registry, id) = (registry, id)
        let change = Task {
            try await registry.update(id: id) { tally in
                await gate.enter()
                tally.lastActivity = Date(timeIntervalSince1970: 1_800_010_000)
            }
        }
        for await _ in gate.began { break }
        // Another value starts three hours later: the one being changed is not idle.
        await registry.add(Tally(id: UUID(), lastActivity: Date(timeIntervalSince1970: 1_800_010_800), count: 0))
        gate.opening.yield()
        try await change.value
        #expect(try await registry.value(id: id).lastActivity == Date(timeIntervalSince1970: 1_800_010_000))
    }
}

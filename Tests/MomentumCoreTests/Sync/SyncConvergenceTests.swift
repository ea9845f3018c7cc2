import Foundation
import Testing

@testable import MomentumCore

@Suite("Convergence: any delivery order, duplicates and offline work end in one state")
struct SyncConvergenceTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func devicesAndServerEndInTheSameStateAfterOfflineWorkAndLostAnswers(seed: UInt64) throws {
        var simulation = try SyncSimulation(seed: seed)
        try simulation.run(operations: 2_000)
        let expected = ExpectedSyncState(simulation.made)
        // The run exercised what matters: many changes, deleted timers, items deleted only with their timer.
        #expect(simulation.made.count > 3_000)
        let deletions = Set(simulation.made.filter { $0.operation == .delete }.map(\.entity))
        #expect(deletions.filter { $0.type == .focusTimer }.count > 20)
        #expect(expected.deleted.contains { $0.type == .checklistItem && !deletions.contains($0) })
        #expect(expected.matches(simulation.server))
        for device in simulation.devices {
            #expect(device.replica == simulation.server, "\(device.name)")
            #expect(device.outbox.isEmpty)
        }
        #expect(simulation.resurrections == 0)
        #expect(simulation.devices.allSatisfy { $0.watch.allStillDeleted(in: $0.replica) })
    }

    @Test(arguments: [11, 12] as [UInt64])
    func replicasGivenEveryChangeInRandomOrderWithDuplicatesAgree(seed: UInt64) throws {
        var simulation = try SyncSimulation(seed: seed)
        try simulation.run(operations: 2_000)
        let changes = simulation.made
        let expected = ExpectedSyncState(changes)
        var generator = SeededRandomNumberGenerator(seed: seed &* 7919)
        var replicas: [ReplicaState] = []
        for _ in 0..<4 {
            var delivery =
                changes + (0..<changes.count / 5).compactMap { _ in changes.randomElement(using: &generator) }
            delivery.shuffle(using: &generator)
            var replica = ReplicaState()
            var watch = DeletionWatch()
            for change in delivery {
                replica.apply(change)
                watch.note(change.entity, in: replica)
            }
            #expect(watch.resurrections == 0)
            #expect(watch.allStillDeleted(in: replica))
            replicas.append(replica)
        }
        #expect(expected.matches(replicas[0]))
        #expect(replicas.allSatisfy { $0 == replicas[0] })
        #expect(replicas[0] == simulation.server)
    }

    @Test func mergingIsAssociativeOverBatchesAppliedInAnyGrouping() throws {
        var simulation = try SyncSimulation(seed: 21)
        try simulation.run(operations: 500)
        var generator = SeededRandomNumberGenerator(seed: 5)
        let changes = simulation.made.shuffled(using: &generator)
        let third = changes.count / 3
        let (a, b, c) = (changes[..<third], changes[third..<(2 * third)], changes[(2 * third)...])
        var left = ReplicaState()
        left.apply(Array(a) + Array(b))
        left.apply(c)
        var right = ReplicaState()
        right.apply(c)
        right.apply(Array(b) + Array(a))
        #expect(left == right)
        #expect(left == simulation.server)
    }

    @Test func aStateRebuiltFromItsPartsMergesOnLikeTheOriginal() throws {
        var simulation = try SyncSimulation(seed: 31)
        try simulation.run(operations: 400)
        let half = simulation.made.count / 2
        var original = ReplicaState()
        original.apply(simulation.made[..<half])
        var rebuilt = ReplicaState(
            entities: original.entities, deletions: original.deletions, timersOfItems: original.timersOfItems)
        #expect(rebuilt == original)
        original.apply(simulation.made[half...])
        rebuilt.apply(simulation.made[half...])
        #expect(rebuilt == original)
        #expect(rebuilt == simulation.server)
    }
}

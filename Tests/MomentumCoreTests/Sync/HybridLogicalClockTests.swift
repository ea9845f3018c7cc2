import Foundation
import Testing

@testable import MomentumCore

@Suite("Hybrid logical clock: send and receive rules, drift, counters and overflow")
struct HybridLogicalClockTests {
    let t0: Int64 = 1_800_000_000_000

    func wall(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    func stamp(_ physical: Int64, _ counter: Int, _ node: String) throws -> HybridTimestamp {
        try HybridTimestamp(physical: physical, counter: counter, node: node)
    }

    @Test func theFirstStampIsTheWallClock() throws {
        var clock = try HybridLogicalClock(node: "laptop")
        #expect(try clock.send(at: wall(t0 + 123)) == stamp(t0 + 123, 0, "laptop"))
        #expect(clock.last == (try stamp(t0 + 123, 0, "laptop")))
    }

    @Test func changesWithinOneMillisecondCountUp() throws {
        var clock = try HybridLogicalClock(node: "laptop")
        let stamps = try (0..<4).map { _ in try clock.send(at: wall(t0)) }
        #expect(stamps.map(\.counter) == [0, 1, 2, 3])
        #expect(stamps.allSatisfy { $0.physical == t0 })
        #expect(try clock.send(at: wall(t0 + 1)) == stamp(t0 + 1, 0, "laptop"))
    }

    @Test func aWallClockThatGoesBackDoesNotMakeEarlierStamps() throws {
        var clock = try HybridLogicalClock(node: "laptop")
        let first = try clock.send(at: wall(t0 + 10_000))
        let second = try clock.send(at: wall(t0))
        #expect(second == (try stamp(t0 + 10_000, 1, "laptop")))
        #expect(first < second)
    }

    @Test func stampsOfOneClockAlwaysIncrease() throws {
        var generator = SeededGenerator(seed: 3)
        var clock = try HybridLogicalClock(node: "a")
        var previous: HybridTimestamp?
        var now = t0
        for _ in 0..<2_000 {
            now += Int64.random(in: -5...3, using: &generator)
            let next: HybridTimestamp
            if Bool.random(using: &generator) {
                next = try clock.send(at: wall(now))
            } else {
                let remote = try stamp(
                    now + Int64.random(in: -50...50, using: &generator), .random(in: 0...9, using: &generator), "b")
                next = try clock.receive(remote, at: wall(now))
                #expect(remote < next)
            }
            if let previous { #expect(previous < next) }
            previous = next
        }
    }

    @Test func receivingAStampFromTheFutureMovesTheClockPastIt() throws {
        var clock = try HybridLogicalClock(node: "laptop")
        _ = try clock.send(at: wall(t0))
        let remote = try stamp(t0 + 2_000, 7, "phone")
        #expect(try clock.receive(remote, at: wall(t0 + 5)) == stamp(t0 + 2_000, 8, "laptop"))
        // The next local change, still before the remote wall time, comes after it.
        #expect(try clock.send(at: wall(t0 + 6)) == stamp(t0 + 2_000, 9, "laptop"))
        #expect(try clock.send(at: wall(t0 + 2_001)) == stamp(t0 + 2_001, 0, "laptop"))
    }

    @Test func receiveTakesTheHigherCounterWhenAllThreeTimesAgree() throws {
        var clock = try HybridLogicalClock(node: "laptop", last: try stamp(t0, 4, "laptop"))
        #expect(try clock.receive(stamp(t0, 9, "phone"), at: wall(t0)) == stamp(t0, 10, "laptop"))
        #expect(try clock.receive(stamp(t0, 2, "phone"), at: wall(t0)) == stamp(t0, 11, "laptop"))
    }

    @Test func receiveOfAnOldStampKeepsCountingTheLocalTime() throws {
        var clock = try HybridLogicalClock(node: "laptop", last: try stamp(t0 + 50, 4, "laptop"))
        #expect(try clock.receive(stamp(t0, 9, "phone"), at: wall(t0 + 10)) == stamp(t0 + 50, 5, "laptop"))
    }

    @Test func receiveWhenTheWallClockIsAheadOfBothStartsTheCounterAtZero() throws {
        var clock = try HybridLogicalClock(node: "laptop", last: try stamp(t0, 4, "laptop"))
        #expect(try clock.receive(stamp(t0 + 1, 9, "phone"), at: wall(t0 + 100)) == stamp(t0 + 100, 0, "laptop"))
    }

    @Test func aStampExactlyFiveMinutesAheadIsAcceptedAndOneMillisecondMoreIsNot() throws {
        var clock = try HybridLogicalClock(node: "laptop")
        let limit = try stamp(t0 + 300_000, 0, "phone")
        let beyond = try stamp(t0 + 300_001, 0, "phone")
        #expect(throws: HybridClockError.tooFarAhead(stamp: beyond, wallMilliseconds: t0)) {
            try clock.receive(beyond, at: wall(t0))
        }
        #expect(clock.last == nil)
        #expect(try clock.receive(limit, at: wall(t0)) == stamp(t0 + 300_000, 1, "laptop"))
        #expect(throws: Never.self) { try HybridLogicalClock.check(limit, notAheadOf: wall(t0)) }
        #expect(throws: HybridClockError.self) { try HybridLogicalClock.check(beyond, notAheadOf: wall(t0)) }
    }

    @Test func aFullCounterMovesThePhysicalTimeOnInsteadOfWrapping() throws {
        var clock = try HybridLogicalClock(node: "laptop", last: try stamp(t0, 65_534, "laptop"))
        #expect(try clock.send(at: wall(t0)) == stamp(t0, 65_535, "laptop"))
        #expect(try clock.send(at: wall(t0)) == stamp(t0 + 1, 0, "laptop"))
        #expect(try clock.send(at: wall(t0)) == stamp(t0 + 1, 1, "laptop"))
        var receiver = try HybridLogicalClock(node: "phone")
        #expect(try receiver.receive(stamp(t0, 65_535, "laptop"), at: wall(t0)) == stamp(t0 + 1, 0, "phone"))
    }

    @Test func seventyThousandChangesInOneMillisecondStayInOrder() throws {
        var clock = try HybridLogicalClock(node: "laptop")
        var previous = try clock.send(at: wall(t0))
        var outOfOrder = 0
        for _ in 0..<70_000 {
            let next = try clock.send(at: wall(t0))
            if !(previous < next) { outOfOrder += 1 }
            previous = next
        }
        #expect(outOfOrder == 0)
        #expect(previous == (try stamp(t0 + 1, 70_000 - 65_536, "laptop")))
    }

    @Test func wallClocksOutsideTheStampRangeAreRefused() throws {
        var clock = try HybridLogicalClock(node: "laptop")
        #expect(throws: HybridClockError.physicalOutOfRange(-1000)) { try clock.send(at: wall(-1000)) }
        #expect(throws: HybridClockError.self) { try clock.send(at: Date.distantFuture.addingTimeInterval(1e13)) }
        #expect(throws: HybridClockError.invalidNode("two words")) { try HybridLogicalClock(node: "two words") }
    }
}

import Foundation

/// A replica's hybrid logical clock: stamps that follow the wall clock, never go backwards, and
/// come after every stamp the replica has seen.
///
/// The wall clock is an argument, never read here, so tests move time by hand.
///
/// ```swift
/// var clock = try HybridLogicalClock(node: "laptop")
/// let first = try clock.send(at: now)   // (now, 0, laptop)
/// let second = try clock.send(at: now)  // (now, 1, laptop): the same millisecond counts up
/// let merged = try clock.receive(remoteStamp, at: now)  // after both the remote and local stamps
/// ```
///
/// When the counter would pass ``HybridTimestamp/maximumCounter`` (65 536 stamps within one
/// millisecond), the clock moves its physical time on by 1 ms and starts the counter at 0 instead of
/// wrapping, so stamps stay strictly increasing; the clock then runs at most that millisecond ahead
/// of the wall clock until the wall clock catches up.
public struct HybridLogicalClock: Sendable, Equatable {
    /// This replica's node id, the last part of every stamp it makes.
    public let node: String
    /// The latest stamp made or seen; `nil` before the first.
    public private(set) var last: HybridTimestamp?

    /// How far ahead of the receiver's wall clock a stamp may be: exactly 5 minutes is accepted,
    /// 5 minutes and 1 ms is not.
    public static let maximumDrift: Duration = .seconds(5 * 60)

    public init(node: String) throws(HybridClockError) {
        try HybridTimestamp.checkNode(node)
        self.node = node
    }

    /// A clock that continues after a stamp it made before (e.g. stored in the replica's database).
    public init(node: String, last: HybridTimestamp?) throws(HybridClockError) {
        try self.init(node: node)
        self.last = last
    }

    /// The stamp for a change made here at `wall`: physical time is the later of the wall clock and
    /// the last stamp; within the same millisecond the counter goes up.
    public mutating func send(at wall: Date) throws(HybridClockError) -> HybridTimestamp {
        let wallMilliseconds = try Self.milliseconds(of: wall)
        let lastPhysical = last?.physical ?? -1
        let physical = max(wallMilliseconds, lastPhysical)
        let counter = physical == lastPhysical ? (last?.counter ?? 0) + 1 : 0
        return try advance(to: physical, counter: counter)
    }

    /// Merges a stamp received from another replica, returning the stamp of the receipt: after the
    /// remote stamp, the last local stamp and the wall clock. A stamp more than
    /// ``maximumDrift`` ahead of `wall` is refused and the clock does not move.
    @discardableResult
    public mutating func receive(_ remote: HybridTimestamp, at wall: Date) throws(HybridClockError) -> HybridTimestamp {
        let wallMilliseconds = try Self.milliseconds(of: wall)
        try Self.check(remote, notAheadOf: wallMilliseconds)
        let lastPhysical = last?.physical ?? -1
        let lastCounter = last?.counter ?? 0
        let physical = max(wallMilliseconds, lastPhysical, remote.physical)
        let counter: Int
        switch (physical == lastPhysical, physical == remote.physical) {
        case (true, true): counter = max(lastCounter, remote.counter) + 1
        case (true, false): counter = lastCounter + 1
        case (false, true): counter = remote.counter + 1
        case (false, false): counter = 0
        }
        return try advance(to: physical, counter: counter)
    }

    /// Refuses a stamp more than ``maximumDrift`` ahead of `wall`.
    public static func check(_ stamp: HybridTimestamp, notAheadOf wall: Date) throws(HybridClockError) {
        try check(stamp, notAheadOf: milliseconds(of: wall))
    }

    static func check(_ stamp: HybridTimestamp, notAheadOf wallMilliseconds: Int64) throws(HybridClockError) {
        guard stamp.physical - wallMilliseconds <= maximumDrift.wholeMilliseconds else {
            throw .tooFarAhead(stamp: stamp, wallMilliseconds: wallMilliseconds)
        }
    }

    /// `date` in whole milliseconds since 1970 (to the nearest, so a date made from milliseconds
    /// reads back exactly).
    public static func milliseconds(of date: Date) throws(HybridClockError) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds >= 0, milliseconds <= Double(HybridTimestamp.maximumPhysical) else {
            throw .physicalOutOfRange(Int64(exactly: milliseconds) ?? (milliseconds < 0 ? .min : .max))
        }
        return Int64(milliseconds)
    }

    private mutating func advance(to physical: Int64, counter: Int) throws(HybridClockError) -> HybridTimestamp {
        var physical = physical
        var counter = counter
        if counter > HybridTimestamp.maximumCounter {
            physical += 1
            counter = 0
        }
        guard physical <= HybridTimestamp.maximumPhysical else { throw .physicalOutOfRange(physical) }
        let stamp = HybridTimestamp(uncheckedPhysical: physical, counter: counter, node: node)
        last = stamp
        return stamp
    }
}

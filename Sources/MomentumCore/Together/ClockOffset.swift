/// How far a device's clock is from the server's, measured the way NTP does it: the device notes
/// when it sent a question (`sentAt`) and when the answer came (`receivedAt`) on its own clock;
/// the server puts its clock's reading (`serverAt`) in the answer. If the way there and back take
/// as long, the server read its clock half way: offset = serverAt − (sentAt + receivedAt) / 2,
/// known to within half the round trip. Of several round trips the shortest says most.
///
/// ```swift
/// let samples = [ClockSample(sentAt: 1_000, serverAt: 6_012, receivedAt: 1_030), …]
/// let offset = try ClockOffset(samples: samples)
/// offset.milliseconds   // 4_997: the server is about 5 s ahead of the device
/// offset.uncertainty    // 15 ms either way
/// ```
public struct ClockOffset: Sendable, Hashable {
    /// What the device adds to its own clock to read the server's, in milliseconds.
    public let milliseconds: Double
    /// Half the round trip it was measured over: the offset is right to within this, either way.
    public let uncertainty: Double

    /// The most round trips one estimate takes, and the longest round trip that still counts.
    public static let sampleLimit = 32
    public static let longestRoundTrip = 10_000.0

    /// The estimate from the shortest round trip of `samples` (milliseconds on each clock).
    public init(samples: [ClockSample]) throws(ClockOffsetError) {
        guard !samples.isEmpty else { throw .noSamples }
        guard samples.count <= Self.sampleLimit else { throw .tooManySamples(samples.count) }
        var best: (roundTrip: Double, offset: Double)?
        for sample in samples {
            let readings = [sample.sentAt, sample.serverAt, sample.receivedAt]
            guard readings.allSatisfy(\.isFinite), readings.allSatisfy({ abs($0) < 1e15 }) else {
                throw .unreadableSample
            }
            let roundTrip = sample.receivedAt - sample.sentAt
            guard roundTrip >= 0, roundTrip <= Self.longestRoundTrip else { throw .impossibleRoundTrip(roundTrip) }
            let offset = sample.serverAt - (sample.sentAt + sample.receivedAt) / 2
            if best.map({ roundTrip < $0.roundTrip }) ?? true { best = (roundTrip, offset) }
        }
        // Not empty, so one was taken.
        let chosen = best ?? (0, 0)
        milliseconds = chosen.offset
        uncertainty = chosen.roundTrip / 2
    }
}

/// One round trip: the device's clock when it asked and when the answer came, and the server's
/// clock in the answer, all in milliseconds (each on its own clock's scale).
public struct ClockSample: Sendable, Hashable, Codable {
    public var sentAt: Double
    public var serverAt: Double
    public var receivedAt: Double

    public init(sentAt: Double, serverAt: Double, receivedAt: Double) {
        self.sentAt = sentAt
        self.serverAt = serverAt
        self.receivedAt = receivedAt
    }
}

/// Round trips that say nothing about the clocks.
public enum ClockOffsetError: Error, Equatable, Sendable {
    case noSamples
    case tooManySamples(Int)
    /// A reading that is not a finite number of milliseconds.
    case unreadableSample
    /// An answer before its question, or one that took longer than ``ClockOffset/longestRoundTrip``.
    case impossibleRoundTrip(Double)
}

import MomentumCore

/// An instant on a test clock: an offset from an arbitrary origin, moved by tests, never slept on.
struct TestInstant: InstantProtocol, CustomStringConvertible {
    var offset: Duration

    static let origin = TestInstant(offset: .zero)

    func advanced(by duration: Duration) -> TestInstant { TestInstant(offset: offset + duration) }
    func duration(to other: TestInstant) -> Duration { other.offset - offset }
    static func < (lhs: TestInstant, rhs: TestInstant) -> Bool { lhs.offset < rhs.offset }

    var description: String { "t+\(offset)" }
}

extension TestInstant {
    static func at(_ duration: Duration) -> TestInstant { TestInstant(offset: duration) }
}

/// SplitMix64: a small, seeded generator so random tests replay exactly.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

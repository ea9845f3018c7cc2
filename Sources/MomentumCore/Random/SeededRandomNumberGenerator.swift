/// SplitMix64: a small, fast generator whose whole sequence follows from its seed.
///
/// The core has no randomness of its own; anything random (drills, virtual stations, test data)
/// takes a generator, and a seeded one makes a session or a test replay exactly.
///
/// ```swift
/// var generator = SeededRandomNumberGenerator(seed: 42)
/// Int.random(in: 1...6, using: &generator)  // the same number on every run
/// ```
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

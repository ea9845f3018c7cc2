import Testing

@testable import MomentumCore

@Suite("Seeded random numbers")
struct SeededRandomNumberGeneratorTests {
    @Test func theSameSeedGivesTheSameSequenceAndADifferentSeedAnother() {
        var first = SeededRandomNumberGenerator(seed: 7)
        var second = SeededRandomNumberGenerator(seed: 7)
        var other = SeededRandomNumberGenerator(seed: 8)
        let a = (0..<5).map { _ in first.next() }
        #expect(a == (0..<5).map { _ in second.next() })
        #expect(a != (0..<5).map { _ in other.next() })
        // SplitMix64's published first output for seed 0.
        var zero = SeededRandomNumberGenerator(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
    }
}

import Testing

@testable import MomentumCore

@Suite("Morse drill generator: seeded, the newest character more often, weak characters weighted")
struct MorseDrillGeneratorTests {
    static func statistics(attempts: Int, correct: Int) throws -> MorseCharacterStatistics {
        try MorseCharacterStatistics(attempts: attempts, correct: correct, timedAttempts: 0, totalResponseTime: .zero)
    }

    static func draws(_ drill: MorseDrillGenerator, count: Int, seed: UInt64) -> [MorseDrillItem] {
        var random = SeededRandomNumberGenerator(seed: seed)
        return (0..<count).map { _ in drill.nextItem(using: &random) }
    }

    @Test func theSameSeedDrawsTheSameItemsAndAnotherSeedOthers() throws {
        let drill = try MorseDrillGenerator(order: .extended, level: 12, groupSize: 5)
        let first = Self.draws(drill, count: 50, seed: 42)
        #expect(Self.draws(drill, count: 50, seed: 42) == first)
        #expect(Self.draws(drill, count: 50, seed: 43) != first)
        #expect(first.allSatisfy { $0.symbols.count == 5 && $0.symbols.allSatisfy(drill.characters.contains) })
    }

    @Test func theNewestCharacterIsDrawnMoreOftenThanAnyOther() throws {
        let drill = try MorseDrillGenerator(order: .standard, level: 9)
        let counts = Dictionary(grouping: Self.draws(drill, count: 20_000, seed: 1), by: \.text).mapValues(\.count)
        let newest = counts[drill.newestCharacter.displayText] ?? 0
        let others = drill.characters.dropLast().map { counts[$0.displayText] ?? 0 }
        // Weights 3 for each of 9 untried characters and 6 for the newest: 6/33 ≈ 18 %.
        #expect(others.allSatisfy { newest > $0 * 3 / 2 })
        #expect(abs(Double(newest) / 20_000 - 6.0 / 33) < 0.01)
    }

    @Test func weakCharactersAreDrawnMeasurablyMoreOften() throws {
        let order = KochOrder.standard
        var statistics: [MorseSymbol: MorseCharacterStatistics] = [:]
        for symbol in order.symbols.prefix(8) { statistics[symbol] = try Self.statistics(attempts: 20, correct: 20) }
        let weak = order.symbols[2]  // R, missed 16 times out of 20
        statistics[weak] = try Self.statistics(attempts: 20, correct: 4)
        let drill = try MorseDrillGenerator(order: order, level: 7, statistics: statistics)
        let expectedWeights = [1, 1, 4.2, 1, 1, 1, 1, 8.4]
        #expect(zip(drill.weights, expectedWeights).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(drill.weights.count == expectedWeights.count)

        let draws = Self.draws(drill, count: 20_000, seed: 7)
        let weakCount = draws.filter { $0.symbols == [weak] }.count
        let strongCount = draws.filter { $0.symbols == [order.symbols[0]] }.count
        // Expected 20 000 × 4.2 / 18.6 ≈ 4516 against 20 000 × 1 / 18.6 ≈ 1075.
        #expect(weakCount > 3 * strongCount)
        #expect(abs(Double(weakCount) - 20_000 * 4.2 / 18.6) < 300)
    }

    @Test func atLevelOneOnlyKAndMAreDrawnMTwiceAsOften() throws {
        let drill = try MorseDrillGenerator(order: .standard, level: 1, groupSize: 3)
        #expect(drill.weights == [3, 6])
        let draws = Self.draws(drill, count: 200, seed: 3)
        #expect(draws.allSatisfy { $0.symbols.allSatisfy { ["K", "M"].contains($0.displayText) } })
        #expect(Set(draws.flatMap(\.symbols).map(\.displayText)) == ["K", "M"])
    }

    @Test func levelsAndGroupSizesOutOfBoundsAreTypedErrors() {
        #expect(throws: MorseSessionError.levelOutOfRange(0, order: .standard)) {
            try MorseDrillGenerator(order: .standard, level: 0)
        }
        #expect(throws: MorseSessionError.levelOutOfRange(26, order: .standard)) {
            try MorseDrillGenerator(order: .standard, level: 26)
        }
        #expect(throws: MorseSessionError.groupSizeOutOfRange(11)) {
            try MorseDrillGenerator(order: .extended, level: 39, groupSize: 11)
        }
    }
}

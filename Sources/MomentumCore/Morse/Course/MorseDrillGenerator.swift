/// One thing to send or receive in a drill: a character, or a group of characters.
public struct MorseDrillItem: Sendable, Hashable {
    public let symbols: [MorseSymbol]

    public init(symbols: [MorseSymbol]) { self.symbols = symbols }

    /// The item as shown: `"K"`, `"KMR"`, `"<SK>"`.
    public var text: String { symbols.map(\.displayText).joined() }
}

/// Picks drill items from the unlocked characters of a level, from a seeded generator.
///
/// Every character other than the newest has the weight 1 + 4 × its miss rate, so a character
/// never missed is drawn weight 1 and one always missed weight 5; a character not tried yet
/// counts as missed half the time (weight 3). The newest character has twice the highest weight
/// of the others, so it is always the most frequent (at level 1, M is drawn twice as often as K).
///
/// The draw depends only on the statistics and the generator, so the same seed and the same
/// answers replay a session exactly.
///
/// ```swift
/// var random = SeededRandomNumberGenerator(seed: 7)
/// let drill = try MorseDrillGenerator(order: .standard, level: 1)  // K M
/// drill.nextItem(using: &random).text  // "M" twice as often as "K"
/// ```
public struct MorseDrillGenerator: Sendable, Hashable {
    public static let groupSizeBounds = 1...10

    /// The unlocked characters, oldest first; the last is the newest.
    public let characters: [MorseSymbol]
    /// How many characters each item has.
    public let groupSize: Int
    /// The per-character statistics the weights come from.
    public var statistics: [MorseSymbol: MorseCharacterStatistics]

    /// A generator for `level` of `order` (its first `level + 1` characters), weighting by `statistics`.
    ///
    /// - Throws: ``MorseSessionError/levelOutOfRange(_:order:)`` or
    ///   ``MorseSessionError/groupSizeOutOfRange(_:)``.
    public init(
        order: KochOrder, level: Int, statistics: [MorseSymbol: MorseCharacterStatistics] = [:], groupSize: Int = 1
    ) throws(MorseSessionError) {
        guard order.levels.contains(level) else { throw .levelOutOfRange(level, order: order) }
        guard Self.groupSizeBounds.contains(groupSize) else { throw .groupSizeOutOfRange(groupSize) }
        characters = order.characters(atLevel: level)
        self.groupSize = groupSize
        self.statistics = statistics
    }

    /// The character introduced last: the level's new one.
    public var newestCharacter: MorseSymbol { characters[characters.count - 1] }

    /// Each character's weight, in the order of ``characters``.
    public var weights: [Double] {
        let older = characters.dropLast().map { 1 + 4 * (statistics[$0]?.missRate ?? 0.5) }
        return older + [2 * (older.max() ?? 1)]
    }

    /// The next item: ``groupSize`` characters, each drawn by weight.
    public func nextItem(using generator: inout some RandomNumberGenerator) -> MorseDrillItem {
        let weights = weights
        let total = weights.reduce(0, +)
        let symbols = (0..<groupSize).map { _ in
            var draw = Double.random(in: 0..<total, using: &generator)
            for (index, weight) in weights.enumerated() {
                if draw < weight { return characters[index] }
                draw -= weight
            }
            // Rounding can leave a sliver past the last weight.
            return newestCharacter
        }
        return MorseDrillItem(symbols: symbols)
    }
}

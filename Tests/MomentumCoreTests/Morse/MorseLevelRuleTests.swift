import Testing

@testable import MomentumCore

@Suite("Morse levels: the advance rule at its edges, never past the end of the order")
struct MorseLevelRuleTests {
    @Test(
        arguments: [
            (19, 19, 5, 5, false),  // 19 attempts at 100 %
            (20, 18, 5, 5, true),  // 20 at 90 %, newest 5/5
            (20, 19, 5, 4, false),  // 20 at 95 %, newest 4/5
            (20, 17, 5, 5, false),  // 85 %
            (20, 20, 4, 4, false),  // newest only 4 attempts
            (30, 27, 10, 9, true),  // newest exactly 90 %
            (30, 27, 10, 8, false),
            (200, 180, 5, 5, true),
        ] as [(Int, Int, Int, Int, Bool)])
    func theRuleNeedsTwentyAttemptsNinetyPercentAndTheNewestCharacterLearned(
        _ attempts: Int, _ correct: Int, _ newestAttempts: Int, _ newestCorrect: Int, _ isMet: Bool
    ) {
        #expect(
            MorseLevelRule.isMet(
                attempts: attempts, correct: correct, newestAttempts: newestAttempts, newestCorrect: newestCorrect)
                == isMet)
    }

    @Test(
        arguments: [
            (KochOrder.standard, 1, true, 2), (.standard, 5, false, 5), (.standard, 24, true, 25),
            (.standard, 25, true, 25), (.extended, 26, true, 27), (.extended, 39, true, 39),
        ] as [(KochOrder, Int, Bool, Int)])
    func theLevelGoesUpByOneButNeverPastTheOrder(_ order: KochOrder, _ level: Int, _ ruleMet: Bool, _ next: Int) {
        #expect(MorseLevelRule.level(after: level, of: order, ruleMet: ruleMet) == next)
    }

    @Test func levelOnePractisesExactlyKAndMAndEachLevelAddsOneCharacter() throws {
        #expect(KochOrder.standard.characters(atLevel: 1).map(\.displayText) == ["K", "M"])
        let first = try MorseDrillGenerator(order: .standard, level: 1)
        #expect(first.characters.map(\.displayText) == ["K", "M"])
        #expect(first.newestCharacter.displayText == "M")
        for order in KochOrder.allCases {
            #expect(order.levels == 1...(order.symbols.count - 1))
            for level in order.levels {
                let characters = order.characters(atLevel: level)
                #expect(characters == Array(order.symbols.prefix(level + 1)))
                let drill = try MorseDrillGenerator(order: order, level: level)
                #expect(drill.characters == characters)
                if level > 1 { #expect(Array(characters.dropLast()) == order.characters(atLevel: level - 1)) }
            }
            #expect(order.characters(atLevel: order.levels.upperBound) == order.symbols)
        }
    }
}

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
            (KochOrder.standard, 1, true, 2), (.standard, 5, false, 5), (.standard, 25, true, 26),
            (.standard, 26, true, 26), (.extended, 26, true, 27), (.extended, 40, true, 40),
        ] as [(KochOrder, Int, Bool, Int)])
    func theLevelGoesUpByOneButNeverPastTheOrder(_ order: KochOrder, _ level: Int, _ ruleMet: Bool, _ next: Int) {
        #expect(MorseLevelRule.level(after: level, of: order, ruleMet: ruleMet) == next)
    }
}

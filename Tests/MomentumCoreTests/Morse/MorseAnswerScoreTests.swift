import Testing

@testable import MomentumCore

@Suite("Morse scoring: answers with stray keys, single characters and groups by edit distance")
struct MorseAnswerScoreTests {
    static func symbols(_ text: String) -> [MorseSymbol] {
        (try? MorseText(text).words.flatMap(\.self)) ?? []
    }

    @Test(
        arguments: [
            ("K", "K", true), ("K", "k", true), ("K", " k\n", true), ("K", "\tK ", true),
            ("K", "", false), ("K", "   ", false), ("K", "M", false), ("K", "KK", false), ("K", "kä", false),
            ("K", "ä", false), ("<SK>", "<sk>", true), ("<SK>", "sk", true), ("<SK>", " S K ", true),
            ("<SK>", "<SK", false), ("S", "<sk>", false), ("?", "?", true), ("5", "S", false),
        ] as [(String, String, Bool)])
    func aSingleCharacterIsRightOnlyWhenTheAnswerIsThatCharacterAlone(
        _ sent: String, _ answer: String, _ isCorrect: Bool
    ) {
        let score = MorseAnswerScore(sent: Self.symbols(sent), answer: answer)
        #expect(score.isCorrect == isCorrect)
        #expect(score.accuracy == (isCorrect ? 1 : 0))
        #expect(score.characterResults.map(\.isCorrect) == [isCorrect])
    }

    @Test(
        arguments: [
            ("KMRSU", "KMRSU", 0, 1.0, [true, true, true, true, true]),
            ("KMRSU", "k m r s u", 0, 1.0, [true, true, true, true, true]),
            ("KMRSU", "KMXSU", 1, 0.8, [true, true, false, true, true]),
            ("KMRSU", "KMSU", 1, 0.8, [true, true, false, true, true]),
            ("KMRSU", "KMRRSU", 1, 5.0 / 6, [true, true, true, true, true]),
            ("KMRSU", "MRSU", 1, 0.8, [false, true, true, true, true]),
            ("KMRSU", "", 5, 0.0, [false, false, false, false, false]),
            ("KMRSU", "UMRSK", 2, 0.6, [false, true, true, true, false]),
            ("KM", "KäM", 1, 2.0 / 3, [true, true]),
            ("KM", "ABCDEFG", 7, 0.0, [false, false]),
        ] as [(String, String, Int, Double, [Bool])])
    func aGroupIsScoredByEditDistance(
        _ sent: String, _ answer: String, _ distance: Int, _ accuracy: Double, _ results: [Bool]
    ) {
        let score = MorseAnswerScore(sent: Self.symbols(sent), answer: answer)
        #expect(score.editDistance == distance)
        #expect(abs(score.accuracy - accuracy) < 1e-9)
        #expect(score.characterResults.map(\.isCorrect) == results)
        #expect(score.characterResults.map(\.symbol) == Self.symbols(sent))
    }

    @Test func aMissedAnswerGetsEveryCharacterWrong() {
        let score = MorseAnswerScore(sent: Self.symbols("KM"), answer: nil)
        #expect(score.characterResults.map(\.isCorrect) == [false, false])
        #expect(score.accuracy == 0)
        #expect(score.editDistance == 2)
        #expect(!score.isCorrect)
    }

    @Test func answersReadLowerCaseProsignsAndKeepUnknownKeys() throws {
        let k = try #require(MorseCode.symbol(for: "K"))
        #expect(
            MorseAnswer.tokens(in: " k <sk>ä<x>")
                == [
                    .symbol(k), .symbol(MorseCode.symbol(for: .sk)), .unknown("ä"), .unknown("<"),
                    .symbol(
                        try #require(MorseCode.symbol(for: "X"))), .unknown(">"),
                ])
    }
}

import Testing

@testable import MomentumCore

@Suite("Duration formatting")
struct DurationFormattingTests {
    @Test(arguments: [
        (Duration.zero, "00:00"), (.milliseconds(1), "00:01"), (.seconds(59), "00:59"),
        (.milliseconds(599_001), "10:00"), (.seconds(600), "10:00"), (.seconds(3_600), "1:00:00"),
        (.seconds(36_000), "10:00:00"),
    ])
    func clockRoundsUpSoTheLastSecondShowsUntilTheEnd(duration: Duration, expected: String) {
        #expect(DurationFormatting.clock(duration) == expected)
    }

    @Test func wordsInBothLanguages() {
        #expect(DurationFormatting.words(.seconds(200), language: .english) == "3 min 20 s")
        #expect(DurationFormatting.words(.seconds(3_900), language: .german) == "1 Std. 5 Min.")
        #expect(DurationFormatting.words(.zero, language: .english) == "0 s")
        #expect(DurationFormatting.words(.zero, language: .german, zeroInMinutes: true) == "0 Min.")
        #expect(DurationFormatting.words(.seconds(30), language: .english, zeroInMinutes: true) == "30 s")
    }
}

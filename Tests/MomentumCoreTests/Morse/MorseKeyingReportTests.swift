import Testing

@testable import MomentumCore

@Suite("The keying report: speed, weight and spacing against the ARRL model, and what went wrong")
struct MorseKeyingReportTests {
    static let text = "CQ CQ DE K1ABC K1ABC THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG 73"

    /// The generated keying of `text` with every element stretched or shrunk by up to ±`jitter`,
    /// and the kinds it was generated with (the truth).
    static func keying(
        _ text: String, wpm: Double, jitter: Double, using random: inout SeededRandomNumberGenerator
    ) throws -> [MorseElement] {
        try MorseKeyer.jittered(text, wpm: wpm, jitter: jitter, using: &random)
    }

    static func mean(_ elements: [MorseElement], _ kind: MorseElement.Kind) -> Double {
        let values = elements.filter { $0.kind == kind }.map(\.duration.inSeconds)
        return values.reduce(0, +) / Double(values.count)
    }

    static func milliseconds(_ values: Double...) -> [MorseKeySignal] {
        values.enumerated().map { index, ms in
            index.isMultiple(of: 2)
                ? .pressed(.microseconds(Int64(ms * 1000))) : .released(.microseconds(Int64(ms * 1000)))
        }
    }

    static func close(_ measured: Double?, _ value: Double) -> Bool {
        measured.map { abs($0 - value) < 1e-9 } ?? false
    }

    static func report(_ signals: [MorseKeySignal], expected: String, wpm: Double = 20) throws -> MorseKeyingReport {
        var decoder = try MorseTimingDecoder(expectedWPM: wpm)
        return MorseKeyingReport(reading: try decoder.read(signals), expected: try MorseText(expected))
    }

    @Test(arguments: [15.0, 18, 20, 22, 25, 28, 30], [UInt64(1), 2, 3])
    func generatedKeyingWithTwentyPercentJitterIsReadAndMeasuredWithinFivePercent(_ wpm: Double, _ seed: UInt64)
        throws
    {
        var random = SeededRandomNumberGenerator(seed: seed)
        let elements = try Self.keying(Self.text, wpm: wpm, jitter: 0.2, using: &random)
        let report = try Self.report(elements.map(MorseKeySignal.init), expected: Self.text, wpm: 20)
        let expected = Array(Self.text)
        let read = Array(report.text)
        let right = zip(expected, read).filter { $0 == $1 }.count
        #expect(Double(right) / Double(expected.count) >= 0.98, "\(report.text)")
        #expect(report.characters.isEmpty, "\(report.characters)")

        let dit = Self.mean(elements, .dit)
        let truth = (
            ratio: Self.mean(elements, .dah) / dit, element: Self.mean(elements, .elementGap) / dit,
            character: Self.mean(elements, .letterGap) / dit, word: Self.mean(elements, .wordGap) / dit
        )
        func within5(_ measured: Double?, _ truth: Double) -> Bool {
            guard let measured else { return false }
            return abs(measured - truth) / truth <= 0.05
        }
        #expect(within5(report.ditDahRatio, truth.ratio))
        #expect(within5(report.elementGap, truth.element))
        #expect(within5(report.characterGap, truth.character))
        #expect(within5(report.wordGap, truth.word))
        #expect(within5(report.wpm, 1.2 / dit))
        // The generated truth itself is near the model: the jitter averages out.
        #expect(abs(truth.ratio - MorseKeyingReport.modelRatio) < 0.5)
    }

    @Test func aHeavyFistIsMeasuredByHand() throws {
        // K M keyed with 240 ms dahs against 60 ms dits, 60 ms inside, 180 ms between.
        let report = try Self.report(Self.milliseconds(240, 60, 60, 60, 240, 180, 240, 60, 240), expected: "KM")
        #expect(report.text == "KM")
        #expect(Self.close(report.ditDahRatio, 4))
        #expect(Self.close(report.elementGap, 1))
        #expect(Self.close(report.characterGap, 3))
        #expect(report.wordGap == nil)
        #expect(Self.close(report.wpm, 20))
        #expect(report.characters.isEmpty)
    }

    @Test func aLongGapInsideCSplitsItIntoTwoNs() throws {
        let report = try Self.report(Self.milliseconds(180, 60, 60, 250, 180, 60, 60), expected: "C")
        #expect(report.text == "NN")
        #expect(
            report.characters == [.init(expected: "C", readAs: "N N", reasons: [.gapInsideTooLong])])
    }

    @Test func aShortGapJoinsAAndTIntoW() throws {
        let report = try Self.report(Self.milliseconds(60, 60, 180, 60, 180), expected: "AT")
        #expect(report.text == "W")
        #expect(report.characters == [.init(expected: "A", readAs: "W", reasons: [.runsIntoNext])])
    }

    @Test func aDitHeldTooLongAndADahLetGoTooSoonAreNamed() throws {
        let long = try Self.report(Self.milliseconds(60, 60, 200), expected: "I")
        #expect(long.characters == [.init(expected: "I", readAs: "A", reasons: [.ditTooLong])])
        let short = try Self.report(Self.milliseconds(180, 60, 180, 180, 60, 60, 70), expected: "MA")
        #expect(short.text == "MI")
        #expect(short.characters == [.init(expected: "A", readAs: "I", reasons: [.dahTooShort])])
    }

    @Test func aWordGapTooShortIsNamedOnTheWordsLastCharacter() throws {
        let report = try Self.report(Self.milliseconds(60, 60, 180, 180, 180, 180, 60), expected: "A TE")
        #expect(report.text == "ATE")
        #expect(report.characters == [.init(expected: "A", readAs: "A", reasons: [.wordGapTooShort])])
    }

    @Test func aGapBetweenCharactersLongEnoughForAWordIsNamed() throws {
        // C and Q with 600 ms between them (10 dits at 20 wpm): read as two words.
        let report = try Self.report(
            Self.milliseconds(180, 60, 60, 60, 180, 60, 60, 600, 180, 60, 180, 60, 60, 60, 180), expected: "CQ")
        #expect(report.text == "C Q")
        #expect(report.characters == [.init(expected: "C", readAs: "C", reasons: [.characterGapTooLong])])
    }

    @Test func moreElementsThanTheTextHasAreComparedCharacterByCharacter() throws {
        let report = try Self.report(Self.milliseconds(180, 60, 60, 60, 180, 60, 180, 180, 180), expected: "KT")
        #expect(report.text == "YT")
        #expect(report.characters == [.init(expected: "K", readAs: "Y", reasons: [.elementsDiffer])])
    }

    @Test func withoutAnExpectedTextThereIsNoDiagnosis() throws {
        var decoder = try MorseTimingDecoder(expectedWPM: 20)
        let report = MorseKeyingReport(reading: try decoder.read(Self.milliseconds(60)))
        #expect(report.text == "E")
        #expect(report.ditDahRatio == nil && report.elementGap == nil && report.characters.isEmpty)
        #expect(Self.close(report.wpm, 20))
    }
}

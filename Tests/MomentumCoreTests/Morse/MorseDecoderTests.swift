import Testing

@testable import MomentumCore

@Suite("Morse decoders: patterns to characters, key press and gap durations to text")
struct MorseDecoderTests {
    /// Every symbol's pattern reads back as that symbol, except BT and AR, which sound like = and +.
    @Test(arguments: MorseCode.symbols)
    func everyPatternDecodesToItsSymbol(_ symbol: MorseSymbol) throws {
        let expected: String =
            switch symbol.displayText {
            case "<BT>": "="
            case "<AR>": "+"
            default: symbol.displayText
            }
        #expect(try MorseCode.decode(symbol.pattern).displayText == expected)
    }

    @Test func prosignsSKAndKNDecodeAsProsigns() throws {
        #expect(try MorseCode.decode(MorseProsign.sk.pattern) == MorseCode.symbol(for: .sk))
        #expect(try MorseCode.decode(MorseProsign.kn.pattern) == MorseCode.symbol(for: .kn))
    }

    @Test func anUnknownOrEmptyPatternIsATypedError() {
        #expect(throws: MorseDecodingError.unknownPattern("......")) {
            try MorseCode.decode([.dit, .dit, .dit, .dit, .dit, .dit])
        }
        #expect(throws: MorseDecodingError.emptyPattern) { try MorseCode.decode([]) }
    }

    // MARK: Timing decoder

    static let text = "CQ CQ DE K1ABC K1ABC <KN> THE QUICK BROWN FOX 73 <SK>"

    /// The keyed signals of `text` with every element stretched or shrunk by up to ±`jitter`.
    static func signals(
        _ text: String, wpm: Double, jitter: Double, using random: inout SeededRandomNumberGenerator
    ) throws -> [MorseKeySignal] {
        try MorseKeyer.jittered(text, wpm: wpm, jitter: jitter, using: &random).map(MorseKeySignal.init)
    }

    @Test(arguments: [15.0, 18, 20, 22, 25, 28, 30], [UInt64(1), 2, 3])
    func keyingWithTwentyPercentJitterDecodesBackToTheText(_ wpm: Double, _ seed: UInt64) throws {
        var random = SeededRandomNumberGenerator(seed: seed)
        let signals = try Self.signals(Self.text, wpm: wpm, jitter: 0.2, using: &random)
        var decoder = try MorseTimingDecoder(expectedWPM: 20)
        #expect(try decoder.decode(signals).text == Self.text)
        #expect(abs(decoder.estimatedWPM - wpm) / wpm < 0.15)
    }

    @Test func charactersKeyedOneAtATimeDecodeAfterTheFirstCalibrates() throws {
        var random = SeededRandomNumberGenerator(seed: 9)
        var decoder = try MorseTimingDecoder(expectedWPM: 12)
        var decoded = ""
        // E, T, O and S alone have no contrast; K first gives the decoder the sender's 28 wpm.
        for character in "KETOSMIN" {
            let signals = try Self.signals(String(character), wpm: 28, jitter: 0.2, using: &random)
            decoded += try decoder.decode(signals).text
        }
        #expect(decoded == "KETOSMIN")
    }

    @Test func theDecoderFollowsASenderWhoSpeedsUpDuringTheSession() throws {
        var random = SeededRandomNumberGenerator(seed: 4)
        var decoder = try MorseTimingDecoder(expectedWPM: 15)
        for wpm in stride(from: 15.0, through: 27, by: 2) {
            let signals = try Self.signals("PARIS MOSTLY", wpm: wpm, jitter: 0.1, using: &random)
            #expect(try decoder.decode(signals).text == "PARIS MOSTLY", "at \(wpm) wpm")
        }
        #expect(abs(decoder.estimatedWPM - 27) < 3)
    }

    @Test func aLoneDitOrDahIsReadAgainstTheExpectedSpeed() throws {
        let timing = try MorseTiming(characterWPM: 20, effectiveWPM: 20)
        var decoder = try MorseTimingDecoder(expectedWPM: 20)
        #expect(try decoder.decode([.pressed(timing.dit)]).text == "E")
        #expect(try decoder.decode([.pressed(timing.dah)]).text == "T")
    }

    @Test func anUnknownPatternShowsAsAStarAndTheRestStillReads() throws {
        let timing = try MorseTiming(characterWPM: 20, effectiveWPM: 20)
        let dit = MorseKeySignal.pressed(timing.dit)
        let gap = MorseKeySignal.released(timing.elementGap)
        var decoder = try MorseTimingDecoder(expectedWPM: 20)
        let signals =
            [dit, gap, dit, gap, dit, gap, dit, gap, dit, gap, dit, .released(timing.wordGap)]
            + [.pressed(timing.dah), gap, dit, gap, .pressed(timing.dah)]
        let decoded = try decoder.decode(signals)
        #expect(decoded.text == "* K")
        #expect(decoded.parts.first == .unknown([.dit, .dit, .dit, .dit, .dit, .dit]))
    }

    @Test func leadingAndTrailingGapsAndRepeatedSignalsAreTolerated() throws {
        // Two presses in a row join into one dah: 100 + 80 ms at 60 ms a unit.
        var decoder = try MorseTimingDecoder(expectedWPM: 20)
        let signals: [MorseKeySignal] = [
            .released(.seconds(3)), .pressed(.milliseconds(100)), .pressed(.milliseconds(80)),
            .released(.milliseconds(60)), .pressed(.milliseconds(60)), .released(.seconds(2)),
        ]
        #expect(try decoder.decode(signals).text == "N")
    }

    @Test(arguments: [80.0, 120])
    func keyingFasterThanSixtyWPMIsRefused(_ wpm: Double) throws {
        let dit = Duration.seconds(1.2 / wpm)
        var decoder = try MorseTimingDecoder(expectedWPM: 60)
        let signals: [MorseKeySignal] = [.pressed(dit), .released(dit), .pressed(dit * 3), .released(dit)]
        #expect {
            try decoder.decode(signals + signals + signals)
        } throws: { error in
            guard case MorseDecodingError.keyingTooFast(let measured) = error else { return false }
            return measured > 60
        }
    }

    @Test func keyingSlowerThanFiveWPMIsRefusedAndTheDecoderIsUnchanged() throws {
        let dit = Duration.seconds(1.2 / 3)
        var decoder = try MorseTimingDecoder(expectedWPM: 5)
        let before = decoder
        let signals: [MorseKeySignal] = [.pressed(dit), .released(dit), .pressed(dit * 3), .released(dit)]
        #expect {
            try decoder.decode(signals + signals + [.pressed(dit)])
        } throws: { error in
            guard case MorseDecodingError.keyingTooSlow(let measured) = error else { return false }
            return measured < 5
        }
        #expect(decoder == before)
    }

    @Test(arguments: [5.0, 60])
    func keyingExactlyAtTheBoundsIsRead(_ wpm: Double) throws {
        var random = SeededRandomNumberGenerator(seed: 1)
        var decoder = try MorseTimingDecoder(expectedWPM: wpm)
        let signals = try Self.signals("CQ DE K1ABC", wpm: wpm, jitter: 0, using: &random)
        #expect(try decoder.decode(signals).text == "CQ DE K1ABC")
    }

    @Test func aHeldKeyIsRefusedAsTooSlow() throws {
        var decoder = try MorseTimingDecoder()
        #expect(throws: MorseDecodingError.keyingTooSlow(wpm: 3.6 / 2)) { try decoder.decode([.pressed(.seconds(2))]) }
    }

    @Test func signalsWithoutPressOrWithEmptyDurationsAreTypedErrors() throws {
        var decoder = try MorseTimingDecoder()
        #expect(throws: MorseDecodingError.noKeyPress) { try decoder.decode([.released(.seconds(1))]) }
        #expect(throws: MorseDecodingError.noKeyPress) { try decoder.decode([]) }
        #expect(throws: MorseDecodingError.nonPositiveDuration(position: 1)) {
            try decoder.decode([.pressed(.milliseconds(60)), .released(.zero), .pressed(.milliseconds(60))])
        }
        #expect(throws: MorseDecodingError.expectedSpeedOutOfRange(61)) { try MorseTimingDecoder(expectedWPM: 61) }
    }
}

import Testing

@testable import MomentumCore

@Suite("Morse timing: PARIS units, Farnsworth gaps and bounds")
struct MorseTimingTests {
    @Test func theDefaultsAreTwentyWPMCharactersAtThirteenWithNoExtraSpace() throws {
        let timing = try MorseTiming()
        #expect(timing.characterWPM == 20)
        #expect(timing.effectiveWPM == 13)
        #expect(timing.extraWordSpace == .zero)
        #expect(timing.usesFarnsworthSpacing)
    }

    /// Milliseconds to 0.01 ms, worked out by hand from SPEC §7's formulas.
    @Test(arguments: [
        // c = s: letter gap 3u, word gap 7u.
        (20.0, 20.0, 60.0, 180.0, 180.0, 420.0),
        (40, 40, 30, 90, 90, 210),
        (5, 5, 240, 720, 720, 1680),
        // ta = (1200 − 372) / 200 = 4.14 s
        (20, 10, 60, 180, 653.68, 1525.26),
        // ta = (1500 − 483.6) / 325 = 3.1274 s
        (25, 13, 48, 144, 493.80, 1152.19),
        // ta = (1200 − 483.6) / 260 = 2.7554 s
        (20, 13, 60, 180, 435.06, 1015.14),
        // ta = (1200 − 493.644) / 265.4 = 2.6615 s
        (20, 13.27, 60, 180, 420.23, 980.54),
        // ta = (3600 − 186) / 300 = 11.38 s
        (60, 5, 20, 60, 1796.84, 4192.63),
    ])
    func elementsAndGapsFollowTheFormulas(
        _ character: Double, _ effective: Double, _ dit: Double, _ dah: Double, _ letterGap: Double,
        _ wordGap: Double
    ) throws {
        let timing = try MorseTiming(characterWPM: character, effectiveWPM: effective)
        #expect(abs(timing.unit.inMilliseconds - dit) < 0.005)
        #expect(abs(timing.dit.inMilliseconds - dit) < 0.005)
        #expect(abs(timing.elementGap.inMilliseconds - dit) < 0.005)
        #expect(abs(timing.dah.inMilliseconds - dah) < 0.005)
        #expect(abs(timing.letterGap.inMilliseconds - letterGap) < 0.005)
        #expect(abs(timing.wordGap.inMilliseconds - wordGap) < 0.005)
        #expect(timing.usesFarnsworthSpacing == (effective < character))
    }

    @Test func theSpecsCheckValuesHoldToATenthOfAMillisecond() throws {
        let slow = try MorseTiming(characterWPM: 20, effectiveWPM: 10)
        #expect(abs(slow.letterGap.inMilliseconds - 653.7) < 0.05)
        #expect(abs(slow.wordGap.inMilliseconds - 1525.3) < 0.05)
        let usual = try MorseTiming(characterWPM: 20, effectiveWPM: 13.27)
        #expect(abs(usual.letterGap.inMilliseconds - 420) < 1)
        #expect(abs(usual.wordGap.inMilliseconds - 980) < 1)
    }

    @Test(arguments: [(20.0, 60), (40, 30), (25, 48), (12, 100), (60, 20), (5, 240)])
    func wholeMillisecondUnitsAreExact(_ speed: Double, _ unit: Int) throws {
        let timing = try MorseTiming(characterWPM: speed, effectiveWPM: speed)
        #expect(timing.unit == .milliseconds(unit))
        #expect(timing.dit == .milliseconds(unit))
        #expect(timing.dah == .milliseconds(3 * unit))
        #expect(timing.elementGap == .milliseconds(unit))
        #expect(timing.letterGap == .milliseconds(3 * unit))
        #expect(timing.wordGap == .milliseconds(7 * unit))
    }

    @Test func farnsworthSpacingStretchesOnlyTheGapsBetweenCharactersAndWords() throws {
        let plain = try MorseTiming(characterWPM: 20, effectiveWPM: 20)
        let stretched = try MorseTiming(characterWPM: 20, effectiveWPM: 10)
        #expect(stretched.dit == plain.dit)
        #expect(stretched.dah == plain.dah)
        #expect(stretched.elementGap == plain.elementGap)
        #expect(stretched.letterGap > plain.letterGap)
        #expect(stretched.wordGap > plain.wordGap)
    }

    @Test(arguments: [Duration.zero, .milliseconds(250), .seconds(2), .seconds(10)])
    func extraWordSpaceIsAddedToTheWordGapOnly(_ extra: Duration) throws {
        let plain = try MorseTiming(characterWPM: 25, effectiveWPM: 13)
        let spaced = try MorseTiming(characterWPM: 25, effectiveWPM: 13, extraWordSpace: extra)
        #expect(spaced.extraWordSpace == extra)
        #expect(spaced.wordGap == plain.wordGap + extra)
        #expect(spaced.letterGap == plain.letterGap)
        #expect(spaced.dit == plain.dit)
    }

    @Test(
        arguments: [
            (5.0, 5.0, Duration.zero, nil),
            (60, 60, .zero, nil),
            (60, 5, .zero, nil),
            (20, 20, .seconds(10), nil),
            (4.9, 4.9, .zero, MorseError.characterSpeedOutOfRange(4.9)),
            (60.1, 13, .zero, .characterSpeedOutOfRange(60.1)),
            (0, 0, .zero, .characterSpeedOutOfRange(0)),
            (-20, 13, .zero, .characterSpeedOutOfRange(-20)),
            (.infinity, 13, .zero, .characterSpeedOutOfRange(.infinity)),
            (20, 4.9, .zero, .effectiveSpeedOutOfRange(4.9)),
            (20, 20.1, .zero, .effectiveSpeedOutOfRange(20.1)),
            (5, 5.5, .zero, .effectiveSpeedOutOfRange(5.5)),
            (20, 13, .seconds(-1), .extraWordSpaceOutOfRange(.seconds(-1))),
            (20, 13, .milliseconds(10_001), .extraWordSpaceOutOfRange(.milliseconds(10_001))),
        ] as [(Double, Double, Duration, MorseError?)])
    func speedsAndExtraSpaceAreCheckedAtBothEdges(
        _ character: Double, _ effective: Double, _ extra: Duration, _ expected: MorseError?
    ) {
        do {
            let timing = try MorseTiming(characterWPM: character, effectiveWPM: effective, extraWordSpace: extra)
            #expect(expected == nil, "\(character)/\(effective) + \(extra) should be refused")
            #expect(timing.characterWPM == character)
            #expect(timing.effectiveWPM == effective)
        } catch {
            #expect(error == expected)
        }
    }

    @Test func notANumberIsRefusedForEitherSpeed() {
        #expect {
            try MorseTiming(characterWPM: .nan)
        } throws: { error in
            if case MorseError.characterSpeedOutOfRange(let speed) = error { speed.isNaN } else { false }
        }
        #expect {
            try MorseTiming(characterWPM: 20, effectiveWPM: .nan)
        } throws: { error in
            if case MorseError.effectiveSpeedOutOfRange(let speed) = error { speed.isNaN } else { false }
        }
    }
}

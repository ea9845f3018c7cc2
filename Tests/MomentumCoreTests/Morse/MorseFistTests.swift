import Foundation
import MomentumCore
import Testing

@Suite("A sender's fist: jitter, heavy dahs and marks, still read by the decoder")
struct MorseFistTests {
    static var timing: MorseTiming {
        get throws { try MorseTiming(characterWPM: 20, effectiveWPM: 20) }
    }

    static func elements(_ text: String) throws -> [MorseElement] {
        try MorseKeyer(timing: Self.timing).keying(text).elements
    }

    static func signals(_ elements: [MorseElement]) -> [MorseKeySignal] {
        elements.map { $0.isKeyDown ? .pressed($0.duration) : .released($0.duration) }
    }

    /// Characters inserted, left out or changed to turn `a` into `b`.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var row = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var previous = row[0]
            row[0] = i + 1
            for (j, y) in b.enumerated() {
                let kept = row[j + 1]
                row[j + 1] = min(row[j + 1] + 1, row[j] + 1, previous + (x == y ? 0 : 1))
                previous = kept
            }
        }
        return row[b.count]
    }

    @Test func aSteadyFistIsTheKeyersOwnTiming() throws {
        let elements = try Self.elements("CQ DE DL1ABC")
        #expect(MorseFist.steady.keyed(elements, unit: try Self.timing.unit, seed: 3) == elements)
        #expect(MorseFist.preset(.steady) == .steady)
    }

    @Test func aHeavyFistKeysLongDahsAndHeavyMarksAsSet() throws {
        let elements = try Self.elements(String(repeating: "PARIS ", count: 40))
        let fist = try MorseFist(jitter: 0, dahWeight: 4, markWeight: 0.25)
        let keyed = fist.keyed(elements, unit: try Self.timing.unit, seed: 1)
        let dit = try Self.timing.unit.inSeconds
        for (before, after) in zip(elements, keyed) {
            switch before.kind {
            case .dit: #expect(abs(after.duration.inSeconds - 1.25 * dit) < 1e-9)
            case .dah: #expect(abs(after.duration.inSeconds - 4.25 * dit) < 1e-9)
            case .elementGap: #expect(abs(after.duration.inSeconds - 0.75 * dit) < 1e-9)
            case .letterGap, .wordGap:
                #expect(abs(after.duration.inSeconds - (before.duration.inSeconds - 0.25 * dit)) < 1e-9)
            }
        }
    }

    @Test func jitterSpreadsEveryElementAsSetTheSameForTheSameSeed() throws {
        let elements = try Self.elements(String(repeating: "EEEEE ", count: 80))
        let fist = MorseFist.preset(.human)
        let keyed = fist.keyed(elements, unit: try Self.timing.unit, seed: 9)
        #expect(keyed == fist.keyed(elements, unit: try Self.timing.unit, seed: 9))
        #expect(keyed != fist.keyed(elements, unit: try Self.timing.unit, seed: 10))
        let ratios = zip(elements, keyed).filter { $0.0.kind == .dit }.map {
            $0.1.duration.inSeconds / $0.0.duration.inSeconds
        }
        let mean = ratios.reduce(0, +) / Double(ratios.count)
        let deviation = (ratios.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(ratios.count)).squareRoot()
        #expect(abs(mean - 1) < 0.02)
        // 8 % jitter, drawn within two standard deviations: a little under 8 %.
        #expect(abs(deviation - 0.08) < 0.015, "\(deviation)")
    }

    @Test func theCoursesDecoderReadsHumanAndHeavyFists() throws {
        let text = "CQ CQ DE DL1ABC DL1ABC K UR RST 599 NAME BOB QTH BERLIN"
        for preset in [MorseFist.Preset.human, .heavy] {
            for seed in UInt64(1)...3 {
                let keyed = MorseFist.preset(preset).keyed(
                    try Self.elements(text), unit: try Self.timing.unit, seed: seed)
                var decoder = try MorseTimingDecoder(expectedWPM: 20)
                let read = try decoder.decode(Self.signals(keyed)).text
                let wrong = Self.editDistance(Array(read), Array(text))
                #expect(1 - Double(wrong) / Double(text.count) >= 0.98, "\(preset) \(seed): \(read)")
            }
        }
    }

    @Test func fistsAndChirpsOutOfBoundsAreRefused() throws {
        #expect(throws: MorseBandConditionsError.fistOutOfRange) { try MorseFist(jitter: 0.31) }
        #expect(throws: MorseBandConditionsError.fistOutOfRange) { try MorseFist(jitter: 0, dahWeight: 5) }
        #expect(throws: MorseBandConditionsError.fistOutOfRange) { try MorseFist(jitter: .nan) }
        #expect(throws: MorseBandConditionsError.chirpOutOfRange(300)) { try MorseBandConditions(chirp: 300) }
        #expect(throws: MorseBandConditionsError.unknownFist("sloppy")) { try MorseFist.Preset(named: "sloppy") }
        #expect(try MorseFist.Preset(named: "HEAVY") == .heavy)
        #expect(MorseBandConditions.preset(.weakDX).chirp == 30)
        #expect(MorseBandConditions.preset(.weakDX).fist == .preset(.heavy))
        #expect(MorseBandConditions.preset(.clean).hasCleanSender)
    }
}

import Foundation
import MomentumCore
import Testing

@testable import MomentumAudio

@Suite("Singing-bowl gongs, measured")
struct GongTests {
    static let rate = 22_050
    static let synthesizer = CueSynthesizer(sampleRate: rate)

    /// Each gong and the range its fundamental is meant to be in: low bowls for the start and
    /// the end, a brighter one for the intervals.
    static let gongs: [(CueSound, ClosedRange<Double>)] = [
        (.startGong, 185...205), (.intervalGong, 250...275), (.phaseGong, 210...230), (.endGong, 165...185),
    ]

    @Test(arguments: gongs)
    func theFundamentalIsWhereItIsMeantToBe(_ sound: CueSound, range: ClosedRange<Double>) {
        let samples = Self.synthesizer.samples(for: sound)
        let head = samples[Self.rate / 10..<Self.rate * 11 / 10]
        // The strongest component below the first overtone (×2.71) is the fundamental.
        let strongest = SignalAnalysis.strongestFrequency(head, in: 100...400, sampleRate: Self.rate)
        #expect(range.contains(strongest), "\(sound): \(strongest) Hz")
    }

    @Test(arguments: gongs.map(\.0))
    func everyGongDecaysByMoreThan30DecibelsWithoutClipping(_ sound: CueSound) {
        let samples = Self.synthesizer.samples(for: sound)
        let half = Self.rate / 2
        let lastStrike = sound == .phaseGong ? Int(4.4 * Double(Self.rate)) : 0
        let head = SignalAnalysis.rms(samples[lastStrike..<lastStrike + half])
        let tail = SignalAnalysis.rms(samples[(samples.count - half)...])
        #expect(SignalAnalysis.decibels(head / tail) >= 30, "\(sound)")
        #expect((samples.map { abs($0) }.max() ?? 1) <= CueSynthesizer.peak)
    }

    @Test func overtonesAreInharmonicLikeStruckMetal() {
        let samples = Self.synthesizer.samples(for: .startGong)
        let head = samples[Self.rate / 10..<Self.rate * 11 / 10]
        let fundamental = SignalAnalysis.strongestFrequency(head, in: 150...250, sampleRate: Self.rate)
        let overtone = SignalAnalysis.strongestFrequency(head, in: 350...700, sampleRate: Self.rate)
        // Not an octave (×2) or a twelfth (×3) as a beep's harmonics would be.
        let ratio = overtone / fundamental
        #expect(abs(ratio - 2.71) < 0.05, "ratio \(ratio)")
    }

    @Test func thePhaseGongHasThreeDistinctStrikes() {
        let samples = Self.synthesizer.samples(for: .phaseGong)
        let window = Self.rate / 50  // 20 ms
        let levels = stride(from: 0, to: samples.count - window, by: window).map {
            SignalAnalysis.rms(samples[$0..<$0 + window])
        }
        // A strike: at least 3 dB louder than 60 ms before.
        var strikes: [Double] = []
        for index in levels.indices where index >= 3 || levels[index] > 0.01 {
            let before = index >= 3 ? levels[index - 3] : 0
            if levels[index] > before * 1.41,
                strikes.last.map({ Double(index * window) / Double(Self.rate) - $0 > 0.5 }) ?? true
            {
                strikes.append(Double(index * window) / Double(Self.rate))
            }
        }
        #expect(strikes.count == 3)
        #expect(zip(strikes, [0, 2.2, 4.4]).allSatisfy { abs($0 - $1) < 0.1 }, "\(strikes)")
    }
}

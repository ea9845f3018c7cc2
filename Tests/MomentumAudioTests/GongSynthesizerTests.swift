import Foundation
import MomentumCore
import Testing

@testable import MomentumAudio

@Suite("Gongs and WAV files")
struct GongSynthesizerTests {
    let synthesizer = GongSynthesizer(sampleRate: 22_050)

    @Test(arguments: CueSound.allCases)
    func everyGongPeaksAtMinusOneDecibelWithoutDCAndFadesOut(_ sound: CueSound) {
        let samples = synthesizer.samples(for: sound)
        let peak = samples.map { abs($0) }.max() ?? 0
        #expect(peak <= GongSynthesizer.peak + 1e-6)
        // Breathing cues are small bowls, deliberately softer than the gongs of a sit.
        let isBreathCue = [CueSound.inhale, .exhale, .hold].contains(sound)
        #expect(peak > (isBreathCue ? 0.2 : 0.5))
        if isBreathCue { #expect(samples.count <= 22_050 * 3 / 2) }
        let mean = samples.reduce(0, +) / Float(samples.count)
        #expect(abs(mean) < 0.01)
        #expect(abs(samples.last ?? 1) < 1e-4)
    }

    @Test func aStruckBowlDecaysOverTime() {
        let samples = synthesizer.samples(for: .startGong)
        func rms(_ range: Range<Int>) -> Float {
            (samples[range].reduce(0) { $0 + $1 * $1 } / Float(range.count)).squareRoot()
        }
        let second = 22_050
        #expect(rms(0..<second) > rms(2 * second..<3 * second) * 1.5)
        #expect(rms(2 * second..<3 * second) > rms(5 * second..<6 * second) * 1.5)
    }

    @Test func thePhaseGongStrikesThreeTimes() {
        let samples = synthesizer.samples(for: .phaseGong)
        let window = 2205  // 0.1 s
        let levels = stride(from: 0, to: samples.count - window, by: window).map { start in
            samples[start..<start + window].map { abs($0) }.max() ?? 0
        }
        // A strike is a window clearly louder than the one before it.
        let padded = [Float(0)] + levels
        let strikes = zip(padded.dropFirst(), padded).filter { $0 > $1 * 1.3 }.count
        #expect(strikes == 3)
    }

    @Test func wavHeaderDescribesTheSamples() throws {
        let data = try WAVFile.encode(samples: [0, 0.5, -0.5, 1], sampleRate: 44_100)
        #expect(data.count == 44 + 8)
        #expect(String(decoding: data[0..<4], as: UTF8.self) == "RIFF")
        #expect(String(decoding: data[8..<12], as: UTF8.self) == "WAVE")
        let rate = data[24..<28].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        #expect(rate == 44_100)
        let last = Int16(bitPattern: UInt16(data[50]) | UInt16(data[51]) << 8)
        #expect(last == 32767)
        #expect(throws: WAVError.unsupportedSampleRate(96_000)) { try WAVFile.encode(samples: [], sampleRate: 96_000) }
    }
}

import Foundation
import MomentumCore
import Testing

@testable import MomentumAudio

@Suite("Gongs and WAV files")
struct CueSynthesizerTests {
    let synthesizer = CueSynthesizer(sampleRate: 22_050)

    @Test(arguments: CueSound.allCases)
    func everyGongPeaksAtMinusOneDecibelWithoutDCAndFadesOut(_ sound: CueSound) {
        let samples = synthesizer.samples(for: sound)
        let peak = samples.map { abs($0) }.max() ?? 0
        #expect(peak <= CueSynthesizer.peak + 1e-6)
        // Breathing cues are small bowls and the halfway cue a single soft tone, deliberately
        // softer than the gongs of a sit and the workout's beeps.
        let isBreathCue = [CueSound.inhale, .exhale, .hold].contains(sound)
        #expect(peak > (isBreathCue || sound == .halfway ? 0.2 : 0.5))
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

    static let workoutCues: [CueSound] = [.leadIn, .shortBeep, .longBeep, .halfway, .finish]

    @Test(arguments: workoutCues)
    func workoutCuesRampInAndOutWithoutAClick(_ sound: CueSound) {
        let samples = synthesizer.samples(for: sound)
        let peak = samples.map { abs($0) }.max() ?? 0
        // A raised-cosine ramp of at least 5 ms: silent at the edges, well below the peak after 1 ms.
        let millisecond = 22
        #expect(abs(samples.first ?? 1) < 1e-4)
        #expect(abs(samples.last ?? 1) < 1e-4)
        #expect((samples.prefix(millisecond).map { abs($0) }.max() ?? 1) < peak * 0.1)
        #expect((samples.suffix(millisecond).map { abs($0) }.max() ?? 1) < peak * 0.1)
    }

    /// The pitch of `samples[range]` from its zero crossings (the tones' octave adds none).
    private func pitch(_ samples: [Float], seconds range: ClosedRange<Double>) -> Double {
        let window = samples[Int(range.lowerBound * 22_050)..<Int(range.upperBound * 22_050)]
        let crossings = zip(window, window.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        return Double(crossings) / 2 / (range.upperBound - range.lowerBound)
    }

    @Test func countdownBeepsAreA880HertzShortAndLongBeepThatEndBeforeTheNextSecond() {
        let short = synthesizer.samples(for: .shortBeep)
        let long = synthesizer.samples(for: .longBeep)
        #expect(abs(Double(short.count) / 22_050 - 0.15) < 0.01)
        #expect(abs(Double(long.count) / 22_050 - 0.6) < 0.01)
        #expect(abs(pitch(short, seconds: 0.01...0.14) - 880) < 880 * 0.03)
        #expect(abs(pitch(long, seconds: 0.05...0.55) - 880) < 880 * 0.02)
    }

    @Test func theLeadInRisesAndTheFinishIsABrighterChime() {
        let leadIn = synthesizer.samples(for: .leadIn)
        #expect(pitch(leadIn, seconds: 0.02...0.18) < pitch(leadIn, seconds: 0.55...0.75))
        let finish = synthesizer.samples(for: .finish)
        #expect(pitch(finish, seconds: 0.02...0.14) < pitch(finish, seconds: 0.7...1.4))
        #expect(pitch(finish, seconds: 0.7...1.4) > pitch(leadIn, seconds: 0.55...0.75))
        #expect(abs(pitch(synthesizer.samples(for: .halfway), seconds: 0.02...0.38) - 659.3) < 659.3 * 0.03)
    }

    @Test func wavHeaderDescribesTheSamples() throws {
        let data = try WAVFile.encode(samples: [0, 0.5, -0.5, 1], format: AudioFormat(sampleRate: 44_100))
        #expect(data.count == 44 + 8)
        #expect(String(decoding: data[0..<4], as: UTF8.self) == "RIFF")
        #expect(String(decoding: data[8..<12], as: UTF8.self) == "WAVE")
        let rate = data[24..<28].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        #expect(rate == 44_100)
        let last = Int16(bitPattern: UInt16(data[50]) | UInt16(data[51]) << 8)
        #expect(last == 32767)
    }
}

import Foundation
import MomentumAudio
import MomentumCore
import Testing

/// A stand-in for a speech engine: a buzz of two tones far from the Morse tone, 70 ms per
/// character, with a little silence before and after as a real engine leaves.
struct BuzzSpeech: SpeechEngine {
    static let rate = 22_050
    func speak(_ text: String, language: Language) throws(SpeechError) -> SpokenAudio {
        let frames = text.count * Self.rate * 7 / 100
        let padding = [Float](repeating: 0, count: Self.rate / 10)
        let buzz = (0..<frames).map { index -> Float in
            let time = Double(index) / Double(Self.rate)
            return Float(0.2 * sin(2 * .pi * 220 * time) + 0.2 * sin(2 * .pi * 1_700 * time))
        }
        return SpokenAudio(samples: padding + buzz + padding, sampleRate: Self.rate)
    }
}

@Suite("Hands-free copy rendered: every answer after its Morse, the pauses as set")
struct HandsFreeRendererTests {
    static func plan(
        _ content: HandsFreePlan.Content = .callSigns, list: [String] = [], count: Int = 3,
        language: Language = .english, pause: Duration = .seconds(1), gap: Duration = .seconds(2)
    ) throws -> HandsFreePlan {
        try HandsFreePlan(
            content: content, list: list, count: count, seed: 11,
            timing: MorseTiming(characterWPM: 20, effectiveWPM: 20), language: language,
            pauseAfterMorse: pause, pauseAfterSpeech: pause, itemGap: gap)
    }

    /// What the listener hears, found in the samples alone: runs of sound (10 ms windows above
    /// −50 dBFS, gaps under 400 ms bridged), each called Morse when most of its windows are the
    /// 600 Hz tone, speech otherwise.
    static func heard(_ samples: [Float], rate: Int) -> [(start: Double, end: Double, isTone: Bool)] {
        let window = rate / 100
        var loud: [(index: Int, pure: Bool)] = []
        for start in stride(from: 0, to: samples.count - window, by: window) {
            let slice = samples[start..<start + window]
            let energy = slice.reduce(0.0) { $0 + Double($1) * Double($1) }
            guard (energy / Double(window)).squareRoot() > 0.003_2 else { continue }
            let tone = SignalAnalysis.power(slice, hertz: 600, sampleRate: rate)
            loud.append((start / window, 2 * tone / (Double(window) * energy) > 0.6))
        }
        var runs: [(first: Int, last: Int, pure: Int, all: Int)] = []
        for (index, pure) in loud {
            if let last = runs.last, index - last.last <= 40 {
                runs[runs.count - 1] = (last.first, index, last.pure + (pure ? 1 : 0), last.all + 1)
            } else {
                runs.append((index, index, pure ? 1 : 0, 1))
            }
        }
        return runs.map { (Double($0.first) / 100, Double($0.last + 1) / 100, $0.pure * 2 > $0.all) }
    }

    @Test func withEspeakEveryWordIsSpokenAfterItsMorseWithThePausesAsSet() throws {
        let engine = try EspeakSpeech.installed()
        for (plan, pause) in [
            (try Self.plan(count: 3), 1.0),
            (try Self.plan(.list, list: ["wald", "DL2XYZ"], language: .german, pause: .milliseconds(1500)), 1.5),
        ] {
            var renderer = try HandsFreeRenderer(plan: plan, speech: engine, format: .runStream)
            let samples = renderer.renderAll()
            let heard = Self.heard(samples, rate: AudioFormat.runStream.sampleRate)
            let count = plan.items().count
            #expect(heard.map(\.isTone) == Array(repeating: [true, false, true], count: count).flatMap { $0 })
            guard heard.count == 3 * count else { continue }
            for item in 0..<count {
                let (morse, speech, again) = (heard[3 * item], heard[3 * item + 1], heard[3 * item + 2])
                #expect(abs(speech.start - morse.end - pause) <= 0.03, "item \(item): \(morse) \(speech)")
                #expect(abs(again.start - speech.end - pause) <= 0.03, "item \(item): \(speech) \(again)")
                #expect(speech.end - speech.start > 0.3, "item \(item) is spoken")
                if item > 0 { #expect(abs(morse.start - heard[3 * item - 1].end - 2) <= 0.03) }
            }
            let length = Double(renderer.frameCount) / Double(AudioFormat.runStream.sampleRate)
            #expect(abs(length - (renderer.schedule.length.inSeconds)) < 0.01)
        }
    }

    @Test func eachAnswerStartsAtItsScheduledSampleAndThePausesAreSilent() throws {
        let plan = try Self.plan(count: 4, pause: .milliseconds(700), gap: .milliseconds(1500))
        let format = try AudioFormat(sampleRate: 48_000)
        var renderer = try HandsFreeRenderer(plan: plan, speech: BuzzSpeech(), format: format)
        let samples = renderer.renderAll()
        #expect(samples.count == renderer.frameCount)
        let parts = renderer.schedule.parts
        for part in parts where part.kind == .speech {
            let start = format.frames(at: part.start)
            let end = format.frames(at: part.end)
            // The buzz begins at once (its padding was trimmed) and is there to its end.
            #expect(samples[start - 1] == 0)
            #expect(SignalAnalysis.rms(samples[start..<start + 480]) > 0.05)
            #expect(SignalAnalysis.rms(samples[end - 480..<end]) > 0.05)
            let spoken = samples[start..<end]
            let energy = spoken.reduce(0.0) { $0 + Double($1) * Double($1) }
            let toneShare =
                2 * SignalAnalysis.power(spoken, hertz: 600, sampleRate: 48_000) / (Double(spoken.count) * energy)
            #expect(toneShare < 0.01)
        }
        // Between parts: silence, exactly.
        for (previous, next) in zip(parts, parts.dropFirst()) {
            let silence = samples[format.frames(at: previous.end) + 1..<format.frames(at: next.start)]
            #expect(silence.allSatisfy { $0 == 0 })
        }
        // The Morse is the course's tone, at its level.
        let morse = try #require(parts.first)
        let keyed = samples[format.frames(at: morse.start)..<format.frames(at: morse.end)]
        #expect(abs(SignalAnalysis.strongestFrequency(keyed, in: 500...700, sampleRate: 48_000) - 600) <= 1)
        let loudest = samples.reduce(Float.zero) { max($0, abs($1)) }
        #expect(loudest <= MorseRenderer.level + 0.001)
    }

    @Test func withoutEspeakTheEngineIsMissingNotACrash() {
        #expect(throws: SpeechError.engineMissing) {
            try EspeakSpeech.installed(environment: ["PATH": "/nonexistent:/also-not-here"])
        }
        #expect(throws: SpeechError.engineMissing) {
            try EspeakSpeech(executable: URL(fileURLWithPath: "/nonexistent/espeak-ng")).speak(
                "hello", language: .english)
        }
    }

    @Test func resamplingKeepsTheVoiceBandAndDropsWhatWouldFoldBack() {
        let rate = 22_050
        let tone = (0..<rate).map { Float(0.5 * sin(2 * Double.pi * 1_000 * Double($0) / Double(rate))) }
        let up = SpokenAudio(samples: tone, sampleRate: rate).resampled(to: 48_000)
        #expect(up.sampleRate == 48_000)
        #expect(abs(up.samples.count - 48_000) <= 1)
        let middle = up.samples[12_000..<36_000]
        #expect(abs(SignalAnalysis.rms(middle) - 0.5 / 2.squareRoot()) < 0.005)
        #expect(abs(SignalAnalysis.strongestFrequency(middle, in: 900...1_100, sampleRate: 48_000) - 1_000) <= 1)
        // 7 kHz is above 8 kHz's Nyquist frequency: it must not come back as 1 kHz.
        let high = (0..<rate).map { Float(0.5 * sin(2 * Double.pi * 7_000 * Double($0) / Double(rate))) }
        let down = SpokenAudio(samples: high, sampleRate: rate).resampled(to: 8_000)
        #expect(SignalAnalysis.decibels(SignalAnalysis.rms(down.samples[2_000..<6_000]) / 0.354) < -40)
    }
}

import Foundation
import MomentumCore

/// Something that turns a short text into speech: espeak-ng in the app, a test double in tests.
public protocol SpeechEngine: Sendable {
    /// `text` spoken in `language`, as mono samples at ``SpokenAudio/sampleRate``.
    func speak(_ text: String, language: Language) throws(SpeechError) -> SpokenAudio
}

/// Mono speech samples in −1…1.
public struct SpokenAudio: Sendable, Equatable {
    public var samples: [Float]
    public var sampleRate: Int

    public init(samples: [Float], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// Below this a sample is silence at the edges: −50 dBFS.
    static let silence: Float = 0.003_2

    /// The speech without the silence the engine leaves before and after it, so the pauses around
    /// it are the plan's.
    public func trimmed() -> SpokenAudio {
        guard let first = samples.firstIndex(where: { abs($0) > Self.silence }),
            let last = samples.lastIndex(where: { abs($0) > Self.silence })
        else { return SpokenAudio(samples: [], sampleRate: sampleRate) }
        return SpokenAudio(samples: Array(samples[first...last]), sampleRate: sampleRate)
    }

    /// The speech with its loudest sample at `peak`.
    public func normalized(peak: Float) -> SpokenAudio {
        let loudest = samples.reduce(Float.zero) { max($0, abs($1)) }
        guard loudest > 0 else { return self }
        let gain = peak / loudest
        return SpokenAudio(samples: samples.map { $0 * gain }, sampleRate: sampleRate)
    }

    /// The speech at `rate`, by band-limited (windowed-sinc) interpolation: below the lower of the
    /// two Nyquist frequencies nothing is lost, above it nothing folds back.
    public func resampled(to rate: Int) -> SpokenAudio {
        guard rate != sampleRate, !samples.isEmpty else { return SpokenAudio(samples: samples, sampleRate: rate) }
        let step = Double(sampleRate) / Double(rate)
        // The filter's cut-off, as a fraction of the input's Nyquist frequency, a little below the
        // lower Nyquist so the transition band stays out of the audible rest.
        let cutoff = min(1, Double(rate) / Double(sampleRate)) * 0.94
        let halfWidth = Int((12 / cutoff).rounded(.up))
        let count = Int((Double(samples.count) / step).rounded(.up))
        var output = [Float](repeating: 0, count: count)
        for index in 0..<count {
            let position = Double(index) * step
            let centre = Int(position.rounded(.down))
            var sum = 0.0
            for tap in max(0, centre - halfWidth + 1)...min(samples.count - 1, centre + halfWidth) {
                let distance = position - Double(tap)
                let window = 0.5 + 0.5 * cos(Double.pi * distance / Double(halfWidth))
                sum += Double(samples[tap]) * cutoff * Self.sinc(cutoff * distance) * window
            }
            output[index] = Float(sum)
        }
        return SpokenAudio(samples: output, sampleRate: rate)
    }

    private static func sinc(_ x: Double) -> Double {
        x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
    }

    public var duration: Duration { .seconds(Double(samples.count) / Double(sampleRate)) }
}

/// Why a text could not be spoken. The catalog says each in a sentence.
public enum SpeechError: Error, Equatable, Sendable {
    /// espeak-ng is not installed (or not on the `PATH`).
    case engineMissing
    /// The engine has no voice for the language.
    case voiceMissing(Language)
    /// The engine ran and failed: its exit status.
    case engineFailed(Int32)
    /// The engine took longer than ``EspeakSpeech/timeLimit``.
    case timedOut
    /// The engine's output did not read as a WAV file.
    case unreadableOutput
}

import Foundation
import MomentumCore

/// Singing-bowl gongs made from inharmonic partials, each with its own decay and a slow beat,
/// so they sound like struck metal rather than beeps.
///
/// ```swift
/// let samples = CueSynthesizer(sampleRate: 44_100).samples(for: .startGong)
/// ```
public struct CueSynthesizer: Sendable {
    public let sampleRate: Int

    /// The loudest sample any cue reaches: −1 dBFS.
    public static let peak: Float = 0.891

    public init(sampleRate: Int) {
        self.sampleRate = sampleRate
    }

    /// One partial of a bowl: frequency ratio to the fundamental, level, decay time (to 1/e) and
    /// the beat between the two slightly detuned modes real bowls have.
    struct Partial {
        var ratio: Double
        var level: Double
        var decaySeconds: Double
        var beatHertz: Double
    }

    // Ratios measured on singing bowls are close to these; higher partials die away sooner.
    static let bowl: [Partial] = [
        Partial(ratio: 1.0, level: 1.0, decaySeconds: 4.5, beatHertz: 0.9),
        Partial(ratio: 2.71, level: 0.55, decaySeconds: 2.8, beatHertz: 1.7),
        Partial(ratio: 5.15, level: 0.28, decaySeconds: 1.6, beatHertz: 2.3),
        Partial(ratio: 8.43, level: 0.14, decaySeconds: 0.9, beatHertz: 3.1),
        Partial(ratio: 12.5, level: 0.07, decaySeconds: 0.5, beatHertz: 4.0),
    ]

    /// The samples of `sound`, mono, peaking at −1 dBFS.
    public func samples(for sound: CueSound) -> [Float] {
        switch sound {
        // Each gong rings long enough to fade by more than 30 dB: the fundamental's decay time
        // (`ring`, to 1/e) is about a quarter of the sound's length.
        case .startGong: strikes(at: [0], fundamental: 196, level: 1.0, length: 12, ring: 2.6)
        case .intervalGong: strikes(at: [0], fundamental: 262, level: 0.7, length: 9, ring: 1.9)
        case .phaseGong: strikes(at: [0, 2.2, 4.4], fundamental: 220, level: 0.85, length: 14.4, ring: 2.1)
        case .endGong: strikes(at: [0], fundamental: 174.6, level: 1.0, length: 14, ring: 3.0)
        // Breathing cues: small, soft bowls, higher for inhale than for exhale, short enough not
        // to ring into the next phase; a hold is a lighter, higher tap.
        case .inhale: strikes(at: [0], fundamental: 392, level: 0.45, length: 1.5, ring: 4.5)
        case .exhale: strikes(at: [0], fundamental: 294, level: 0.45, length: 1.5, ring: 4.5)
        case .hold: strikes(at: [0], fundamental: 523.3, level: 0.3, length: 1, ring: 4.5)
        // Workout cues: clean tones, short enough to leave a second between countdown beeps.
        case .shortBeep: tones([Tone(at: 0, hertz: 880, seconds: 0.15)], level: 0.8)
        case .longBeep: tones([Tone(at: 0, hertz: 880, seconds: 0.6)], level: 0.8)
        case .leadIn:
            tones(
                [
                    Tone(at: 0, hertz: 523.3, seconds: 0.5, decaySeconds: 0.3),
                    Tone(at: 0.2, hertz: 784, seconds: 0.6, decaySeconds: 0.3),
                ], level: 0.6)
        case .halfway: tones([Tone(at: 0, hertz: 659.3, seconds: 0.4, decaySeconds: 0.25)], level: 0.45)
        case .finish:
            tones(
                [
                    Tone(at: 0, hertz: 1046.5, seconds: 0.5, decaySeconds: 0.35),
                    Tone(at: 0.15, hertz: 1318.5, seconds: 0.5, decaySeconds: 0.35),
                    Tone(at: 0.3, hertz: 1568, seconds: 1.2, decaySeconds: 0.5),
                ], level: 0.85)
        }
    }

    /// Bowl strikes at the given seconds, mixed and normalized so the loudest reaches `level` × peak.
    /// `ring` is the fundamental's decay time; higher partials die away sooner in proportion.
    func strikes(at starts: [Double], fundamental: Double, level: Double, length: Double, ring: Double) -> [Float] {
        let count = Int(length * Double(sampleRate))
        // Float samples, Double oscillators: half the memory, no audible difference.
        var buffer = [Float](repeating: 0, count: count)
        let rate = Double(sampleRate)
        let attack = 0.004 * rate
        buffer.withUnsafeMutableBufferPointer { output in
            for start in starts {
                let offset = Int(start * rate)
                for partial in Self.bowl {
                    let frequency = fundamental * partial.ratio
                    guard frequency < rate / 2 else { continue }
                    // Rotating phasors instead of sin and cos per sample, renormalized as they go.
                    var tone = Phasor(hertz: frequency, sampleRate: rate)
                    var beat = Phasor(hertz: partial.beatHertz, sampleRate: rate)
                    let decay = exp(-1 / (partial.decaySeconds * ring / Self.bowl[0].decaySeconds * rate))
                    var envelope = partial.level
                    var n = 0
                    for index in offset..<count {
                        let onset = Double(n) < attack ? Double(n) / attack : 1
                        // Two modes a fraction of a hertz apart: a slow, living beat.
                        let living = 0.8 + 0.2 * beat.next()
                        output[index] += Float(envelope * onset * living * tone.sine)
                        _ = tone.next()
                        envelope *= decay
                        n += 1
                        if n & 4095 == 0 {
                            tone.normalize()
                            beat.normalize()
                        }
                    }
                }
            }
        }
        // A short fade at the very end so the tail never clicks.
        let fade = min(count, Int(0.05 * rate))
        for index in 0..<fade { buffer[count - 1 - index] *= Float(index) / Float(fade) }
        let loudest = buffer.reduce(0) { max($0, abs($1)) }
        guard loudest > 0 else { return buffer }
        let gain = Self.peak * Float(level) / loudest
        for index in buffer.indices { buffer[index] *= gain }
        return buffer
    }
}

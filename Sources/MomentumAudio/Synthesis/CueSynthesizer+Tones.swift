import Foundation

extension CueSynthesizer {
    /// One clean tone of a beep or chime: a sine with a soft octave above it, decaying from its
    /// start when `decaySeconds` is given (a chime), held level otherwise (a beep).
    struct Tone {
        var at: Double
        var hertz: Double
        var seconds: Double
        var decaySeconds: Double?

        init(at: Double, hertz: Double, seconds: Double, decaySeconds: Double? = nil) {
            self.at = at
            self.hertz = hertz
            self.seconds = seconds
            self.decaySeconds = decaySeconds
        }
    }

    /// Raised-cosine ramps at both ends of every tone, long enough that no edge clicks.
    static let toneRamp = 0.008

    /// Tones mixed and normalized so the loudest sample reaches `level` × peak.
    func tones(_ tones: [Tone], level: Double) -> [Float] {
        let rate = Double(sampleRate)
        let count = tones.map { Int((($0.at + $0.seconds) * rate).rounded(.up)) }.max() ?? 0
        var buffer = [Double](repeating: 0, count: count)
        let ramp = Self.toneRamp * rate
        for tone in tones {
            let offset = Int((tone.at * rate).rounded())
            let length = min(Int((tone.seconds * rate).rounded()), count - offset)
            guard length > 1 else { continue }
            let omega = 2 * Double.pi * tone.hertz / rate
            let decay = tone.decaySeconds.map { exp(-1 / ($0 * rate)) } ?? 1
            let octave = 2 * tone.hertz < rate / 2 ? 0.15 : 0
            var envelope = 1.0
            for n in 0..<length {
                let fromEdge = Double(min(n, length - 1 - n))
                let edge = fromEdge < ramp ? 0.5 - 0.5 * cos(Double.pi * fromEdge / ramp) : 1
                let phase = omega * Double(n)
                buffer[offset + n] += envelope * edge * (sin(phase) + octave * sin(2 * phase))
                envelope *= decay
            }
        }
        let loudest = buffer.reduce(0) { max($0, abs($1)) }
        guard loudest > 0 else { return buffer.map { Float($0) } }
        let gain = Double(Self.peak) * level / loudest
        return buffer.map { Float($0 * gain) }
    }
}

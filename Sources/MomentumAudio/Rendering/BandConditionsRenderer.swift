import Foundation
import MomentumCore

/// Morse as heard on a band (``MorseBandConditions``): the wanted station fading, another station
/// keying at an offset, and white or pink noise through a receiver's 300–2,700 Hz passband at the S/N
/// asked for (measured in 500 Hz around the tone). Streams in constant-size blocks like
/// ``MorseRenderer``, which keys both stations.
///
/// The noise's level is worked out from the passband filter's own response: its power in the
/// 500 Hz band is the tone's power over 10^(S/N / 10). The whole mix is then scaled so it keeps
/// headroom (about −14 dBFS RMS while the key is down), which leaves every ratio as set; the rare
/// noise peak above the ceiling is clipped there.
///
/// ```swift
/// let conditions = try MorseBandConditions(signalToNoise: 3)
/// var band = try BandConditionsRenderer(
///     elements: keying.elements, timing: timing, tone: .standard, conditions: conditions, format: format, seed: 1)
/// ```
public struct BandConditionsRenderer: AudioSource {
    public let format: AudioFormat
    public var frameCount: Int { wanted.frameCount }

    private var wanted: MorseRenderer
    private var other: MorseRenderer?
    private var noise: BandNoise?
    private let scale: Float
    private let otherGain: Float
    private let fading: (depth: Double, periodFrames: Double)?
    private var position = 0
    private var scratch: [Float] = []

    /// The seed of the sender's hand in a render of `seed`: a stream of its own, so a front end
    /// that keys the same elements by hand (``MorseFist/keyed(_:unit:seed:)``) keys them alike.
    public static func fistSeed(_ seed: UInt64) -> UInt64 { seed ^ 0x5EED_F157 }

    /// The RMS the mix is scaled to while the key is down.
    static let targetLevel = 0.2

    public init(
        elements: [MorseElement], timing: MorseTiming, tone: MorseTone, conditions: MorseBandConditions,
        format: AudioFormat, seed: UInt64
    ) throws(MorseBandConditionsError) {
        self.format = format
        // The sender's hand, drawn from its own stream of the seed (the noise has the seed itself).
        let elements = conditions.fist.keyed(elements, unit: timing.unit, seed: Self.fistSeed(seed))
        wanted = MorseRenderer(
            elements: elements, hertz: tone.hertz, rise: tone.rise, format: format,
            chirp: conditions.chirp.map { ($0, MorseBandConditions.chirpSettling) })
        let tonePower = Double(MorseRenderer.level * MorseRenderer.level) / 2
        var otherPower = 0.0
        if let interference = conditions.interference {
            let hertz = tone.hertz + interference.offsetHertz
            guard MorseBandConditions.passband.contains(hertz) else { throw .interferenceOutsidePassband(hertz) }
            let keyer = MorseKeyer(timing: timing)
            var otherElements: [MorseElement] = []
            let total = elements.reduce(Duration.zero) { $0 + $1.duration }
            var covered = Duration.zero
            // The other station keeps calling until the wanted text ends.
            while covered < total {
                let round =
                    keyer.keying(interference.text).elements + [MorseElement(kind: .wordGap, duration: timing.wordGap)]
                otherElements += round
                covered += round.reduce(Duration.zero) { $0 + $1.duration }
            }
            other = MorseRenderer(
                elements: otherElements, hertz: hertz, rise: tone.rise, format: format)
            otherGain = Float(pow(10, interference.level / 20))
            otherPower = tonePower * Double(otherGain * otherGain)
        } else {
            otherGain = 0
        }
        var noisePower = 0.0
        if let snr = conditions.signalToNoise {
            let band = BandNoise.Filter(sampleRate: Double(format.sampleRate), pink: conditions.noise == .pink)
            let inBand = band.powerGain(
                from: tone.hertz - MorseBandConditions.measurementBandwidth / 2,
                to: tone.hertz + MorseBandConditions.measurementBandwidth / 2)
            // White noise of variance σ² has 2σ²/fs per Hz; in the band it is σ² · inBand.
            let variance = tonePower / pow(10, snr / 10) / inBand
            noise = BandNoise(filter: band, deviation: variance.squareRoot(), seed: seed)
            noisePower = variance * band.powerGain(from: 0, to: Double(format.sampleRate) / 2)
        }
        scale = Float(min(1, Self.targetLevel / (tonePower + otherPower + noisePower).squareRoot()))
        fading = conditions.fading.map { ($0.depth, $0.period.inSeconds * Double(format.sampleRate)) }
    }

    /// The wanted station's gain at `frame` under fading.
    @inline(__always)
    private func fadeGain(at frame: Int) -> Float {
        guard let fading else { return 1 }
        let decibels = -fading.depth * (1 - cos(2 * Double.pi * Double(frame) / fading.periodFrames)) / 2
        return Float(pow(10, decibels / 20))
    }

    public mutating func render(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        let channels = format.channels
        let frames = wanted.render(into: buffer)
        guard frames > 0 else { return 0 }
        if scratch.count < frames * channels { scratch = [Float](repeating: 0, count: frames * channels) }
        if other != nil {
            let made = scratch.withUnsafeMutableBufferPointer { scratch in
                other?.render(into: UnsafeMutableBufferPointer(rebasing: scratch[0..<frames * channels])) ?? 0
            }
            for index in made * channels..<frames * channels { scratch[index] = 0 }
        }
        let ceiling = CueSynthesizer.peak
        for frame in 0..<frames {
            let fade = fadeGain(at: position + frame)
            let hiss = noise?.next() ?? 0
            for channel in 0..<channels {
                let index = frame * channels + channel
                let otherSample = other == nil ? 0 : scratch[index] * otherGain
                let mixed = (buffer[index] * fade + otherSample + hiss) * scale
                buffer[index] = min(ceiling, max(-ceiling, mixed))
            }
        }
        position += frames
        return frames
    }
}

/// Seeded white Gaussian noise, made pink when asked, through the receiver's passband (two
/// second-order Butterworth sections: a high-pass at the passband's bottom and a low-pass at its
/// top).
struct BandNoise: Sendable {
    /// Paul Kellet's "refined" pink filter: six one-pole low-passes and a direct and a delayed
    /// path, summed. Across the receiver's passband it keeps within 0.1 dB of −3 dB per octave at
    /// 22.05, 44.1 and 48 kHz (the tests measure it). The S/N does not lean on that: the noise's
    /// level comes from this response itself (``powerGain(at:sampleRate:)``).
    struct PinkFilter: Sendable {
        static let poles = [0.99886, 0.99332, 0.96900, 0.86650, 0.55000, -0.7616]
        static let gains = [0.0555179, 0.0750759, 0.1538520, 0.3104856, 0.5329522, -0.0168980]
        static let direct = 0.5362
        static let delayed = 0.115926
        /// Brings the filter's gain at 1 kHz to 1, so a white and a pink band are alike in level
        /// before the S/N scales them.
        static let normalization: Double = {
            let gain = responseSquared(at: 1000, sampleRate: 44_100)
            return 1 / gain.squareRoot()
        }()

        var states = [Double](repeating: 0, count: 6)
        var previous = 0.0

        mutating func next(_ x: Double) -> Double {
            var y = Self.direct * x + previous
            for index in states.indices {
                states[index] = Self.poles[index] * states[index] + Self.gains[index] * x
                y += states[index]
            }
            previous = Self.delayed * x
            return y * Self.normalization
        }

        /// |H(e^jω)|² at `hertz`, without the normalization.
        static func responseSquared(at hertz: Double, sampleRate: Double) -> Double {
            let omega = 2 * Double.pi * hertz / sampleRate
            // z⁻¹ = cos ω − j sin ω.
            var real = direct + delayed * cos(omega)
            var imaginary = -delayed * sin(omega)
            for (pole, gain) in zip(poles, gains) {
                // gain / (1 − pole·z⁻¹)
                let denominatorReal = 1 - pole * cos(omega)
                let denominatorImaginary = pole * sin(omega)
                let magnitude = denominatorReal * denominatorReal + denominatorImaginary * denominatorImaginary
                real += gain * denominatorReal / magnitude
                imaginary -= gain * denominatorImaginary / magnitude
            }
            return real * real + imaginary * imaginary
        }

        func powerGain(at hertz: Double, sampleRate: Double) -> Double {
            Self.responseSquared(at: hertz, sampleRate: sampleRate) * Self.normalization * Self.normalization
        }
    }

    struct Biquad: Sendable {
        let b: (Double, Double, Double)
        let a: (Double, Double)
        var state: (Double, Double) = (0, 0)

        /// RBJ's cookbook, Q = 1/√2.
        static func butterworth(lowPass: Bool, corner: Double, sampleRate: Double) -> Biquad {
            let omega = 2 * Double.pi * corner / sampleRate
            let alpha = sin(omega) / (2 * 0.5.squareRoot())
            let cosine = cos(omega)
            let a0 = 1 + alpha
            let b: (Double, Double, Double) =
                lowPass
                ? ((1 - cosine) / 2, 1 - cosine, (1 - cosine) / 2) : ((1 + cosine) / 2, -(1 + cosine), (1 + cosine) / 2)
            return Biquad(b: (b.0 / a0, b.1 / a0, b.2 / a0), a: (-2 * cosine / a0, (1 - alpha) / a0))
        }

        /// Transposed direct form II.
        mutating func next(_ x: Double) -> Double {
            let y = b.0 * x + state.0
            state = (b.1 * x - a.0 * y + state.1, b.2 * x - a.1 * y)
            return y
        }

        /// |H(e^jω)|² at `hertz`.
        func powerGain(at hertz: Double, sampleRate: Double) -> Double {
            let omega = 2 * Double.pi * hertz / sampleRate
            func magnitudeSquared(_ c0: Double, _ c1: Double, _ c2: Double) -> Double {
                let real = c0 + c1 * cos(omega) + c2 * cos(2 * omega)
                let imaginary = -(c1 * sin(omega) + c2 * sin(2 * omega))
                return real * real + imaginary * imaginary
            }
            return magnitudeSquared(b.0, b.1, b.2) / magnitudeSquared(1, a.0, a.1)
        }
    }

    struct Filter: Sendable {
        var sections: [Biquad]
        var pink: PinkFilter?
        let sampleRate: Double

        init(sampleRate: Double, pink: Bool = false) {
            self.sampleRate = sampleRate
            self.pink = pink ? PinkFilter() : nil
            let passband = MorseBandConditions.passband
            sections = [
                .butterworth(lowPass: false, corner: passband.lowerBound, sampleRate: sampleRate),
                .butterworth(
                    lowPass: true, corner: min(passband.upperBound, sampleRate * 0.45), sampleRate: sampleRate),
            ]
        }

        /// What white noise of unit variance keeps between `from` and `to` Hz after the filter:
        /// ∫ 2/fs · |H(f)|² df, summed in 1 Hz steps (midpoints).
        func powerGain(from: Double, to: Double) -> Double {
            let low = max(0, from)
            let high = min(sampleRate / 2, to)
            guard high > low else { return 0 }
            let steps = Int((high - low).rounded(.up))
            let width = (high - low) / Double(steps)
            var sum = 0.0
            for step in 0..<steps {
                let hertz = low + (Double(step) + 0.5) * width
                let colour = pink?.powerGain(at: hertz, sampleRate: sampleRate) ?? 1
                sum += sections.reduce(colour) { $0 * $1.powerGain(at: hertz, sampleRate: sampleRate) } * width
            }
            return sum * 2 / sampleRate
        }

        mutating func next(_ x: Double) -> Double {
            var y = pink?.next(x) ?? x
            for index in sections.indices { y = sections[index].next(y) }
            return y
        }
    }

    var filter: Filter
    let deviation: Double
    var random: SeededRandomNumberGenerator
    private var spare: Double?

    init(filter: Filter, deviation: Double, seed: UInt64) {
        self.filter = filter
        self.deviation = deviation
        random = SeededRandomNumberGenerator(seed: seed)
    }

    /// One Gaussian sample (Box–Muller, two at a time) through the filter.
    mutating func next() -> Float {
        let gaussian: Double
        if let spare {
            gaussian = spare
            self.spare = nil
        } else {
            let u1 = Double(random.next() >> 11 | 1) * 0x1p-53
            let u2 = Double(random.next() >> 11) * 0x1p-53
            let radius = (-2 * log(u1)).squareRoot()
            gaussian = radius * cos(2 * Double.pi * u2)
            spare = radius * sin(2 * Double.pi * u2)
        }
        return Float(filter.next(gaussian * deviation))
    }
}

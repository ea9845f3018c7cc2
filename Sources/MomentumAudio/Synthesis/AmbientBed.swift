import Foundation
import MomentumCore

/// An endless ambient bed — rain, ocean, stream or brown noise — generated block by block.
///
/// Nothing loops, so there is no seam to hear. Each bed is normalized to the same loudness
/// (RMS ``level``) and passes a DC blocker, so the mix never drifts off zero.
///
/// ```swift
/// var rain = AmbientBed(generator: .rain, sampleRate: 44_100, seed: 1)
/// var block = [Float](repeating: 0, count: 4096)
/// block.withUnsafeMutableBufferPointer { rain.fill($0) }
/// ```
public struct AmbientBed: Sendable {
    /// The RMS every bed is normalized to at volume 1.
    public static let level: Float = 0.25
    /// How long the bed takes to fade in at the start and out at the end.
    public static let fade: Duration = .milliseconds(1500)

    public let generator: AmbientGenerator
    private var noise: NoiseState
    private var gain: Float = 1

    public init(generator: AmbientGenerator, sampleRate: Int, seed: UInt64) {
        self.generator = generator
        noise = NoiseState(generator: generator, sampleRate: Double(sampleRate), seed: seed)
        guard generator != .silent else { return }
        // Calibrate on a copy: two seconds tell a bed's loudness at this rate; the ocean needs
        // a whole swell.
        var probe = self
        let count = (generator == .ocean ? 9 : 2) * sampleRate
        var samples = [Float](repeating: 0, count: count)
        samples.withUnsafeMutableBufferPointer { probe.fill($0) }
        let rms = (samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(count)).squareRoot()
        if rms > 0 { gain = Self.level / Float(rms) }
    }

    /// Overwrites `buffer` with the next samples of the bed.
    public mutating func fill(_ buffer: UnsafeMutableBufferPointer<Float>) {
        switch generator {
        case .silent: buffer.update(repeating: 0)
        case .brown: noise.brown(buffer, gain: gain)
        case .rain: noise.rain(buffer, gain: gain)
        case .ocean: noise.ocean(buffer, gain: gain)
        case .stream: noise.stream(buffer, gain: gain)
        }
    }
}

/// The filter and oscillator state of the beds; one struct so a bed copies cheaply.
struct NoiseState: Sendable {
    var random: FastRandom
    // Pink noise (Paul Kellet's economy filter) and a few one-pole filters.
    var pink0 = 0.0, pink1 = 0.0, pink2 = 0.0
    var low = 0.0, lower = 0.0, brown = 0.0
    // DC blocker: y = x − x₋₁ + r·y₋₁.
    var blockIn = 0.0, blockOut = 0.0
    // Two slow oscillators as rotating phasors (cheaper than sin per sample).
    var swell: Phasor
    var ripple: Phasor
    let lowpass: Double, darkLowpass: Double, dcPole: Double

    init(generator: AmbientGenerator, sampleRate: Double, seed: UInt64) {
        random = FastRandom(seed: seed)
        lowpass = exp(-2 * Double.pi * 4_500 / sampleRate)
        darkLowpass = exp(-2 * Double.pi * 900 / sampleRate)
        dcPole = exp(-2 * Double.pi * 25 / sampleRate)
        // Ocean swells about every 9 s; a stream ripples a few times a second.
        swell = Phasor(hertz: 1 / 9.0, sampleRate: sampleRate)
        ripple = Phasor(hertz: 5.3, sampleRate: sampleRate)
    }

    private mutating func blockDC(_ x: Double) -> Double {
        blockOut = x - blockIn + dcPole * blockOut
        blockIn = x
        return blockOut
    }

    private mutating func pink(_ white: Double) -> Double {
        pink0 = 0.99765 * pink0 + white * 0.0990460
        pink1 = 0.96300 * pink1 + white * 0.2965164
        pink2 = 0.57000 * pink2 + white * 1.0526913
        return pink0 + pink1 + pink2 + white * 0.1848
    }

    /// Plain brown noise: a leaky integral of white noise.
    mutating func brown(_ buffer: UnsafeMutableBufferPointer<Float>, gain: Float) {
        for index in buffer.indices {
            brown = 0.998 * brown + 0.04 * random.nextSigned()
            buffer[index] = gain * Float(blockDC(brown))
        }
    }

    /// Pink noise, gently darkened: steady rain.
    mutating func rain(_ buffer: UnsafeMutableBufferPointer<Float>, gain: Float) {
        for index in buffer.indices {
            let value = pink(random.nextSigned())
            low = lowpass * low + (1 - lowpass) * value
            buffer[index] = gain * Float(blockDC(low))
        }
    }

    /// Brown noise, darkened further, rising and falling in slow swells.
    mutating func ocean(_ buffer: UnsafeMutableBufferPointer<Float>, gain: Float) {
        for index in buffer.indices {
            brown = 0.998 * brown + 0.04 * random.nextSigned()
            lower = darkLowpass * lower + (1 - darkLowpass) * brown
            // 0.35 … 1: never silent, surging as a wave comes in.
            let wave = 0.5 - 0.5 * swell.next()
            buffer[index] = gain * Float(blockDC(lower) * (0.35 + 0.65 * wave * wave) * 1.6)
        }
        swell.normalize()
    }

    /// Band-limited noise with a quick, uneven ripple: water over stones.
    mutating func stream(_ buffer: UnsafeMutableBufferPointer<Float>, gain: Float) {
        for index in buffer.indices {
            let white = random.nextSigned()
            low = lowpass * low + (1 - lowpass) * white
            lower = darkLowpass * lower + (1 - darkLowpass) * white
            // Highs minus lows: a band of the water's hiss.
            let band = low - lower
            let shimmer = 0.75 + 0.25 * ripple.next() * (0.6 + 0.4 * random.nextUnit())
            buffer[index] = gain * Float(blockDC(band * shimmer))
        }
        ripple.normalize()
    }
}

/// A cosine oscillator that turns a unit vector each sample.
struct Phasor: Sendable {
    private var cosine = 1.0, sine = 0.0
    private let stepCosine: Double, stepSine: Double

    init(hertz: Double, sampleRate: Double) {
        let omega = 2 * Double.pi * hertz / sampleRate
        stepCosine = cos(omega)
        stepSine = sin(omega)
    }

    /// The current cosine, then one step on.
    mutating func next() -> Double {
        let value = cosine
        (cosine, sine) = (cosine * stepCosine - sine * stepSine, sine * stepCosine + cosine * stepSine)
        return value
    }

    /// Pulls the vector back to length 1; rounding would otherwise let it drift over hours.
    mutating func normalize() {
        let length = (cosine * cosine + sine * sine).squareRoot()
        cosine /= length
        sine /= length
    }
}

/// xorshift64*: fast, seedable noise. Not for anything but sound.
struct FastRandom: Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    mutating func nextBits() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// Uniform in −1 ..< 1.
    mutating func nextSigned() -> Double { Double(Int64(bitPattern: nextBits()) >> 11) / Double(1 << 52) }

    /// Uniform in 0 ..< 1.
    mutating func nextUnit() -> Double { Double(nextBits() >> 11) / Double(1 << 53) }
}

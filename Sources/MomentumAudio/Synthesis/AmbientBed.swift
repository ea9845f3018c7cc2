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
    public static let fade: Duration = AmbientChoice.fade

    public let generator: AmbientGenerator
    /// The beds hold nothing above about 5 kHz, so they are generated at a quarter of 44.1 or
    /// 48 kHz (half of 22.05 kHz) and interpolated: the same sound for a quarter of the work.
    let oversampling: Int
    private var noise: NoiseState
    /// What brings the bed to RMS ``level``, measured once when the bed is made.
    private(set) var gain: Float = 1
    private var previous: Float = 0
    private var next: Float = 0
    private var step: Int
    /// Generated samples not yet interpolated: made 1024 at a time in a tight loop.
    private var chunk: [Float]
    private var read: Int

    /// One bed per channel of `format`, each from its own seed: stereo becomes a wide, natural
    /// space instead of a centred hiss.
    static func perChannel(_ generator: AmbientGenerator, format: AudioFormat, seed: UInt64) -> [AmbientBed] {
        (0..<format.channels).map {
            AmbientBed(generator: generator, sampleRate: format.sampleRate, seed: seed &+ UInt64($0) &* 7919)
        }
    }

    /// The gain of a fade `position` of the way in (0…1): a raised cosine, without a corner at
    /// either end.
    @inline(__always)
    static func fadeGain(_ position: Float) -> Float { 0.5 - 0.5 * cos(Float.pi * position) }

    public init(generator: AmbientGenerator, sampleRate: Int, seed: UInt64) {
        self.generator = generator
        oversampling = max(1, sampleRate / 11_025)
        step = oversampling
        chunk = [Float](repeating: 0, count: generator == .silent ? 0 : 1024)
        read = chunk.count
        noise = NoiseState(sampleRate: Double(sampleRate / oversampling), seed: seed)
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

    /// A bed of `generator` at `gain` (a calibrated bed's ``gain``) whose slow oscillators stand
    /// where they would after `generated` samples at the bed's own rate (`sampleRate` ÷
    /// ``oversampling``): one piece of a bed made block by block, each from a seed of its own.
    init(generator: AmbientGenerator, sampleRate: Int, seed: UInt64, gain: Float, generated: Int) {
        self.generator = generator
        oversampling = max(1, sampleRate / 11_025)
        step = oversampling
        chunk = [Float](repeating: 0, count: generator == .silent ? 0 : 1024)
        read = chunk.count
        noise = NoiseState(sampleRate: Double(sampleRate / oversampling), seed: seed, generated: generated)
        self.gain = gain
    }

    /// Overwrites `buffer` with the next samples of the bed.
    public mutating func fill(_ buffer: UnsafeMutableBufferPointer<Float>) {
        guard generator != .silent else {
            buffer.update(repeating: 0)
            return
        }
        let inverse = 1 / Float(oversampling)
        var index = 0
        // The common case, whole intervals between generated samples, written out straight:
        // this loop runs for every sample of a session with ambient sound.
        while step == oversampling && index + oversampling <= buffer.count {
            if read == chunk.count { refill() }
            previous = next
            next = chunk[read]
            read &+= 1
            let slope = (next - previous) * inverse
            switch oversampling {
            case 4:
                buffer[index] = previous + slope
                buffer[index &+ 1] = previous + 2 * slope
                buffer[index &+ 2] = previous + 3 * slope
                buffer[index &+ 3] = next
            case 2:
                buffer[index] = previous + slope
                buffer[index &+ 1] = next
            default:
                for offset in 0..<oversampling { buffer[index &+ offset] = previous + slope * Float(offset &+ 1) }
            }
            index &+= oversampling
        }
        // The rest, one sample at a time, keeping its place between calls.
        while index < buffer.count {
            if step == oversampling {
                if read == chunk.count { refill() }
                step = 0
                previous = next
                next = chunk[read]
                read &+= 1
            }
            step &+= 1
            buffer[index] = previous + (next - previous) * Float(step) * inverse
            index &+= 1
        }
    }

    private mutating func refill() {
        let (generator, gain) = (self.generator, self.gain)
        chunk.withUnsafeMutableBufferPointer { noise.fill($0, generator: generator, gain: gain) }
        read = 0
    }
}

/// The filter and oscillator state of the beds; one struct so a bed copies cheaply.
struct NoiseState: Sendable {
    var random: SeededRandomNumberGenerator
    // Pink noise (Paul Kellet's economy filter) and a few one-pole filters.
    var pink0: Float = 0, pink1: Float = 0, pink2: Float = 0
    var low: Float = 0, lower: Float = 0, brown: Float = 0
    // DC blocker: y = x − x₋₁ + r·y₋₁.
    var blockIn: Float = 0, blockOut: Float = 0
    // Two slow oscillators as rotating phasors (cheaper than sin per sample).
    var swell: Phasor
    var ripple: Phasor
    var count = 0
    let lowpass: Float, darkLowpass: Float, dcPole: Float

    init(sampleRate: Double, seed: UInt64, generated: Int = 0) {
        random = SeededRandomNumberGenerator(seed: seed)
        lowpass = Float(exp(-2 * Double.pi * 4_500 / sampleRate))
        darkLowpass = Float(exp(-2 * Double.pi * 900 / sampleRate))
        dcPole = Float(exp(-2 * Double.pi * 25 / sampleRate))
        // Ocean swells about every 9 s; a stream ripples a few times a second.
        swell = Phasor(hertz: 1 / 9.0, sampleRate: sampleRate, steps: generated)
        ripple = Phasor(hertz: 5.3, sampleRate: sampleRate, steps: generated)
    }

    /// Fills `buffer` with the bed's next samples × `gain`: one loop per bed, so the filters stay
    /// in registers.
    mutating func fill(_ buffer: UnsafeMutableBufferPointer<Float>, generator: AmbientGenerator, gain: Float) {
        switch generator {
        case .silent: buffer.update(repeating: 0)
        case .brown: for index in buffer.indices { buffer[index] = gain * (next(.brown)) }
        case .rain: for index in buffer.indices { buffer[index] = gain * (next(.rain)) }
        case .ocean: for index in buffer.indices { buffer[index] = gain * (next(.ocean)) }
        case .stream: for index in buffer.indices { buffer[index] = gain * (next(.stream)) }
        }
    }

    /// The next sample of `generator`'s bed, before normalization.
    @inline(__always)
    mutating func next(_ generator: AmbientGenerator) -> Float {
        count &+= 1
        if count & 4095 == 0 {
            swell.normalize()
            ripple.normalize()
        }
        switch generator {
        case .silent: return 0
        case .brown: return blockDC(brownStep())
        case .rain:
            // Pink noise, gently darkened: steady rain.
            low = lowpass * low + (1 - lowpass) * pink(white())
            return blockDC(low)
        case .ocean:
            // Brown noise, darkened further, rising and falling in slow swells (0.35 … 1: never
            // silent, surging as a wave comes in).
            lower = darkLowpass * lower + (1 - darkLowpass) * brownStep()
            let wave = 0.5 - 0.5 * Float(swell.next())
            return blockDC(lower) * (0.35 + 0.65 * wave * wave)
        case .stream:
            // Highs minus lows: a band of water's hiss, with a quick, uneven ripple.
            let white = white()
            low = lowpass * low + (1 - lowpass) * white
            lower = darkLowpass * lower + (1 - darkLowpass) * white
            let shimmer = 0.75 + 0.25 * Float(ripple.next()) * (0.6 + 0.4 * unit())
            return blockDC((low - lower) * shimmer)
        }
    }

    /// White noise, uniform in −1 ..< 1, from the top 24 bits of the core's seeded generator.
    private mutating func white() -> Float {
        Float(Int32(truncatingIfNeeded: Int64(bitPattern: random.next()) >> 40)) * 0x1p-23
    }

    /// Uniform in 0 ..< 1.
    private mutating func unit() -> Float { Float(UInt32(truncatingIfNeeded: random.next() >> 40)) * 0x1p-24 }

    private mutating func brownStep() -> Float {
        brown = 0.998 * brown + 0.04 * white()
        return brown
    }

    private mutating func blockDC(_ x: Float) -> Float {
        blockOut = x - blockIn + dcPole * blockOut
        blockIn = x
        return blockOut
    }

    private mutating func pink(_ white: Float) -> Float {
        pink0 = 0.99765 * pink0 + white * 0.0990460
        pink1 = 0.96300 * pink1 + white * 0.2965164
        pink2 = 0.57000 * pink2 + white * 1.0526913
        return pink0 + pink1 + pink2 + white * 0.1848
    }
}

/// A cosine oscillator that turns a unit vector each sample.
struct Phasor: Sendable {
    private(set) var cosine = 1.0, sine = 0.0
    private let stepCosine: Double, stepSine: Double

    /// A phasor turned on by `steps` steps from angle 0.
    init(hertz: Double, sampleRate: Double, steps: Int = 0) {
        let omega = 2 * Double.pi * hertz / sampleRate
        stepCosine = cos(omega)
        stepSine = sin(omega)
        guard steps != 0 else { return }
        // Whole turns taken out first, so the angle stays exact over hours of steps.
        let turns = (hertz * Double(steps) / sampleRate).truncatingRemainder(dividingBy: 1)
        cosine = cos(2 * Double.pi * turns)
        sine = sin(2 * Double.pi * turns)
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

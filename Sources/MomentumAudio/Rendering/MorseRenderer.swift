import Foundation
import MomentumCore

/// Renders keyed Morse elements as a clean sine tone, streaming in constant-size blocks.
///
/// Element boundaries fall on the frame nearest their exact time, counted from the start (never
/// accumulated per element), so a long text does not drift. Each key-down rises over the tone's
/// rise time from its start and falls over the same time from its end.
///
/// ```swift
/// let elements = try MorseKeyer(timing: MorseTiming(characterWPM: 20, effectiveWPM: 10)).elements(for: "PARIS ")
/// var renderer = MorseRenderer(elements: elements, tone: .standard, format: try AudioFormat(sampleRate: 48_000))
/// renderer.frameCount  // 288_000: six seconds
/// ```
public struct MorseRenderer: AudioSource {
    /// The tone's amplitude: −3 dB below the ceiling, comfortable in headphones.
    public static let level: Float = CueSynthesizer.peak * 0.71

    public let format: AudioFormat
    public let frameCount: Int

    /// Key-down spans as first frame and frame where the fall begins.
    private let marks: [(start: Int, end: Int)]
    /// The raised-cosine rise, `ramp[k]` for k = 0 … rise frames.
    private let ramp: [Float]
    private let omega: Double
    /// A chirp: the extra angular frequency at a mark's start and the frames it takes to fall to 1/e.
    private let chirp: (omega: Double, settlingFrames: Double)?
    private var nextMark = 0
    private var position = 0

    public init(elements: [MorseElement], tone: MorseTone, format: AudioFormat) {
        self.init(elements: elements, hertz: tone.hertz, rise: tone.rise, format: format)
    }

    /// A tone at any pitch below half the sample rate (another station at an offset may be
    /// outside the course's tone bounds); `chirp` starts each mark `hertz` higher, settling
    /// exponentially with the time constant given.
    init(
        elements: [MorseElement], hertz: Double, rise: Duration, format: AudioFormat,
        chirp: (hertz: Double, settling: Duration)? = nil
    ) {
        self.format = format
        self.chirp = chirp.map {
            (2 * Double.pi * $0.hertz / Double(format.sampleRate), $0.settling.inSeconds * Double(format.sampleRate))
        }
        var marks: [(start: Int, end: Int)] = []
        var elapsed = Duration.zero
        for element in elements {
            let start = format.frames(at: elapsed)
            elapsed += element.duration
            if element.isKeyDown { marks.append((start, format.frames(at: elapsed))) }
        }
        let rampFrames = max(1, format.frames(at: rise))
        ramp = (0...rampFrames).map { Float(0.5 - 0.5 * cos(Double.pi * Double($0) / Double(rampFrames))) }
        omega = 2 * Double.pi * hertz / Double(format.sampleRate)
        self.marks = marks
        // The last element's fall rings on past the keyed time if nothing follows it.
        frameCount = max(format.frames(at: elapsed), (marks.last?.end ?? 0) + rampFrames)
    }

    /// The envelope of a mark at `frame`: rising from its start, falling from its end.
    @inline(__always)
    private func envelope(_ mark: (start: Int, end: Int), at frame: Int) -> Float {
        let rampFrames = ramp.count - 1
        let sinceStart = frame - mark.start
        let rising = sinceStart < rampFrames ? ramp[sinceStart] : 1
        let sinceEnd = frame - mark.end
        guard sinceEnd >= 0 else { return rising }
        return sinceEnd < rampFrames ? rising * (1 - ramp[sinceEnd]) : 0
    }

    public mutating func render(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        let channels = format.channels
        let frames = min(buffer.count / channels, frameCount - position)
        guard frames > 0 else { return 0 }
        let block = UnsafeMutableBufferPointer(rebasing: buffer[0..<frames * channels])
        block.update(repeating: 0)
        let blockEnd = position + frames
        let tail = ramp.count - 1
        // Marks that ended (fall included) before this block are done.
        while nextMark < marks.count && marks[nextMark].end + tail <= position { nextMark += 1 }
        var index = nextMark
        while index < marks.count && marks[index].start < blockEnd {
            let mark = marks[index]
            let from = max(position, mark.start)
            let to = min(blockEnd, mark.end + tail)
            if from < to, let chirp {
                // The phase runs on from the mark's start, each frame a little higher at first.
                var phase = omega * Double(mark.start)
                for frame in mark.start..<to {
                    if frame >= from {
                        let value = Self.level * envelope(mark, at: frame) * Float(sin(phase))
                        for channel in 0..<channels { block[(frame - position) * channels + channel] += value }
                    }
                    phase += omega + chirp.omega * exp(-Double(frame - mark.start) / chirp.settlingFrames)
                }
            } else if from < to {
                // A phasor started from the exact phase at `from`: the tone stays coherent.
                var cosine = cos(omega * Double(from))
                var sine = sin(omega * Double(from))
                let (stepCosine, stepSine) = (cos(omega), sin(omega))
                for frame in from..<to {
                    let value = Self.level * envelope(mark, at: frame) * Float(sine)
                    for channel in 0..<channels { block[(frame - position) * channels + channel] += value }
                    (cosine, sine) = (cosine * stepCosine - sine * stepSine, sine * stepCosine + cosine * stepSine)
                }
            }
            index += 1
        }
        position = blockEnd
        return frames
    }
}

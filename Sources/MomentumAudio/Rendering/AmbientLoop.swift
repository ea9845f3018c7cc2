import Foundation
import MomentumCore

/// A stretch of an ambient bed that loops without a seam, for players that can only loop a
/// buffer (the browser's Web Audio).
///
/// The bed is generated for `length + crossfade`; the last `crossfade` of the loop blends, at
/// equal power, from the bed running on into the bed's own first moments, so the end flows into
/// the start as the bed would have flowed on. It plays at volume 1 (RMS ``AmbientBed/level``);
/// the player sets the volume and the fades.
///
/// ```swift
/// var loop = AmbientLoop(generator: .rain, format: .liveAmbient)
/// try WAVFileWriter.render(&loop, to: url)
/// ```
public struct AmbientLoop: AudioSource, Sendable {
    /// Long enough that a listener does not notice the repeat.
    public static let length: Duration = .seconds(30)
    public static let crossfade: Duration = .seconds(3)

    public let format: AudioFormat
    public let frameCount: Int
    private let crossfadeFrames: Int
    private var beds: [AmbientBed]
    /// The bed's first `crossfadeFrames` per channel, blended into the loop's end.
    private let head: [[Float]]
    private var position = 0
    private var scratch: [Float] = []

    public init(generator: AmbientGenerator, format: AudioFormat, seed: UInt64 = 1) {
        self.format = format
        frameCount = format.frames(at: Self.length)
        crossfadeFrames = format.frames(at: Self.crossfade)
        var beds = AmbientBed.perChannel(generator, format: format, seed: seed)
        let count = crossfadeFrames
        head = beds.indices.map { channel in
            var samples = [Float](repeating: 0, count: count)
            samples.withUnsafeMutableBufferPointer { beds[channel].fill($0) }
            return samples
        }
        self.beds = beds
    }

    public mutating func render(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        let channels = format.channels
        let frames = min(buffer.count / channels, frameCount - position)
        guard frames > 0 else { return 0 }
        if scratch.count < frames { scratch = [Float](repeating: 0, count: frames) }
        let blendStart = frameCount - crossfadeFrames
        for channel in 0..<channels {
            scratch.withUnsafeMutableBufferPointer { beds[channel].fill($0) }
            for frame in 0..<frames {
                let at = position + frame
                var sample = scratch[frame]
                if at >= blendStart {
                    let into = at - blendStart
                    let angle = Float.pi / 2 * Float(into) / Float(crossfadeFrames)
                    sample = sample * cos(angle) + head[channel][into] * sin(angle)
                }
                buffer[frame * channels + channel] = sample
            }
        }
        position += frames
        return frames
    }
}

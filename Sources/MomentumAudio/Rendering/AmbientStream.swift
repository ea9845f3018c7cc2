import Foundation
import MomentumCore

/// An ambient bed played live: endless, and faded in or out over 1.5 s whenever the practice
/// starts, pauses, resumes or stops.
///
/// A fade that is reversed half way turns back from where it is, so quick pause–resume presses
/// never jump in loudness. While faded out the stream renders silence, which keeps a player
/// reading from it in step.
///
/// ```swift
/// var stream = AmbientStream(generator: .rain, volume: 0.15, format: format, seed: 1)
/// stream.fadeIn()
/// stream.renderPCM(into: &block)   // 16-bit samples for a player's standard input
/// ```
public struct AmbientStream: Sendable {
    public let format: AudioFormat
    private var beds: [AmbientBed]
    private let volume: Float
    private let fadeFrames: Int
    /// Where the fade stands: 0 silent … `fadeFrames` fully in.
    private(set) var progress = 0
    private var audible = false
    private var scratch: [Float] = []
    private var mixed: [Float] = []

    public init(generator: AmbientGenerator, volume: Double, format: AudioFormat, seed: UInt64) {
        self.format = format
        self.volume = Float(min(1, max(0, volume)))
        fadeFrames = format.frames(at: AmbientBed.fade)
        beds = AmbientBed.perChannel(generator, format: format, seed: seed)
    }

    /// Starts (or continues) fading in.
    public mutating func fadeIn() { audible = true }
    /// Starts (or continues) fading out.
    public mutating func fadeOut() { audible = false }
    /// Whether the stream is faded out completely and stays so until ``fadeIn()``.
    public var isSilent: Bool { !audible && progress == 0 }

    /// The gain at fade position `progress`: a raised cosine from 0 to `volume`.
    private func gain(at progress: Int) -> Float {
        volume * AmbientBed.fadeGain(Float(progress) / Float(fadeFrames))
    }

    /// Renders the next `frames` frames (interleaved when stereo).
    public mutating func render(frames: Int) -> [Float] {
        let channels = format.channels
        if mixed.count != frames * channels { mixed = [Float](repeating: 0, count: frames * channels) }
        if scratch.count != frames { scratch = [Float](repeating: 0, count: frames) }
        let start = progress
        let direction = audible ? 1 : -1
        for channel in 0..<channels {
            scratch.withUnsafeMutableBufferPointer { beds[channel].fill($0) }
            var position = start
            for frame in 0..<frames {
                position = min(fadeFrames, max(0, position + direction))
                mixed[frame * channels + channel] = gain(at: position) * scratch[frame]
            }
            progress = position
        }
        return mixed
    }

    /// Renders the next `frames` frames as 16-bit little-endian PCM, as a raw player reads it.
    public mutating func renderPCM(frames: Int) -> [Int16] {
        render(frames: frames).map { WAVFile.pcm($0).littleEndian }
    }
}

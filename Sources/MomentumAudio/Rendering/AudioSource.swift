import Foundation

/// Audio rendered block by block, in constant memory, as Float samples (interleaved when stereo).
///
/// ```swift
/// var source = try TimelineRenderer(timeline: timeline, format: format)
/// var block = [Float](repeating: 0, count: 4096 * format.channels)
/// while case let frames = block.withUnsafeMutableBufferPointer({ source.render(into: $0) }), frames > 0 { … }
/// ```
public protocol AudioSource {
    var format: AudioFormat { get }
    /// How many frames the source renders in all.
    var frameCount: Int { get }
    /// Renders the next frames into `buffer` (as many as fit), returning how many; 0 at the end.
    mutating func render(into buffer: UnsafeMutableBufferPointer<Float>) -> Int
}

extension AudioSource {
    /// Every frame at once; for tests and short sounds only.
    public mutating func renderAll(blockFrames: Int = 4096) -> [Float] {
        var samples: [Float] = []
        samples.reserveCapacity(frameCount * format.channels)
        var block = [Float](repeating: 0, count: blockFrames * format.channels)
        while true {
            let frames = block.withUnsafeMutableBufferPointer { render(into: $0) }
            guard frames > 0 else { break }
            samples += block[0..<frames * format.channels]
        }
        return samples
    }
}

/// Keeps the mix under −1 dBFS: when overlapping sounds would pass it, the gain drops at once
/// to just fit and recovers smoothly over about 100 ms. Below the ceiling it does nothing.
struct PeakLimiter: Sendable {
    let ceiling: Float
    private let recovery: Float
    private var gain: Float = 1
    /// Frames processed since the last one louder than the ceiling (before limiting). Once it is
    /// a second or more, the gain is back at exactly 1 (it recovers to within 1e-4 and snaps in
    /// 0.92 s): the limiter is at rest, as one started fresh before those frames would be.
    private(set) var framesSinceLoud = Int.max / 2

    init(ceiling: Float, sampleRate: Int) {
        self.ceiling = ceiling
        recovery = 1 - Float(exp(-1 / (0.1 * Double(sampleRate))))
    }

    /// Limits frames of `channels` interleaved samples in place; both channels share one gain.
    mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>, channels: Int) {
        if gain == 1 {
            // The loudest sample by its bits (sign cleared): integer compares vectorize where
            // Float `max`, with its care for not-a-number, does not. This scan runs over every
            // sample of every render.
            var loudest: UInt32 = 0
            UnsafeRawBufferPointer(buffer).withMemoryRebound(to: UInt32.self) { bits in
                for pattern in bits {
                    let magnitude = pattern & 0x7FFF_FFFF
                    loudest = magnitude > loudest ? magnitude : loudest
                }
            }
            let top = Float(bitPattern: loudest)
            if top <= ceiling {
                framesSinceLoud = min(Int.max / 2, framesSinceLoud + buffer.count / max(1, channels))
                return
            }
        }
        var index = 0
        while index < buffer.count {
            var frameLoudest: Float = 0
            for channel in 0..<channels { frameLoudest = max(frameLoudest, abs(buffer[index + channel])) }
            framesSinceLoud = frameLoudest > ceiling ? 0 : min(Int.max / 2, framesSinceLoud + 1)
            gain = min(1, gain + (1 - gain) * recovery)
            if gain > 0.9999 { gain = 1 }
            // A hair under the ceiling, so Float rounding cannot land above it.
            if frameLoudest * gain > ceiling { gain = ceiling / frameLoudest * 0.9999 }
            for channel in 0..<channels { buffer[index + channel] *= gain }
            index += channels
        }
    }
}

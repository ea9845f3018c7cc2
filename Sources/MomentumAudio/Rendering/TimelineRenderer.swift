import Foundation
import MomentumCore

/// Renders a timeline — its ambient bed and every cue at its exact sample — as one piece of audio.
///
/// The ambient bed fades in over 1.5 s from the start and out over 1.5 s from the end of the
/// timeline; the last cue (the end gong) starts at the end and rings out, so the audio lasts until
/// the longer of the two. Cue sounds are synthesized once; everything else is made block by block
/// (``TimelineBlocks``), so memory stays the same for a ten-minute and a ten-hour session, and the
/// file is the same samples as any stretch of it rendered on its own (``TimelineReader``).
///
/// ```swift
/// var renderer = try TimelineRenderer(timeline: plan.timeline(), format: AudioFormat(sampleRate: 44_100))
/// try WAVFileWriter.render(&renderer, to: url)
/// ```
public struct TimelineRenderer: StretchableAudioSource, Sendable {
    private var reader: TimelineReader

    public var format: AudioFormat { reader.format }
    public var frameCount: Int { reader.frameCount }

    public init(
        timeline: Timeline, format: AudioFormat, ambientCatalog: AmbientCatalog = .builtIn, seed: UInt64 = 1
    ) throws(RenderError) {
        reader = TimelineReader(
            blocks: try TimelineBlocks(timeline: timeline, format: format, ambientCatalog: ambientCatalog, seed: seed))
    }

    static func generator(for choice: AmbientChoice?, catalog: AmbientCatalog) throws(RenderError) -> AmbientGenerator {
        guard let choice else { return .silent }
        guard let sound = catalog.sound(id: choice.id) else { throw .unknownAmbient(choice.id) }
        guard case .generator(let generator) = sound.source else { throw .ambientFileNotRenderable(choice.id) }
        return generator
    }

    /// Cue samples (all within ±`CueSynthesizer.peak`) as 16-bit integers, as in a WAV file.
    static func compact(_ samples: [Float]) -> [Int16] {
        samples.map(WAVFile.pcm)
    }

    public mutating func render(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        reader.render(into: buffer)
    }

    /// Blocks: a stretch starting at one renders the same samples as the whole file there.
    public var stretchUnit: Int { TimelineBlocks.blockFrames }

    public func reading(from frame: Int) -> TimelineRenderer {
        var copy = self
        copy.reader = TimelineReader(blocks: reader.blocks)
        copy.reader.seek(to: frame)
        return copy
    }
}

/// Why a timeline or Morse text cannot be rendered to audio.
public enum RenderError: Error, Equatable, Sendable {
    /// An open-ended sit has no length to render.
    case openEnded
    case unknownAmbient(String)
    /// People's own ambient files are played, not rendered, for now.
    case ambientFileNotRenderable(String)
    case ambientVolumeOutOfRange
}

import Foundation
import MomentumCore

/// Renders a timeline — its ambient bed and every cue at its exact sample — as one piece of audio.
///
/// The ambient bed fades in over 1.5 s from the start and out over 1.5 s from the end of the
/// timeline; the last cue (the end gong) starts at the end and rings out, so the audio lasts until
/// the longer of the two. Cue sounds are synthesized once; everything else streams, so memory
/// stays the same for a ten-minute and a ten-hour session.
///
/// ```swift
/// var renderer = try TimelineRenderer(timeline: plan.timeline(), format: AudioFormat(sampleRate: 44_100))
/// try WAVFileWriter.render(&renderer, to: url)
/// ```
public struct TimelineRenderer: AudioSource {
    public let format: AudioFormat
    public let frameCount: Int

    /// Each cue: its first frame and the index of its sound in `sounds`.
    private let schedule: [(frame: Int, sound: Int)]
    private let sounds: [[Int16]]
    private var nextCue = 0
    private var playing: [(frame: Int, sound: Int)] = []

    private var beds: [AmbientBed]
    private let ambientGain: Float
    private let fadeFrames: Int
    private let ambientEnd: Int

    private var limiter: PeakLimiter
    private var scratch: [Float] = []
    private var position = 0

    public init(
        timeline: Timeline, format: AudioFormat, ambientCatalog: AmbientCatalog = .builtIn, seed: UInt64 = 1
    ) throws(RenderError) {
        guard let total = timeline.totalDuration else { throw .openEnded }
        self.format = format
        let synthesizer = CueSynthesizer(sampleRate: format.sampleRate)
        var soundIndex: [CueSound: Int] = [:]
        var sounds: [[Int16]] = []
        var schedule: [(frame: Int, sound: Int)] = []
        var end = format.frames(at: total)
        for cue in timeline.cues(after: .zero, includingLower: true, through: total) {
            guard let sound = cue.sound else { continue }
            let index =
                soundIndex[sound]
                ?? {
                    sounds.append(Self.compact(synthesizer.samples(for: sound)))
                    soundIndex[sound] = sounds.count - 1
                    return sounds.count - 1
                }()
            let frame = format.frames(at: cue.offset)
            schedule.append((frame, index))
            end = max(end, frame + sounds[index].count)
        }
        self.schedule = schedule
        self.sounds = sounds

        let generator = try Self.generator(for: timeline.ambient, catalog: ambientCatalog)
        let volume = timeline.ambient?.volume ?? 0
        guard (0...1).contains(volume) else { throw .ambientVolumeOutOfRange }
        if generator == .silent || volume == 0 {
            beds = []
        } else {
            beds = AmbientBed.perChannel(generator, format: format, seed: seed)
        }
        ambientGain = Float(volume)
        fadeFrames = format.frames(at: AmbientBed.fade)
        ambientEnd = format.frames(at: total) + (beds.isEmpty ? 0 : fadeFrames)
        frameCount = max(end, ambientEnd)
        limiter = PeakLimiter(ceiling: CueSynthesizer.peak, sampleRate: format.sampleRate)
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
        let channels = format.channels
        let frames = min(buffer.count / channels, frameCount - position)
        guard frames > 0 else { return 0 }
        let block = UnsafeMutableBufferPointer(rebasing: buffer[0..<frames * channels])
        block.update(repeating: 0)
        addAmbient(to: block, frames: frames)
        addCues(to: block, frames: frames)
        limiter.process(block, channels: channels)
        position += frames
        return frames
    }

    /// The bed's gain at `frame`: fading in from 0, level, fading out after the timeline's end.
    private static func fade(at frame: Int, fadeFrames: Int, end: Int) -> Float {
        let fromStart = Float(frame) / Float(fadeFrames)
        let toEnd = Float(end - frame) / Float(fadeFrames)
        let ramp = min(1, max(0, min(fromStart, toEnd)))
        return AmbientBed.fadeGain(ramp)
    }

    private mutating func addAmbient(to block: UnsafeMutableBufferPointer<Float>, frames: Int) {
        guard !beds.isEmpty, position < ambientEnd else { return }
        if scratch.count < frames { scratch = [Float](repeating: 0, count: frames) }
        let (channels, start, gain) = (format.channels, position, ambientGain)
        let (fadeFrames, end) = (self.fadeFrames, ambientEnd)
        let steady = start >= fadeFrames && start + frames <= end - fadeFrames
        for channel in 0..<channels {
            scratch.withUnsafeMutableBufferPointer { noise in
                let part = UnsafeMutableBufferPointer(rebasing: noise[0..<frames])
                beds[channel].fill(part)
                if steady && channels == 1 {
                    for frame in 0..<frames { block[frame] += gain * part[frame] }
                } else if steady {
                    for frame in 0..<frames { block[frame &* channels &+ channel] += gain * part[frame] }
                } else {
                    for frame in 0..<frames {
                        let faded = gain * Self.fade(at: start + frame, fadeFrames: fadeFrames, end: end)
                        block[frame * channels + channel] += faded * part[frame]
                    }
                }
            }
        }
    }

    private mutating func addCues(to block: UnsafeMutableBufferPointer<Float>, frames: Int) {
        let blockEnd = position + frames
        while nextCue < schedule.count && schedule[nextCue].frame < blockEnd {
            playing.append(schedule[nextCue])
            nextCue += 1
        }
        let (channels, start, sounds) = (format.channels, position, self.sounds)
        let unit: Float = 1 / 32_767
        for cue in playing {
            sounds[cue.sound].withUnsafeBufferPointer { samples in
                let from = max(start, cue.frame)
                let to = min(blockEnd, cue.frame + samples.count)
                guard from < to else { return }
                for frame in from..<to {
                    let value = Float(samples[frame - cue.frame]) * unit
                    for channel in 0..<channels { block[(frame - start) * channels + channel] += value }
                }
            }
        }
        playing.removeAll { $0.frame + sounds[$0.sound].count <= blockEnd }
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

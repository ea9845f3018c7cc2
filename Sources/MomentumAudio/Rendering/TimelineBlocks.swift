import Foundation
import MomentumCore

/// A timeline's audio as blocks of ``blockFrames`` frames, each computed from its first frame
/// alone: any stretch of a session can be rendered without rendering what comes before it.
///
/// - Cues are placed at their exact frame; a cue struck before a block rings on into it.
/// - An ambient bed is made of pieces of ``blockFrames`` frames, each generated from a seed of its
///   own (the renderer's seed and the piece's index), warmed up before it is heard and handed over
///   to the next piece over ``noiseCrossfade`` frames at equal power. So a block's noise is the
///   same whichever range asks for it, and the bed has no seam. Its slow swells and ripples run on
///   from the session's start, not from the piece's.
/// - The peak limiter starts each block at rest one second before the block and runs over that
///   second: it settles within it (its gain recovers over about 100 ms), so the block sounds as
///   if the limiter had run from the start. Rendering in order carries the limiter on instead
///   whenever nothing was louder than the ceiling in that second — then both ways it is at rest,
///   gain exactly 1 — so a whole file pays for settling only just after limiting, and the samples
///   are the same either way.
/// - In order, a piece of the bed is generated once: its start doubles as the previous piece's
///   hand-over.
///
/// The whole session is the blocks one after another: ``TimelineRenderer`` plays them in order,
/// ``TimelineReader`` from any frame, and both give the same samples.
///
/// ```swift
/// let blocks = try TimelineBlocks(timeline: timeline, format: format)
/// var block = [Float](repeating: 0, count: TimelineBlocks.blockFrames * format.channels)
/// let frames = block.withUnsafeMutableBufferPointer { blocks.render(block: 7, into: $0) }
/// ```
public struct TimelineBlocks: Sendable {
    /// Frames per block: about 3 s at 22.05 kHz, 1.4 s at 48 kHz; a multiple of every bed's
    /// oversampling, so every piece of a bed lies on the same grid.
    public static let blockFrames = 65_536
    /// How long each piece of a bed runs unheard first, so its filters have settled.
    static let noiseWarmUp = 8_192
    /// How long one piece of a bed takes to hand over to the next.
    static let noiseCrossfade = 4_096

    public let format: AudioFormat
    /// Frames in all: the timeline, the ring-out of its last cue and the bed's fade-out.
    public let frameCount: Int
    /// How many blocks the session has; the last may be shorter.
    public var blockCount: Int { (frameCount + Self.blockFrames - 1) / Self.blockFrames }

    struct ScheduledCue: Sendable {
        var frame: Int
        var sound: Int
    }

    /// Each cue, in order of its first frame.
    private let schedule: [ScheduledCue]
    private let sounds: [[Int16]]
    private let longestSound: Int
    /// `.silent` when there is no bed to hear.
    private let generator: AmbientGenerator
    /// Per channel: what brings the bed to its level.
    private let bedGains: [Float]
    private let ambientGain: Float
    private let fadeFrames: Int
    private let ambientEnd: Int
    private let seed: UInt64
    private let limiterPreRoll: Int

    /// - Parameters:
    ///   - openEndedLength: how long to make an open-ended timeline (one without an end; cues due
    ///     at or after it are left out); without it such a timeline is refused with
    ///     ``RenderError/openEnded``.
    ///   - playsBed: `false` leaves the ambient bed silent and keeps the session's length (its
    ///     fade-out included), so a player can switch between the two at the same position; the
    ///     cues are the same samples as those of the timeline without a bed.
    public init(
        timeline: Timeline, format: AudioFormat, ambientCatalog: AmbientCatalog = .builtIn, seed: UInt64 = 1,
        openEndedLength: Duration? = nil, playsBed: Bool = true
    ) throws(RenderError) {
        guard let total = timeline.totalDuration ?? openEndedLength else { throw .openEnded }
        self.format = format
        self.seed = seed
        let synthesizer = CueSynthesizer(sampleRate: format.sampleRate)
        var soundIndex: [CueSound: Int] = [:]
        var sounds: [[Int16]] = []
        var schedule: [ScheduledCue] = []
        var end = format.frames(at: total)
        for cue in timeline.cues(after: .zero, includingLower: true, through: total) {
            // An open-ended timeline ends where it is cut: a gong due there is not struck.
            guard let sound = cue.sound, timeline.totalDuration != nil || cue.offset < total else { continue }
            let index =
                soundIndex[sound]
                ?? {
                    sounds.append(TimelineRenderer.compact(synthesizer.samples(for: sound)))
                    soundIndex[sound] = sounds.count - 1
                    return sounds.count - 1
                }()
            let frame = format.frames(at: cue.offset)
            schedule.append(ScheduledCue(frame: frame, sound: index))
            end = max(end, frame + sounds[index].count)
        }
        self.schedule = schedule.sorted { $0.frame < $1.frame }
        self.sounds = sounds
        longestSound = sounds.map(\.count).max() ?? 0

        let generator = try TimelineRenderer.generator(for: timeline.ambient, catalog: ambientCatalog)
        let volume = timeline.ambient?.volume ?? 0
        guard (0...1).contains(volume) else { throw .ambientVolumeOutOfRange }
        let audible = generator != .silent && volume > 0
        self.generator = audible && playsBed ? generator : .silent
        bedGains = audible && playsBed ? AmbientBed.perChannel(generator, format: format, seed: seed).map(\.gain) : []
        ambientGain = Float(volume)
        fadeFrames = format.frames(at: AmbientBed.fade)
        ambientEnd = format.frames(at: total) + (audible ? fadeFrames : 0)
        frameCount = max(end, ambientEnd)
        limiterPreRoll = min(format.sampleRate, Self.blockFrames)
    }

    /// Renders block `index` into `buffer` (room for ``blockFrames`` frames), returning its frames;
    /// 0 past the end.
    public func render(block index: Int, into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        var pieces = BedPieces()
        return render(block: index, into: buffer, pieces: &pieces)
    }

    /// Renders block `index`, taking the pieces of the bed it needs from `pieces` when they are
    /// there and leaving them there (a reader going block by block makes each piece once).
    func render(block index: Int, into buffer: UnsafeMutableBufferPointer<Float>, pieces: inout BedPieces) -> Int {
        let channels = format.channels
        let start = index * Self.blockFrames
        let frames = min(Self.blockFrames, frameCount - start, buffer.count / channels)
        guard index >= 0, frames > 0 else { return 0 }
        let block = UnsafeMutableBufferPointer(rebasing: buffer[0..<frames * channels])
        // The limiter's second before comes first: it lies in the previous piece of the bed, which
        // the block's own piece then replaces among the kept ones.
        var limiter = PeakLimiter(ceiling: CueSynthesizer.peak, sampleRate: format.sampleRate)
        if let carried = pieces.limiter, carried.frame == start, carried.limiter.framesSinceLoud >= limiterPreRoll {
            // At rest, exactly as a limiter settled over the second before would be.
            limiter = carried.limiter
        } else if start > 0 {
            let preRoll = min(limiterPreRoll, start)
            var before = [Float](repeating: 0, count: preRoll * channels)
            before.withUnsafeMutableBufferPointer { before in
                mix(from: start - preRoll, into: before, pieces: &pieces)
                limiter.process(before, channels: channels)
            }
        }
        mix(from: start, into: block, pieces: &pieces)
        limiter.process(block, channels: channels)
        pieces.limiter = (start + frames, limiter)
        return frames
    }

    /// The bed and the cues from frame `start`, before the limiter; as many frames as `buffer` holds.
    private func mix(from start: Int, into buffer: UnsafeMutableBufferPointer<Float>, pieces: inout BedPieces) {
        buffer.update(repeating: 0)
        addAmbient(from: start, into: buffer, pieces: &pieces)
        addCues(from: start, into: buffer)
    }

    /// The bed's gain at `frame`: fading in from 0, level, fading out after the timeline's end.
    private func fade(at frame: Int) -> Float {
        let fromStart = Float(frame) / Float(fadeFrames)
        let toEnd = Float(ambientEnd - frame) / Float(fadeFrames)
        return AmbientBed.fadeGain(min(1, max(0, min(fromStart, toEnd))))
    }

    private func addAmbient(
        from start: Int, into buffer: UnsafeMutableBufferPointer<Float>, pieces: inout BedPieces
    ) {
        let channels = format.channels
        let end = min(start + buffer.count / channels, ambientEnd)
        guard generator != .silent, start < end else { return }
        let blockFrames = Self.blockFrames
        for channel in 0..<channels {
            var frame = start
            while frame < end {
                let piece = frame / blockFrames
                let pieceStart = piece * blockFrames
                let pieceEnd = min(end, pieceStart + blockFrames)
                let noise: [Float]
                if let kept = pieces.kept(piece: piece, channel: channel) {
                    noise = kept
                } else {
                    noise = bed(piece: piece, channel: channel, pieces: &pieces)
                    pieces.keep(noise, piece: piece, channel: channel)
                }
                // Between the fades the gain is one number: a plain loop the compiler vectorizes.
                let steadyFrom = min(max(frame, fadeFrames), pieceEnd)
                let steadyTo = max(steadyFrom, min(pieceEnd, ambientEnd - fadeFrames + 1))
                noise.withUnsafeBufferPointer { noise in
                    for at in frame..<steadyFrom {
                        buffer[(at - start) * channels + channel] += ambientGain * fade(at: at) * noise[at - pieceStart]
                    }
                    let gain = ambientGain
                    if channels == 1, let target = buffer.baseAddress, let source = noise.baseAddress {
                        let (target, source) = (target + (steadyFrom - start), source + (steadyFrom - pieceStart))
                        for index in 0..<(steadyTo - steadyFrom) { target[index] += gain * source[index] }
                    } else {
                        for at in steadyFrom..<steadyTo {
                            buffer[(at - start) * channels + channel] += gain * noise[at - pieceStart]
                        }
                    }
                    for at in steadyTo..<pieceEnd {
                        buffer[(at - start) * channels + channel] += ambientGain * fade(at: at) * noise[at - pieceStart]
                    }
                }
                frame = pieceEnd
            }
        }
    }

    /// Piece `piece` of the bed of `channel`: ``blockFrames`` frames, ending in the hand-over to
    /// the next piece.
    func bed(piece: Int, channel: Int) -> [Float] {
        var pieces = BedPieces()
        return bed(piece: piece, channel: channel, pieces: &pieces)
    }

    /// The same, taking the generated noise of `piece` and the next from `pieces` when it is
    /// there (the next piece's noise begins with this one's hand-over).
    func bed(piece: Int, channel: Int, pieces: inout BedPieces) -> [Float] {
        let (blockFrames, warmUp, crossfade) = (Self.blockFrames, Self.noiseWarmUp, Self.noiseCrossfade)
        // Each piece is heard from `crossfade` frames before its block (fading in) to its block's end.
        func generate(_ piece: Int, frames: Int) -> [Float] {
            var mixer = SeededRandomNumberGenerator(
                seed: seed &+ UInt64(truncatingIfNeeded: piece) &* 0xD1B5_4A32_D192_ED03 &+ UInt64(channel) &* 7919)
            let first = piece * blockFrames - crossfade - warmUp
            var bed = AmbientBed(
                generator: generator, sampleRate: format.sampleRate, seed: mixer.next(), gain: bedGains[channel],
                generated: first / max(1, format.sampleRate / 11_025))
            var samples = [Float](repeating: 0, count: frames)
            samples.withUnsafeMutableBufferPointer { bed.fill($0) }
            return samples
        }
        let frames = warmUp + crossfade + blockFrames
        let offset = warmUp + crossfade
        var samples = Array(pieces.noise(piece: piece, channel: channel) { generate(piece, frames: frames) }[offset...])
        // This piece's noise is not needed again once its samples are made: let it go before the
        // next piece's is generated.
        pieces.forget(piece: piece, channel: channel)
        let next = pieces.noise(piece: piece + 1, channel: channel) { generate(piece + 1, frames: frames) }
        let handover = blockFrames - crossfade
        for index in 0..<crossfade {
            let angle = Float.pi / 2 * (Float(index) + 0.5) / Float(crossfade)
            samples[handover + index] = samples[handover + index] * cos(angle) + next[warmUp + index] * sin(angle)
        }
        return samples
    }

    private func addCues(from start: Int, into buffer: UnsafeMutableBufferPointer<Float>) {
        let channels = format.channels
        let end = start + buffer.count / channels
        // The first cue that may still ring at `start`.
        var low = 0
        var high = schedule.count
        while low < high {
            let middle = (low + high) / 2
            if schedule[middle].frame + longestSound <= start { low = middle + 1 } else { high = middle }
        }
        let unit: Float = 1 / 32_767
        for cue in schedule[low...] {
            guard cue.frame < end else { break }
            sounds[cue.sound].withUnsafeBufferPointer { samples in
                let from = max(start, cue.frame)
                let to = min(end, cue.frame + samples.count)
                guard from < to else { return }
                for frame in from..<to {
                    let value = Float(samples[frame - cue.frame]) * unit
                    for channel in 0..<channels { buffer[(frame - start) * channels + channel] += value }
                }
            }
        }
    }
}

/// What rendering the next block in order can take over from the last: the pieces of a bed made
/// last, the noise they were made of, and the limiter where it stopped.
struct BedPieces: Sendable {
    private var kept: [(piece: Int, channel: Int, samples: [Float])] = []
    private var generated: [(piece: Int, channel: Int, samples: [Float])] = []
    /// How many pieces of each kind are kept. Rendering in order needs, for every channel, the
    /// next piece's noise (the hand-over, which its own piece then starts from) and the last piece
    /// (the limiter's second before, taken before the block's own piece is made).
    var capacity = 4
    /// The limiter after the last block, and the frame it continues at.
    var limiter: (frame: Int, limiter: PeakLimiter)?

    /// The generated noise of piece `piece` of `channel`'s bed (before its hand-over), made by
    /// `make` unless kept; the last ``capacity`` are kept.
    mutating func noise(piece: Int, channel: Int, make: () -> [Float]) -> [Float] {
        if let found = generated.first(where: { $0.piece == piece && $0.channel == channel }) { return found.samples }
        let samples = make()
        generated.append((piece, channel, samples))
        if generated.count > capacity { generated.removeFirst() }
        return samples
    }

    /// Lets go of the generated noise of piece `piece` of `channel`'s bed.
    mutating func forget(piece: Int, channel: Int) {
        generated.removeAll { $0.piece == piece && $0.channel == channel }
    }

    /// Piece `piece` of `channel`'s bed, if it is kept.
    func kept(piece: Int, channel: Int) -> [Float]? {
        kept.first { $0.piece == piece && $0.channel == channel }?.samples
    }

    /// Keeps a piece of a bed; the last ``capacity`` are kept.
    mutating func keep(_ samples: [Float], piece: Int, channel: Int) {
        kept.append((piece, channel, samples))
        if kept.count > capacity { kept.removeFirst() }
    }
}

/// A session's audio read from any frame: ``TimelineBlocks`` rendered as they are reached, the
/// current one kept.
///
/// ```swift
/// var reader = TimelineReader(blocks: blocks)
/// reader.seek(to: 30 * 60 * 22_050)  // half an hour in
/// let frames = block.withUnsafeMutableBufferPointer { reader.render(into: $0) }
/// ```
public struct TimelineReader: AudioSource, Sendable {
    public let blocks: TimelineBlocks
    public var format: AudioFormat { blocks.format }
    public var frameCount: Int { blocks.frameCount }
    /// The next frame ``render(into:)`` gives.
    public private(set) var position = 0
    private var current = -1
    private var samples: [Float]
    private var pieces = BedPieces()

    public init(blocks: TimelineBlocks) {
        self.blocks = blocks
        samples = [Float](repeating: 0, count: TimelineBlocks.blockFrames * blocks.format.channels)
        pieces.capacity = blocks.format.channels
    }

    /// Goes to `frame` (clamped to the session); the next render starts there.
    public mutating func seek(to frame: Int) {
        position = min(max(0, frame), frameCount)
    }

    public mutating func render(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        let channels = format.channels
        let frames = min(buffer.count / channels, frameCount - position)
        guard frames > 0 else { return 0 }
        var done = 0
        while done < frames {
            let index = (position + done) / TimelineBlocks.blockFrames
            if index != current {
                let blocks = self.blocks
                // Taken, not shared, while the block renders: a piece let go is freed at once.
                var pieces = self.pieces
                self.pieces = BedPieces()
                _ = samples.withUnsafeMutableBufferPointer { blocks.render(block: index, into: $0, pieces: &pieces) }
                self.pieces = pieces
                current = index
            }
            let within = position + done - index * TimelineBlocks.blockFrames
            let count = min(frames - done, TimelineBlocks.blockFrames - within)
            samples.withUnsafeBufferPointer { block in
                let source = UnsafeBufferPointer(rebasing: block[within * channels..<(within + count) * channels])
                let target = UnsafeMutableBufferPointer(rebasing: buffer[done * channels..<(done + count) * channels])
                _ = target.update(fromContentsOf: source)
            }
            done += count
        }
        position += frames
        return frames
    }
}

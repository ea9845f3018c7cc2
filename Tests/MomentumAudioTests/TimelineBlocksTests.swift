import Foundation
import MomentumCore
import Testing

@testable import MomentumAudio

@Suite("A timeline rendered from any frame: the same samples as the whole file")
struct TimelineBlocksTests {
    static let block = TimelineBlocks.blockFrames

    /// Cues that ring across block boundaries (at 8 kHz a block is 8.192 s), three gongs at once
    /// just before a boundary (the limiter works across it) and a bed whose pieces hand over at
    /// every block's end.
    static func timeline(ambient: String) throws -> Timeline {
        try Timeline(
            practice: .meditation,
            segments: [Segment(kind: .meditation, start: .zero, duration: .seconds(30))],
            cues: [
                Cue(offset: .zero, sound: .startGong), Cue(offset: .seconds(8), sound: .intervalGong),
                Cue(offset: .milliseconds(16_200), sound: .startGong),
                Cue(offset: .milliseconds(16_200), sound: .endGong),
                Cue(offset: .milliseconds(16_250), sound: .phaseGong), Cue(offset: .seconds(30), sound: .endGong),
            ],
            ambient: AmbientChoice(id: ambient, volume: 1))
    }

    /// `count` frames from `frame`, read by a reader that rendered nothing before.
    static func read(_ blocks: TimelineBlocks, from frame: Int, count: Int) -> [Float] {
        var reader = TimelineReader(blocks: blocks)
        reader.seek(to: frame)
        var samples = [Float](repeating: .nan, count: count * blocks.format.channels)
        let frames = samples.withUnsafeMutableBufferPointer { reader.render(into: $0) }
        return Array(samples.prefix(frames * blocks.format.channels))
    }

    @Test(arguments: [(8_000, 1, "rain"), (16_000, 2, "ocean"), (22_050, 1, "brown")])
    func anyCutOfTheSessionConcatenatesToTheWholeFileBitForBit(rate: Int, channels: Int, ambient: String) throws {
        let format = try AudioFormat(sampleRate: rate, channels: channels)
        let timeline = try Self.timeline(ambient: ambient)
        var renderer = try TimelineRenderer(timeline: timeline, format: format)
        let whole = renderer.renderAll(blockFrames: 4_000)
        let blocks = try TimelineBlocks(timeline: timeline, format: format)
        #expect(whole.count == blocks.frameCount * channels)
        #expect(blocks.blockCount >= 4)
        let gongAt16 = format.frames(at: .milliseconds(16_200))
        // At 0, inside the first gong, inside a hand-over between pieces of the bed, on and
        // around block boundaries, inside the three gongs the limiter holds down, and the end.
        let cuts = [
            0, 1, 4_095, Self.block - 3_000, Self.block - 1, Self.block, Self.block + 1, gongAt16 + 17,
            2 * Self.block - 100, 2 * Self.block + 4_099, 3 * Self.block, blocks.frameCount - 1, blocks.frameCount,
        ].filter { $0 <= blocks.frameCount }.sorted()
        var joined: [Float] = []
        for (from, to) in zip(cuts, cuts.dropFirst()) where to > from {
            joined += Self.read(blocks, from: from, count: to - from)
        }
        #expect(joined.count == whole.count)
        #expect(joined == whole)
        // The limiter was at work across a boundary: three gongs at once are held under −1 dBFS.
        let loudest = whole.map { abs($0) }.max() ?? 0
        #expect(loudest <= CueSynthesizer.peak)
        #expect(loudest > CueSynthesizer.peak * 0.9)
    }

    @Test func aBlockIsTheSameWhicheverOrderTheBlocksAreRenderedIn() throws {
        let format = try AudioFormat(sampleRate: 16_000, channels: 2)
        let blocks = try TimelineBlocks(timeline: Self.timeline(ambient: "stream"), format: format)
        func render(_ index: Int) -> [Float] {
            var samples = [Float](repeating: 0, count: Self.block * 2)
            let frames = samples.withUnsafeMutableBufferPointer { blocks.render(block: index, into: $0) }
            return Array(samples.prefix(frames * 2))
        }
        let third = render(2)
        _ = render(0)
        _ = render(1)
        #expect(render(2) == third)
        #expect(render(blocks.blockCount).isEmpty)
    }

    @Test func theWAVFileReadFromAnyByteIsTheFileWrittenWhole() throws {
        let format = try AudioFormat(sampleRate: 8_000)
        let timeline = try Self.timeline(ambient: "rain")
        var renderer = try TimelineRenderer(timeline: timeline, format: format)
        let file = [UInt8](try WAVFile.encode(samples: renderer.renderAll(), format: format))
        var reader = try WAVRangeReader(blocks: TimelineBlocks(timeline: timeline, format: format))
        #expect(reader.byteCount == file.count)
        // In the header, across its end, starting inside a sample, at the very end.
        let ranges = [0..<10, 40..<50, 43..<100_001, 131_117..<131_118, file.count - 3..<file.count]
        for range in ranges {
            #expect(reader.bytes(range) == Array(file[range]), "\(range)")
        }
        var joined: [UInt8] = []
        var offset = 0
        while offset < file.count {
            joined += reader.bytes(offset..<min(file.count, offset + 65_537))
            offset += 65_537
        }
        #expect(joined == file)
    }

    @Test(arguments: [AmbientGenerator.rain, .ocean, .stream, .brown])
    func theBedHasNoSeamWhereOnePieceHandsOverToTheNext(_ generator: AmbientGenerator) throws {
        let format = try AudioFormat(sampleRate: 16_000)
        var renderer = try TimelineRenderer(
            timeline: Timeline(
                practice: .meditation,
                segments: [Segment(kind: .meditation, start: .zero, duration: .seconds(40))],
                ambient: AmbientChoice(id: generator.rawValue, volume: 0.5)),
            format: format)
        let samples = renderer.renderAll()
        // The hand-over (the last 4 096 frames of each block) against the stretches just before
        // and after it: as loud (no dip, no bump), and no larger step from sample to sample (no click).
        let length = TimelineBlocks.noiseCrossfade
        func step(_ range: Range<Int>) -> Float { range.map { abs(samples[$0 + 1] - samples[$0]) }.max() ?? 0 }
        for boundary in 1...4 {
            let handover = boundary * Self.block - length
            let before = handover - length..<handover
            let during = handover..<handover + length
            let after = handover + length..<handover + 2 * length
            let levels = [before, after].map { SignalAnalysis.rms(samples[$0]) }
            let level = SignalAnalysis.rms(samples[during])
            #expect(
                SignalAnalysis.decibels(level / (levels.min() ?? 1)) > -2.5
                    && SignalAnalysis.decibels(level / (levels.max() ?? 1)) < 2.5, "block \(boundary)")
            #expect(
                step(during.lowerBound - 1..<during.upperBound) <= 2 * max(step(before), step(after)),
                "block \(boundary)")
        }
    }

    @Test func anOpenEndedSitIsMadeAsLongAsAskedWithItsIntervalGongs() throws {
        let plan = MeditationPlan(countdown: .zero, intervalGongs: .every(minutes: 1), isOpenEnded: true)
        let timeline = try plan.timeline()
        #expect(timeline.isOpenEnded)
        let format = try AudioFormat(sampleRate: 8_000)
        #expect(throws: RenderError.openEnded) { try TimelineBlocks(timeline: timeline, format: format) }
        let blocks = try TimelineBlocks(timeline: timeline, format: format, openEndedLength: .seconds(150))
        #expect(blocks.frameCount >= 150 * 8_000)
        let gong = TimelineRendererTests.asMixed(.intervalGong, sampleRate: 8_000)
        // The start gong at 0 has rung out long before the gong at 2 min.
        let second = Self.read(blocks, from: 120 * 8_000, count: gong.count)
        #expect(second == gong)
    }
}

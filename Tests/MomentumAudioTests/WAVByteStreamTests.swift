import Foundation
import MomentumCore
import Testing

@testable import MomentumAudio

@Suite("A WAV file as chunks, rendered as they are asked for")
struct WAVByteStreamTests {
    func renderer(format: AudioFormat) throws -> TimelineRenderer {
        let timeline = try Timeline(
            practice: .meditation, segments: [Segment(kind: .meditation, start: .zero, duration: .seconds(12))],
            cues: [Cue(offset: .zero, sound: .startGong), Cue(offset: .seconds(12), sound: .endGong)],
            ambient: AmbientChoice(id: "rain", volume: 0.3))
        return try TimelineRenderer(timeline: timeline, format: format)
    }

    @Test(arguments: [1, 3])
    func theChunksTogetherAreTheFileTheWriterWrites(blocks: Int) throws {
        let format = try AudioFormat(sampleRate: 8_000, channels: 2)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momentum-stream-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("sit.wav")
        var written = try renderer(format: format)
        try WAVFileWriter.render(&written, to: file)

        var stream = try WAVByteStream(source: renderer(format: format), blockFrames: 1000)
        var bytes: [UInt8] = []
        var chunks = 0
        while let chunk = stream.next(blocks: blocks) {
            bytes += chunk
            chunks += 1
        }
        #expect(bytes == Array(try Data(contentsOf: file)))
        #expect(stream.byteCount == bytes.count)
        #expect(stream.isFinished)
        #expect(chunks > 10)
    }

    @Test func aSourceThatEndsEarlyIsPaddedToTheLengthPromised() throws {
        var stream = try WAVByteStream(source: EarlyEnding(frameCount: 5_000, renders: 1_200), blockFrames: 512)
        var bytes: [UInt8] = []
        while let chunk = stream.next() { bytes += chunk }
        #expect(bytes.count == 44 + 10_000)
        let audio = try WAVFile.decode(Data(bytes))
        #expect(audio.frameCount == 5_000)
        #expect(audio.samples[1_199] != 0)
        #expect(audio.samples[1_200...].allSatisfy { $0 == 0 })
    }

    @Test func aSourceLongerThanAWAVFileHoldsIsRefused() throws {
        #expect(throws: AudioFileError.tooLongForWAV) {
            try WAVByteStream(source: EarlyEnding(frameCount: Int(UInt32.max) / 2, renders: 0))
        }
    }
}

/// A mono source that promises `frameCount` frames of a steady level but stops after `renders`.
private struct EarlyEnding: AudioSource {
    let format: AudioFormat
    let frameCount: Int
    let renders: Int
    private var position = 0

    init(frameCount: Int, renders: Int) throws {
        format = try AudioFormat(sampleRate: 8_000)
        self.frameCount = frameCount
        self.renders = renders
    }

    mutating func render(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        let frames = min(buffer.count / format.channels, renders - position)
        guard frames > 0 else { return 0 }
        for index in 0..<frames * format.channels { buffer[index] = 0.5 }
        position += frames
        return frames
    }
}

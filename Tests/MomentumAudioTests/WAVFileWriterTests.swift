import Foundation
import MomentumCore
import Testing

@testable import MomentumAudio

@Suite("Streaming audio into a WAV file")
struct WAVFileWriterTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("momentum-wav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func timeline() throws -> Timeline {
        try Timeline(
            practice: .meditation, segments: [Segment(kind: .meditation, start: .zero, duration: .seconds(20))],
            cues: [Cue(offset: .zero, sound: .startGong), Cue(offset: .seconds(20), sound: .endGong)],
            ambient: AmbientChoice(id: "stream", volume: 0.3))
    }

    func contents() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path) }

    @Test func theFileHoldsExactlyWhatTheRendererMakesInBlocks() throws {
        let format = try AudioFormat(sampleRate: 11_025, channels: 2)
        var expected = try TimelineRenderer(timeline: timeline(), format: format)
        let samples = expected.renderAll(blockFrames: 1000)
        var renderer = try TimelineRenderer(timeline: timeline(), format: format)
        let url = folder.appendingPathComponent("sit.wav")
        var reports: [Int] = []
        let frameCount = renderer.frameCount
        try WAVFileWriter.render(
            &renderer, to: url,
            progress: { done, total in
                #expect(total == frameCount)
                reports.append(done)
            })
        let audio = try WAVFile.decode(Data(contentsOf: url))
        #expect(audio.format == format)
        #expect(audio.samples == samples.map(WAVFile.pcm))
        #expect(reports.last == samples.count / 2)
        #expect(reports == reports.sorted())
        #expect(try contents() == ["sit.wav"])
    }

    /// A sit long enough to be rendered in stretches at once (eight blocks a stretch at least).
    func longTimeline() throws -> Timeline {
        let plan = MeditationPlan(
            duration: .seconds(25 * 60), countdown: .seconds(5), intervalGongs: .every(minutes: 4), ambientID: "rain",
            ambientVolume: 0.4)
        return try plan.timeline()
    }

    @Test(arguments: [1, 2])
    func aLongRenderInStretchesAtOnceIsTheSameFileAsInOneGo(channels: Int) throws {
        let format = try AudioFormat(sampleRate: 11_025, channels: channels)
        var expected = try TimelineRenderer(timeline: longTimeline(), format: format)
        let samples = expected.renderAll(blockFrames: 3000)
        var renderer = try TimelineRenderer(timeline: longTimeline(), format: format)
        #expect(renderer.frameCount / renderer.stretchUnit >= 16, "long enough for stretches")
        let url = folder.appendingPathComponent("sit.wav")
        var reports: [Int] = []
        try WAVFileWriter.render(&renderer, to: url, progress: { done, _ in reports.append(done) })
        #expect(try WAVFile.decode(Data(contentsOf: url)).samples == samples.map(WAVFile.pcm))
        #expect(reports.last == renderer.frameCount)
        #expect(reports == reports.sorted())
        #expect(try contents() == ["sit.wav"])
    }

    @Test func aLongRenderInStretchesOnAFullDiskRemovesThePartialFile() throws {
        var renderer = try TimelineRenderer(timeline: longTimeline(), format: AudioFormat(sampleRate: 11_025))
        let url = folder.appendingPathComponent("sit.wav")
        #expect(throws: AudioFileError.diskFull(folder.appendingPathComponent(".sit.wav.partial").path)) {
            try WAVFileWriter.render(&renderer, to: url) { path throws(AudioFileError) in
                FillingFile(file: try POSIXFile.create(path), path: path, room: 3_000_000)
            }
        }
        #expect(try contents().isEmpty)
    }

    @Test func aMissingFolderIsNamedAndNothingIsWritten() throws {
        var renderer = try TimelineRenderer(timeline: timeline(), format: AudioFormat(sampleRate: 8_000))
        let url = folder.appendingPathComponent("nowhere/sit.wav")
        #expect(throws: AudioFileError.folderMissing(folder.appendingPathComponent("nowhere").path)) {
            try WAVFileWriter.render(&renderer, to: url)
        }
        #expect(try contents().isEmpty)
    }

    @Test(arguments: [0, 44, 10_000, 100_000])
    func aFullDiskRemovesThePartialFileAndSaysSo(afterBytes limit: Int) throws {
        var renderer = try TimelineRenderer(timeline: timeline(), format: AudioFormat(sampleRate: 8_000))
        let url = folder.appendingPathComponent("sit.wav")
        #expect(throws: AudioFileError.diskFull(folder.appendingPathComponent(".sit.wav.partial").path)) {
            try WAVFileWriter.render(&renderer, to: url) { path throws(AudioFileError) in
                FillingFile(file: try POSIXFile.create(path), path: path, room: limit)
            }
        }
        #expect(try contents().isEmpty)
    }

    @Test func anEarlierFileIsReplacedOnlyWhenTheNewOneIsComplete() throws {
        let url = folder.appendingPathComponent("sit.wav")
        try Data("old".utf8).write(to: url)
        var failing = try TimelineRenderer(timeline: timeline(), format: AudioFormat(sampleRate: 8_000))
        #expect(throws: AudioFileError.self) {
            try WAVFileWriter.render(&failing, to: url) { path throws(AudioFileError) in
                FillingFile(file: try POSIXFile.create(path), path: path, room: 1_000)
            }
        }
        #expect(try Data(contentsOf: url) == Data("old".utf8))
        var renderer = try TimelineRenderer(timeline: timeline(), format: AudioFormat(sampleRate: 8_000))
        try WAVFileWriter.render(&renderer, to: url)
        #expect(try WAVFile.decode(Data(contentsOf: url)).frameCount == renderer.frameCount)
    }
}

/// A real file on a disk that fills up after `room` bytes.
struct FillingFile: WritableFile {
    var file: any WritableFile
    let path: String
    var room: Int

    mutating func write(_ samples: [Int16], count: Int) throws(AudioFileError) {
        guard count * 2 <= room else { throw .diskFull(path) }
        room -= count * 2
        try file.write(samples, count: count)
    }

    mutating func write(_ samples: [Int16], count: Int, at offset: Int) throws(AudioFileError) {
        guard count * 2 <= room else { throw .diskFull(path) }
        room -= count * 2
        try file.write(samples, count: count, at: offset)
    }

    mutating func write(_ bytes: [UInt8], at offset: Int) throws(AudioFileError) {
        guard bytes.count <= room else { throw .diskFull(path) }
        room -= bytes.count
        try file.write(bytes, at: offset)
    }
    mutating func close() throws(AudioFileError) { try file.close() }
}

import Foundation
import Testing

@testable import MomentumAudio

@Suite("WAV metadata: LIST/INFO tags and the duration from fmt and data")
struct RIFFWaveMetadataTests {
    typealias Bytes = AudioTestBytes

    static let info = Bytes.chunk(
        "LIST",
        Bytes.ascii("INFO") + Bytes.chunk("IART", Array("Jürgen Weiß".utf8) + [0])
            + Bytes.chunk("INAM", [0x43, 0x61, 0x66, 0xE9, 0]) + Bytes.chunk("IPRD", Bytes.ascii("Stille"))
            + Bytes.chunk("ICMT", Bytes.ascii("odd")))

    static func read(_ bytes: [UInt8], fileName: String = "test.wav") throws(AudioMetadataError) -> AudioMetadata {
        try AudioMetadataReader.read(Data(bytes), fileName: fileName)
    }

    @Test func infoAfterTheSamplesIsReadAndTheDurationComesFromTheHeader() throws {
        let samples = Bytes.chunk("data", [UInt8](repeating: 0, count: 8_000 * 2 * 2 * 3 / 2))  // 1.5 s stereo
        let bytes = Bytes.riffWave([Bytes.waveFormat(sampleRate: 8_000, channels: 2), samples, Self.info])
        let metadata = try Self.read(bytes)
        // UTF-8 where it is valid UTF-8, ISO-8859-1 ("Café") where it is not.
        #expect(
            metadata
                == AudioMetadata(
                    format: .wav, artist: "Jürgen Weiß", title: "Café", album: "Stille", duration: .milliseconds(1_500))
        )
    }

    @Test func aFileWrittenByMomentumReads() throws {
        let format = try AudioFormat(sampleRate: 22_050, channels: 1)
        let data = try WAVFile.encode(samples: [Float](repeating: 0.1, count: 22_050 / 2), format: format)
        let metadata = try AudioMetadataReader.read(data, fileName: "cue.wav")
        #expect(metadata.duration == .milliseconds(500))
        #expect(metadata.artist == nil && metadata.title == nil)
    }

    @Test func brokenFilesAreRefusedWithTheirCause() {
        let format = Bytes.waveFormat(sampleRate: 8_000, channels: 1)
        #expect(throws: AudioMetadataError.missingElement(fileName: "test.wav", element: "data chunk")) {
            try Self.read(Bytes.riffWave([format, Self.info]))
        }
        #expect(throws: AudioMetadataError.missingElement(fileName: "test.wav", element: "fmt chunk")) {
            try Self.read(Bytes.riffWave([Bytes.chunk("data", [0, 0])]))
        }
        let cut = Bytes.riffWave([format, Bytes.chunk("data", [UInt8](repeating: 0, count: 1_000))])
        #expect(
            throws: AudioMetadataError.truncated(
                fileName: "test.wav", element: "data chunk", neededBytes: cut.count, fileSize: cut.count - 10)
        ) {
            try Self.read(Array(cut.dropLast(10)))
        }
        var lyingList = Self.info
        lyingList.replaceSubrange(16..<20, with: Bytes.littleEndian(9_999, length: 4))
        #expect(
            throws: AudioMetadataError.sizeBeyondContainer(
                fileName: "test.wav", element: "IART chunk", claimedBytes: 9_999, availableBytes: Self.info.count - 20)
        ) {
            try Self.read(Bytes.riffWave([format, lyingList, Bytes.chunk("data", [0, 0])]))
        }
        var video = Bytes.riffWave([format])
        video.replaceSubrange(8..<12, with: Bytes.ascii("AVI "))
        #expect(throws: AudioMetadataError.unsupportedFormat(fileName: "test.wav", format: "RIFF AVI ")) {
            try Self.read(video)
        }
    }
}

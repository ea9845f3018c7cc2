import Foundation
import Testing

@testable import MomentumAudio

@Suite("MP3 duration: Xing and VBRI headers, else every frame counted")
struct MPEGAudioStreamTests {
    typealias Bytes = AudioTestBytes

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func read(_ bytes: [UInt8]) throws(AudioMetadataError) -> AudioMetadata {
        try AudioMetadataReader.read(Data(bytes), fileName: "stream.mp3")
    }

    /// MPEG-2 at 22.05 kHz and MPEG-2.5 at 11.025 kHz, 576 samples a frame; MPEG-1 at 48 kHz.
    @Test(arguments: [
        (versionBits: UInt8(2), bitrateIndex: UInt8(8), sampleRate: 22_050, length: 208, samples: 576),
        (versionBits: UInt8(0), bitrateIndex: UInt8(4), sampleRate: 11_025, length: 208, samples: 576),
        (versionBits: UInt8(3), bitrateIndex: UInt8(5), sampleRate: 44_100, length: 208, samples: 1_152),
    ])
    func framesWithoutAHeaderAreCountedOneByOne(
        versionBits: UInt8, bitrateIndex: UInt8, sampleRate: Int, length: Int, samples: Int
    ) throws {
        let header = Bytes.mpegHeader(versionBits: versionBits, bitrateIndex: bitrateIndex)
        #expect(MPEGFrameHeader(header)?.length == length)
        let metadata = try Self.read(Bytes.mpegFrames(header, length: length, count: 50))
        #expect(metadata.duration == Duration.ticks(UInt64(50 * samples), per: UInt64(sampleRate)))
    }

    @Test func paddedFramesAreOneByteLonger() throws {
        let header = Bytes.mpegHeader(versionBits: 3, bitrateIndex: 9)
        let padded = Bytes.mpegHeader(versionBits: 3, bitrateIndex: 9, padded: true)
        let bytes = (0..<20).flatMap { index in
            index % 3 == 0
                ? Bytes.mpegFrames(padded, length: 418, count: 1) : Bytes.mpegFrames(header, length: 417, count: 1)
        }
        #expect(try Self.read(bytes).duration == Duration.ticks(20 * 1_152, per: 44_100))
    }

    @Test func junkBetweenFramesIsSkipped() throws {
        let frames = Bytes.mpegFrames(Bytes.mpegHeader(versionBits: 3, bitrateIndex: 9), length: 417, count: 10)
        let bytes = frames + [0xFF, 0x00, 0x12, 0xFF, 0xFF] + frames
        #expect(try Self.read(bytes).duration == Duration.ticks(20 * 1_152, per: 44_100))
    }

    @Test func aVBRIHeaderGivesTheFrameCount() throws {
        let header = Bytes.mpegHeader(versionBits: 3, bitrateIndex: 9)
        var first = header + [UInt8](repeating: 0, count: 32) + Bytes.ascii("VBRI") + [0, 1, 0, 0, 0, 75]
        first += Bytes.bigEndian(20 * 417, length: 4) + Bytes.bigEndian(15, length: 4)
        first += [UInt8](repeating: 0, count: 417 - first.count)
        let metadata = try Self.read(first + Bytes.mpegFrames(header, length: 417, count: 19))
        #expect(metadata.duration == Duration.ticks(15 * 1_152, per: 44_100))
    }

    @Test func aXingHeaderClaimingMoreFramesThanFitIsIgnoredForTheScan() throws {
        let header = Bytes.mpegHeader(versionBits: 3, bitrateIndex: 9)
        var first = header + [UInt8](repeating: 0, count: 32) + Bytes.ascii("Xing") + Bytes.bigEndian(1, length: 4)
        first += Bytes.bigEndian(1_000_000, length: 4)
        first += [UInt8](repeating: 0, count: 417 - first.count)
        let metadata = try Self.read(first + Bytes.mpegFrames(header, length: 417, count: 9))
        #expect(metadata.duration == Duration.ticks(10 * 1_152, per: 44_100))
    }

    @Test func trailingAPEAndID3v1TagsAreNotAudio() throws {
        let frames = Bytes.mpegFrames(Bytes.mpegHeader(versionBits: 3, bitrateIndex: 9), length: 417, count: 10)
        let apeItems = [UInt8](repeating: 0xFF, count: 40)
        let apeFooter =
            Bytes.ascii("APETAGEX") + Bytes.littleEndian(2_000, length: 4) + Bytes.littleEndian(72, length: 4)
            + Bytes.littleEndian(1, length: 4) + Bytes.littleEndian(0, length: 4) + [UInt8](repeating: 0, count: 8)
        var id3v1 = Bytes.ascii("TAG") + [UInt8](repeating: 0x20, count: 125)
        id3v1.replaceSubrange(33..<43, with: Bytes.ascii("Old Tagger"))
        let metadata = try Self.read(frames + apeItems + apeFooter + id3v1)
        #expect(metadata.artist == "Old Tagger")
        #expect(metadata.duration == Duration.ticks(10 * 1_152, per: 44_100))
    }

    @Test func aVeryLongScanIsExtrapolatedFromTheFramesWalked() throws {
        let bytes = Bytes.mpegFrames(Bytes.mpegHeader(versionBits: 3, bitrateIndex: 9), length: 417, count: 100)
        let reader = SourceReader(InMemoryByteSource(bytes), fileName: "long.mp3")
        let stream = MPEGAudioStream(reader: reader, range: 0..<bytes.count, maximumScannedFrames: 10)
        let first = try #require(try stream.firstFrame())
        let seconds = Self.seconds(try stream.scannedDuration(from: first))
        #expect(abs(seconds - 100 * 1_152 / 44_100.0) < 0.05)
    }

    @Test func layerTwoFramesAreNotReadAsAudio() {
        let layerTwo: [UInt8] = [0xFF, 0xFD, 0x90, 0x00]
        #expect(throws: AudioMetadataError.notAudio(fileName: "stream.mp3")) {
            try Self.read(Bytes.mpegFrames(layerTwo, length: 417, count: 10))
        }
    }
}

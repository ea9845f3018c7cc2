import Foundation
import Testing

@testable import MomentumAudio

@Suite("Byte sources: files are read where needed, never whole")
struct RandomAccessByteSourceTests {
    typealias Bytes = AudioTestBytes

    static let halfGigabyte = 500 * 1_024 * 1_024
    /// The most a reader may ask for from a 500 MB file: a few 64 KiB windows.
    static let readBudget = 8 * SourceReader.windowSize

    @Test func anMP4WithItsMoovAfterHalfAGigabyteOfMediaIsReadAtItsHeadAndTail() throws {
        let fileType = Bytes.box("ftyp", Bytes.ascii("M4A ") + [0, 0, 0, 0])
        let mediaHeader = Bytes.bigEndian(Self.halfGigabyte, length: 4) + Bytes.ascii("mdat")
        let movie = Bytes.box(
            "moov",
            Bytes.mvhd(version: 0, timescale: 1_000, duration: 3_600_000)
                + Bytes.udta(items: [Bytes.ilstItem("©ART", "Aiko Tanaka")]))
        let moovOffset = fileType.count + Self.halfGigabyte
        let source = SparseByteSource(
            count: moovOffset + movie.count,
            segments: [(0, fileType + mediaHeader), (moovOffset, movie)])
        let metadata = try AudioMetadataReader.read(from: source, fileName: "long.m4a")
        #expect(metadata.artist == "Aiko Tanaka")
        #expect(metadata.duration == .seconds(3_600))
        #expect(source.bytesRead <= Self.readBudget)
    }

    @Test func aWAVWithHalfAGigabyteOfSamplesIsReadAtItsHeadAndTail() throws {
        let head =
            Bytes.ascii("RIFF") + Bytes.littleEndian(0, length: 4) + Bytes.ascii("WAVE")
            + Bytes.waveFormat(sampleRate: 44_100, channels: 2) + Bytes.ascii("data")
            + Bytes.littleEndian(Self.halfGigabyte, length: 4)
        let info = Bytes.chunk("LIST", Bytes.ascii("INFO") + Bytes.chunk("INAM", Bytes.ascii("Long Sit")))
        let source = SparseByteSource(
            count: head.count + Self.halfGigabyte + info.count,
            segments: [(0, head), (head.count + Self.halfGigabyte, info)])
        let metadata = try AudioMetadataReader.read(from: source, fileName: "long.wav")
        #expect(metadata.title == "Long Sit")
        #expect(metadata.duration == Duration.ticks(UInt64(Self.halfGigabyte / 4), per: 44_100))
        #expect(source.bytesRead <= Self.readBudget)
    }

    @Test func anMP3WithAXingHeaderIsReadAtItsHeadAndTail() throws {
        let header = Bytes.mpegHeader(versionBits: 3, bitrateIndex: 9)
        var first = header + [UInt8](repeating: 0, count: 32) + Bytes.ascii("Info") + Bytes.bigEndian(1, length: 4)
        first += Bytes.bigEndian(1_000_000, length: 4)
        first += [UInt8](repeating: 0, count: 417 - first.count)
        let audio = first + Bytes.mpegFrames(header, length: 417, count: 1)
        var id3v1 = Bytes.ascii("TAG") + [UInt8](repeating: 0, count: 125)
        id3v1.replaceSubrange(3..<11, with: Bytes.ascii("Long Sit"))
        let source = SparseByteSource(
            count: 1_000_000 * 417 + 128, segments: [(0, audio), (1_000_000 * 417, id3v1)])
        let metadata = try AudioMetadataReader.read(from: source, fileName: "long.mp3")
        #expect(metadata.title == "Long Sit")
        #expect(metadata.duration == Duration.ticks(1_000_000 * 1_152, per: 44_100))
        #expect(source.bytesRead <= Self.readBudget)
    }

    @Test func aFileOnDiskIsReadByRange() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("momentum-\(UUID()).bin")
        try Data((0..<200).map { UInt8($0) }).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let source = try FileByteSource(url: url)
        #expect(source.count == 200)
        #expect(try source.bytes(in: 100..<104) == [100, 101, 102, 103])
        #expect(throws: ByteSourceError.self) { try source.bytes(in: 190..<210) }
    }

    @Test func aMissingFileIsUnreadableAndNamed() {
        let url = URL(fileURLWithPath: "/nonexistent/momentum/gone.mp3")
        #expect {
            try AudioMetadataReader.read(contentsOf: url)
        } throws: { error in
            guard case .unreadable(let fileName, _) = error as? AudioMetadataError else { return false }
            return fileName == "gone.mp3"
        }
    }
}

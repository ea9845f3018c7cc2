import Foundation
import Testing

@testable import MomentumAudio

@Suite("MP4 metadata: moov anywhere, 64-bit sizes, both mvhd versions")
struct MP4MetadataTests {
    typealias Bytes = AudioTestBytes

    static let fileType = Bytes.box("ftyp", Bytes.ascii("M4A ") + [0, 0, 0, 0] + Bytes.ascii("M4A isom"))
    static let items = Bytes.udta(items: [
        Bytes.ilstItem("©nam", "Morning Sit"), Bytes.ilstItem("©ART", "Aiko Tanaka"), Bytes.ilstItem("©alb", "Daily"),
    ])

    static func read(_ bytes: [UInt8], fileName: String = "test.m4a") throws(AudioMetadataError) -> AudioMetadata {
        try AudioMetadataReader.read(Data(bytes), fileName: fileName)
    }

    @Test func moovAfterTheMediaDataIsFound() throws {
        let movie = Bytes.box(
            "moov", Bytes.mvhd(version: 0, timescale: 44_100, duration: 44_100 * 4 + 22_050) + Self.items)
        let metadata = try Self.read(Self.fileType + Bytes.box("mdat", [UInt8](repeating: 0xFF, count: 5_000)) + movie)
        #expect(
            metadata
                == AudioMetadata(
                    format: .m4a, artist: "Aiko Tanaka", title: "Morning Sit", album: "Daily",
                    duration: .milliseconds(4_500)))
    }

    @Test func aLargeSizeBoxIsSkippedByItsSixtyFourBitSize() throws {
        let movie = Bytes.box("moov", Bytes.mvhd(version: 0, timescale: 1_000, duration: 2_000) + Self.items)
        let bytes = Self.fileType + Bytes.largeBox("mdat", [UInt8](repeating: 0, count: 300)) + movie
        #expect(try Self.read(bytes).duration == .seconds(2))
    }

    @Test func mvhdVersionOneHoldsSixtyFourBitDurations() throws {
        let longer = 90_000 * 100_000  // 100,000 s: more units than 32 bits hold
        let movie = Bytes.box("moov", Bytes.mvhd(version: 1, timescale: 90_000, duration: longer))
        let metadata = try Self.read(Self.fileType + movie)
        #expect(metadata.duration == .seconds(100_000))
        #expect(metadata.artist == nil)
    }

    @Test func aLastBoxOfSizeZeroRunsToTheEndOfTheFile() throws {
        let movieBody = Bytes.mvhd(version: 0, timescale: 600, duration: 1_800) + Self.items
        let bytes = Self.fileType + Bytes.bigEndian(0, length: 4) + Bytes.ascii("moov") + movieBody
        #expect(try Self.read(bytes).title == "Morning Sit")
    }

    @Test func brokenFilesAreRefusedWithTheirCause() {
        let header = Bytes.mvhd(version: 0, timescale: 1_000, duration: 2_000)
        #expect(throws: AudioMetadataError.missingElement(fileName: "test.m4a", element: "moov box")) {
            try Self.read(Self.fileType + Bytes.box("mdat", [1, 2, 3]))
        }
        let cut = Self.fileType + Bytes.box("mdat", [UInt8](repeating: 0, count: 100))
        #expect(
            throws: AudioMetadataError.truncated(
                fileName: "test.m4a", element: "mdat box", neededBytes: cut.count, fileSize: cut.count - 40)
        ) {
            try Self.read(Array(cut.dropLast(40)))
        }
        var lyingItem = Bytes.ilstItem("©ART", "Aiko")
        lyingItem.replaceSubrange(0..<4, with: Bytes.bigEndian(5_000, length: 4))
        #expect(
            throws: AudioMetadataError.sizeBeyondContainer(
                fileName: "test.m4a", element: "©ART box", claimedBytes: 5_000, availableBytes: lyingItem.count)
        ) {
            try Self.read(Self.fileType + Bytes.box("moov", header + Bytes.udta(items: [lyingItem])))
        }
        let stopped = Bytes.mvhd(version: 0, timescale: 0, duration: 2_000)
        #expect(
            throws: AudioMetadataError.invalidHeader(
                fileName: "test.m4a", element: "mvhd box", reason: "duration 2000 at timescale 0")
        ) {
            try Self.read(Self.fileType + Bytes.box("moov", stopped))
        }
    }
}

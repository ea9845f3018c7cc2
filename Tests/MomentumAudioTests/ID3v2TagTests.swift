import Foundation
import Testing

@testable import MomentumAudio

@Suite("ID3 tags: versions, encodings, unsynchronisation and lying sizes")
struct ID3v2TagTests {
    typealias Bytes = AudioTestBytes

    /// Ten MPEG-1 Layer III frames at 128 kbit/s, 44.1 kHz (417 bytes each): 0.261 s of audio.
    static let audio = Bytes.mpegFrames(Bytes.mpegHeader(versionBits: 3, bitrateIndex: 9), length: 417, count: 10)
    static let audioDuration = Duration.ticks(10 * 1_152, per: 44_100)

    static func read(_ bytes: [UInt8], fileName: String = "test.mp3") throws(AudioMetadataError) -> AudioMetadata {
        try AudioMetadataReader.read(Data(bytes), fileName: fileName)
    }

    @Test func version2Point2UsesThreeCharacterFrameIdsAndSkipsItsPicture() throws {
        let picture = Bytes.id3Frame(
            "PIC", major: 2, content: [0] + Bytes.ascii("PNG") + [3, 0] + [0xFF, 0xFB, 0x90, 0x00])
        let body =
            Bytes.id3Frame("TT2", major: 2, content: Bytes.latin1Text("Body Scan")) + picture
            + Bytes.id3Frame("TP1", major: 2, content: Bytes.latin1Text("Mara Lindqvist"))
            + Bytes.id3Frame("TAL", major: 2, content: Bytes.latin1Text("Evening Practice"))
        let metadata = try Self.read(Bytes.id3v2(major: 2, body: body) + Self.audio)
        #expect(
            metadata
                == AudioMetadata(
                    format: .mp3, artist: "Mara Lindqvist", title: "Body Scan", album: "Evening Practice",
                    duration: try #require(Self.audioDuration)))
    }

    @Test func version2Point4UndoesPerFrameUnsynchronisationAfterAnExtendedHeader() throws {
        // "Maÿa": ÿ is 0xFF in ISO-8859-1, so unsynchronisation puts a 0x00 after it on disk.
        let content = Bytes.synchsafe(5) + Bytes.latin1Text("Maÿa")
        let onDisk = Bytes.unsynchronised(content)
        #expect(onDisk.count == content.count + 1)
        let extendedHeader = Bytes.synchsafe(6) + [1, 0]
        let body =
            extendedHeader + Bytes.id3Frame("TPE1", major: 4, flags: [0, 0x03], content: onDisk)
            + Bytes.id3Frame("TIT2", major: 4, content: Bytes.utf8Text("Atemraum – Ankommen"))
        let metadata = try Self.read(Bytes.id3v2(major: 4, flags: 0x40, body: body) + Self.audio)
        #expect(metadata.artist == "Maÿa")
        #expect(metadata.title == "Atemraum – Ankommen")
    }

    @Test func version2Point3UndoesTagLevelUnsynchronisationBeforeCountingFrameSizes() throws {
        let extendedHeader = Bytes.bigEndian(6, length: 4) + [0, 0] + Bytes.bigEndian(0, length: 4)
        let cover = Bytes.id3Frame("APIC", major: 3, content: [0xFF, 0xFF, 0xE0, 0xFF, 0xFB, 0x00, 0xFF])
        let body =
            extendedHeader + cover + Bytes.id3Frame("TPE1", major: 3, content: Bytes.latin1Text("ÿÿ Teacher"))
            + Bytes.id3Frame("TALB", major: 3, content: Bytes.latin1Text("Stille"))
        let metadata = try Self.read(
            Bytes.id3v2(major: 3, flags: 0x80 | 0x40, body: Bytes.unsynchronised(body)) + Self.audio)
        #expect(metadata.artist == "ÿÿ Teacher")
        #expect(metadata.album == "Stille")
    }

    @Test func utf16BigEndianAndSeveralValuesInOneFrameAreRead() throws {
        let littleEndianWithBOM: [UInt8] = [1, 0xFF, 0xFE, 0x41, 0, 0x6E, 0, 0, 0, 0xFF, 0xFE, 0x42, 0, 0x6F, 0]
        let body =
            Bytes.id3Frame("TPE1", major: 4, content: Bytes.utf16BigEndianText("Søren 慈悲"))
            + Bytes.id3Frame("TALB", major: 4, content: littleEndianWithBOM)
        let metadata = try Self.read(Bytes.id3v2(major: 4, body: body) + Self.audio)
        #expect(metadata.artist == "Søren 慈悲")
        #expect(metadata.album == "An / Bo")
    }

    @Test func paddingAfterTheFramesEndsTheTag() throws {
        let body =
            Bytes.id3Frame("TIT2", major: 3, content: Bytes.latin1Text("Short Sit"))
            + [UInt8](repeating: 0, count: 2_048)
        let metadata = try Self.read(Bytes.id3v2(major: 3, body: body) + Self.audio)
        #expect(metadata.title == "Short Sit")
        #expect(metadata.duration == Self.audioDuration)
    }

    @Test func id3v2WinsOverID3v1FieldByField() throws {
        var id3v1 = Bytes.ascii("TAG") + [UInt8](repeating: 0, count: 125)
        id3v1.replaceSubrange(3..<12, with: Bytes.ascii("Old Title"))
        id3v1.replaceSubrange(33..<43, with: Bytes.ascii("Old Artist"))
        let body = Bytes.id3Frame("TIT2", major: 3, content: Bytes.latin1Text("New Title"))
        let metadata = try Self.read(Bytes.id3v2(major: 3, body: body) + Self.audio + id3v1)
        #expect(metadata.title == "New Title")
        #expect(metadata.artist == "Old Artist")
        #expect(metadata.duration == Self.audioDuration)
    }

    @Test func aTenThousandCharacterArtistIsCutAndNulsAndControlCharactersDropped() throws {
        let long = String(repeating: "é", count: 10_000)
        let body =
            Bytes.id3Frame("TPE1", major: 4, content: Bytes.utf8Text(long))
            + Bytes.id3Frame("TIT2", major: 4, content: Bytes.utf8Text("  Body\u{0}\u{7} Scan \u{0}"))
        let metadata = try Self.read(Bytes.id3v2(major: 4, body: body) + Self.audio)
        #expect(metadata.artist == String(repeating: "é", count: TagText.maximumCharacters))
        #expect(metadata.title == "Body / Scan")
    }

    @Test func aTagClaimingMoreThanTheFileIsATruncatedFile() {
        let header = Bytes.ascii("ID3") + [3, 0, 0] + Bytes.synchsafe(1_000_000)
        let bytes = header + Bytes.id3Frame("TIT2", major: 3, content: Bytes.latin1Text("x")) + Self.audio
        #expect(
            throws: AudioMetadataError.truncated(
                fileName: "big.mp3", element: "ID3v2 tag", neededBytes: 1_000_010, fileSize: bytes.count)
        ) {
            try Self.read(bytes, fileName: "big.mp3")
        }
    }

    @Test func aFileEndingInsideTheTagHeaderIsTruncated() {
        #expect(
            throws: AudioMetadataError.truncated(
                fileName: "cut.mp3", element: "ID3v2 tag header", neededBytes: 10, fileSize: 6)
        ) {
            try Self.read(Bytes.ascii("ID3") + [3, 0, 0], fileName: "cut.mp3")
        }
    }

    @Test func aFrameClaimingMoreThanItsTagIsRefused() {
        var frame = Bytes.id3Frame("TPE1", major: 3, content: Bytes.latin1Text("Mara"))
        frame.replaceSubrange(4..<8, with: Bytes.bigEndian(70_000, length: 4))
        let bytes = Bytes.id3v2(major: 3, body: frame) + Self.audio
        #expect(
            throws: AudioMetadataError.sizeBeyondContainer(
                fileName: "lying.mp3", element: "ID3v2 frame TPE1", claimedBytes: 70_000,
                availableBytes: frame.count - 10)
        ) {
            try Self.read(bytes, fileName: "lying.mp3")
        }
    }

    @Test func aTagWithoutAudioAfterItHasNoFrames() {
        let bytes = Bytes.id3v2(major: 3, body: Bytes.id3Frame("TIT2", major: 3, content: Bytes.latin1Text("x")))
        #expect(throws: AudioMetadataError.noAudioFrames(fileName: "empty.mp3")) {
            try Self.read(bytes + Bytes.ascii("just text after the tag"), fileName: "empty.mp3")
        }
    }
}

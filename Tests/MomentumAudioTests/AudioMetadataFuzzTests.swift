import Foundation
import MomentumCore
import Testing

@testable import MomentumAudio

@Suite("Audio metadata: thousands of damaged files end in metadata or a typed error")
struct AudioMetadataFuzzTests {
    typealias Bytes = AudioTestBytes

    static let mutationsPerFile = 400
    /// Far more source reads than any parse of these small files needs: a reader stuck
    /// re-reading would exceed it.
    static let maximumReadsPerParse = 64

    /// Structures the fixtures lack, so their parsers are shaken too.
    static let builtFiles: [(name: String, bytes: [UInt8])] = [
        (
            "built.wav",
            Bytes.riffWave([
                Bytes.waveFormat(sampleRate: 8_000, channels: 1),
                Bytes.chunk("data", [UInt8](repeating: 0, count: 800)),
                Bytes.chunk(
                    "LIST",
                    Bytes.ascii("INFO") + Bytes.chunk("IART", Bytes.ascii("Mara"))
                        + Bytes.chunk("INAM", Bytes.ascii("Sit"))),
            ])
        ),
        (
            "built-unsynchronised.mp3",
            Bytes.id3v2(
                major: 3, flags: 0xC0,
                body: Bytes.unsynchronised(
                    Bytes.bigEndian(6, length: 4) + [0, 0, 0, 0, 0, 0]
                        + Bytes.id3Frame("TPE1", major: 3, content: Bytes.latin1Text("ÿ Mara"))
                        + Bytes.id3Frame("APIC", major: 3, content: [0xFF, 0xFB, 0x90, 0x00, 0xFF]) + [0, 0, 0]))
                + Bytes.mpegFrames(Bytes.mpegHeader(versionBits: 2, bitrateIndex: 8), length: 208, count: 12)
        ),
        (
            "built-2.2.mp3",
            Bytes.id3v2(major: 2, body: Bytes.id3Frame("TT2", major: 2, content: Bytes.utf16BigEndianText("Sit")))
                + Bytes.mpegFrames(Bytes.mpegHeader(versionBits: 0, bitrateIndex: 4), length: 208, count: 12)
        ),
        (
            "built.m4a",
            Bytes.box("ftyp", Bytes.ascii("M4A ")) + Bytes.largeBox("mdat", [UInt8](repeating: 0xFF, count: 64))
                + Bytes.box(
                    "moov",
                    Bytes.mvhd(version: 1, timescale: 600, duration: 1_200)
                        + Bytes.udta(items: [Bytes.ilstItem("©nam", "Sit"), Bytes.ilstItem("©ART", "Aiko")]))
        ),
    ]

    static var files: [String] { AudioFixtures.entries.map(\.file) + builtFiles.map(\.name) }

    static func original(_ name: String) throws -> [UInt8] {
        if let built = builtFiles.first(where: { $0.name == name }) { return built.bytes }
        return try AudioFixtures.bytes(name)
    }

    @Test(arguments: files)
    func damagedCopiesEndInMetadataOrATypedError(file: String) throws {
        let original = try Self.original(file)
        var random = SeededRandomNumberGenerator(
            seed: file.utf8.reduce(14_695_981_039_346_656_037) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 })
        var outcomes = (read: 0, refused: 0)
        for _ in 0..<Self.mutationsPerFile {
            let bytes = Self.damage(original, using: &random)
            let source = CountingByteSource(bytes)
            do throws(AudioMetadataError) {
                let metadata = try AudioMetadataReader.read(from: source, fileName: file)
                #expect(metadata.duration >= .zero)
                for text in [metadata.artist, metadata.title, metadata.album].compactMap({ $0 }) {
                    #expect(!text.isEmpty && text.count <= TagText.maximumCharacters && !text.contains("\u{0}"))
                }
                outcomes.read += 1
            } catch {
                #expect(error.fileName == file)
                outcomes.refused += 1
            }
            #expect(source.reads <= Self.maximumReadsPerParse)
        }
        #expect(outcomes.read + outcomes.refused == Self.mutationsPerFile)
        #expect(outcomes.refused > 0, "damage should break some copies")
    }

    @Test(arguments: files)
    func everyTruncationEndsInMetadataOrATypedError(file: String) throws {
        let original = try Self.original(file)
        var outcomes = (read: 0, refused: 0)
        // Every length in the first 600 bytes (the headers), then every 97th.
        for length in Array(0..<min(600, original.count)) + Array(stride(from: 600, to: original.count, by: 97)) {
            do throws(AudioMetadataError) {
                _ = try AudioMetadataReader.read(
                    from: InMemoryByteSource(Array(original.prefix(length))), fileName: file)
                outcomes.read += 1
            } catch {
                #expect(error.fileName == file)
                outcomes.refused += 1
            }
        }
        #expect(outcomes.refused > 0)
    }

    /// One to three kinds of damage: bytes overwritten (often in the headers), a range
    /// inserted or deleted, the end cut off.
    static func damage(_ original: [UInt8], using random: inout SeededRandomNumberGenerator) -> [UInt8] {
        var bytes = original
        for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                let headers = min(bytes.count, 512)
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    let inHeaders = Bool.random(using: &random)
                    let index = Int.random(in: 0..<(inHeaders ? headers : bytes.count), using: &random)
                    bytes[index] = Self.interestingByte(using: &random)
                }
            case 1:
                let inserted = (0..<Int.random(in: 1...256, using: &random)).map { _ in
                    Self.interestingByte(using: &random)
                }
                bytes.insert(contentsOf: inserted, at: Int.random(in: 0...bytes.count, using: &random))
            case 2:
                let start = Int.random(in: 0..<bytes.count, using: &random)
                bytes.removeSubrange(start..<min(bytes.count, start + Int.random(in: 1...512, using: &random)))
            default:
                bytes.removeLast(Int.random(in: 0...bytes.count, using: &random))
            }
        }
        return bytes
    }

    /// Random bytes, weighted to those parsers care about: 0x00, 0xFF, 0x7F, 0x80.
    static func interestingByte(using random: inout SeededRandomNumberGenerator) -> UInt8 {
        Bool.random(using: &random)
            ? [0x00, 0xFF, 0x7F, 0x80, 0x01][Int.random(in: 0..<5, using: &random)]
            : UInt8.random(in: 0...255, using: &random)
    }
}

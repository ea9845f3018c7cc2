import Foundation
import Testing

@testable import MomentumAudio

@Suite("Audio metadata: every shared fixture reads as its manifest says")
struct AudioMetadataFixtureTests {
    /// The typed error each fixture the manifest marks as an error must be refused with.
    static let expectedErrors: [String: AudioMetadataError] = [
        "truncated.mp3": .truncated(fileName: "truncated.mp3", element: "ID3v2 tag", neededBytes: 120, fileSize: 40),
        "not-audio.mp3": .notAudio(fileName: "not-audio.mp3"),
    ]

    @Test func theManifestListsFixtures() throws {
        #expect(try AudioFixtures.manifest().count >= 10)
    }

    @Test(arguments: AudioFixtures.entries)
    func fixtureIsReadAsTheManifestSays(entry: AudioFixtures.Entry) throws {
        if entry.error == true {
            let expected = try #require(Self.expectedErrors[entry.file], "no expected error for \(entry.file)")
            #expect(throws: expected) { try AudioMetadataReader.read(contentsOf: AudioFixtures.url(entry.file)) }
            return
        }
        let metadata = try AudioMetadataReader.read(contentsOf: AudioFixtures.url(entry.file))
        #expect(metadata.artist == entry.artist)
        #expect(metadata.title == entry.title)
        #expect(metadata.album == entry.album)
        let expectedDuration = try #require(entry.duration)
        let seconds =
            Double(metadata.duration.components.seconds) + Double(metadata.duration.components.attoseconds) / 1e18
        #expect(abs(seconds - expectedDuration) <= 0.1, "\(seconds) s")
        #expect(metadata.format.rawValue == (entry.file as NSString).pathExtension)
    }

    @Test(arguments: AudioFixtures.entries)
    func aFileInMemoryReadsLikeTheSameFileOnDisk(entry: AudioFixtures.Entry) throws {
        let fromDisk = Result { () throws(AudioMetadataError) in
            try AudioMetadataReader.read(contentsOf: AudioFixtures.url(entry.file))
        }
        let bytes = try AudioFixtures.bytes(entry.file)
        let fromMemory = Result { () throws(AudioMetadataError) in
            try AudioMetadataReader.read(Data(bytes), fileName: entry.file)
        }
        #expect(fromDisk == fromMemory)
    }

    @Test func errorsNameTheFile() {
        for error in Self.expectedErrors.values {
            #expect(error.description.contains(error.fileName))
        }
    }
}

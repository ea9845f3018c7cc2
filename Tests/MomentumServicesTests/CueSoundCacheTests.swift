import Foundation
import MomentumAudio
import MomentumCore
import MomentumTestSupport
import Testing

@testable import MomentumServices

@Suite("Cue sound cache")
struct CueSoundCacheTests {
    @Test func aCueIsRenderedOnceIntoAFreshCacheAndThenReused() throws {
        let directory = try TemporaryDirectory()
        let cache = CueSoundCache(dataDirectory: directory.url, sampleRate: 8000)
        let file = try cache.file(for: .startGong)
        let audio = try WAVFile.decode(try Data(contentsOf: file))
        #expect(audio.format.sampleRate == 8000)
        #expect(audio.frameCount > 0)
        let written = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        #expect(try cache.file(for: .startGong) == file)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date == written)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
            .filter { $0.hasSuffix(".partial") }
        #expect(leftovers.isEmpty)
    }
}

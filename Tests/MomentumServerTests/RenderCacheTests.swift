import Foundation
import Hummingbird
import MomentumAudio
import MomentumTestSupport
import Synchronization
import Testing

@testable import MomentumServer

@Suite("The render cache and a render on its way")
struct RenderCacheTests {
    let directory: TemporaryDirectory
    let cache: RenderCache

    init() throws {
        directory = try TemporaryDirectory()
        cache = RenderCache(folder: directory.url, capacity: 3_000)
    }

    func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    }

    /// A finished render of `size` bytes, last used at `used` (seconds since 1970).
    func cached(_ tag: String, size: Int, used: TimeInterval) throws {
        let file = directory.file("\(tag).wav")
        try Data(count: size).write(to: file)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: used)], ofItemAtPath: file.path)
    }

    @Test func trimmingRemovesTheRendersUsedLongestAgoUntilTheCacheFits() throws {
        try cached("c", size: 1_000, used: 300)
        try cached("a", size: 1_000, used: 100)
        try cached("d", size: 1_000, used: 400)
        try cached("b", size: 1_000, used: 200)
        #expect(cache.trim() == ["a.wav"])
        #expect(try names() == ["b.wav", "c.wav", "d.wav"])
        #expect(cache.trim().isEmpty)
    }

    @Test func aRenderBeingWrittenCountsButIsNotRemoved() throws {
        try cached("old", size: 1_000, used: 100)
        try cached("new", size: 1_000, used: 200)
        let file = try cache.makeFile(tag: "next")
        try file.append([UInt8](repeating: 1, count: 1_500))
        #expect(cache.trim() == ["old.wav"])
        try file.commit()
        #expect(try names() == ["new.wav", "next.wav"])
    }

    @Test func openingACachedRenderMarksItUsedAndItStillReadsOnceRemoved() throws {
        try cached("a", size: 1_200, used: 100)
        try cached("b", size: 1_200, used: 200)
        let opened = try #require(cache.open(tag: "a"))
        #expect(opened.byteCount == 1_200)
        try cached("c", size: 1_200, used: 300)
        // "a" was just used, so "b" goes first; then "a", though it is open.
        #expect(RenderCache(folder: directory.url, capacity: 2_400).trim() == ["b.wav"])
        #expect(RenderCache(folder: directory.url, capacity: 0).trim() == ["c.wav", "a.wav"])
        #expect(try opened.read(at: 0, count: 4_096).count == 1_200)
        #expect(cache.open(tag: "missing") == nil)
    }

    /// Sends `job` to `writer` in a turn of `slots`; the body and its turn are gone on return.
    func send(_ job: RenderJob, holding slots: RenderSlots, to writer: some ResponseBodyWriter) async throws {
        try await job.body(holding: slots.take(), logger: .init(label: "test")).write(writer)
    }

    @Test func aFailedWriteStopsTheRenderAndLeavesNoFileBehind() async throws {
        let format = try AudioFormat(sampleRate: 8_000)
        let job = try RenderJob(source: QuietSource(format: format, frameCount: 8_000 * 3_600))
        job.keep(in: cache, tag: "sit")
        let slots = RenderSlots(limits: RenderLimits(concurrentRenders: 1))
        let writer = LeavingListener(folder: directory.url)
        await #expect(throws: LeavingListener.Gone.self) { try await send(job, holding: slots, to: writer) }
        // It was being kept while it ran, and nothing of it is left.
        #expect(writer.seen.partialFile.withLock { $0 })
        #expect(writer.seen.chunks.withLock { $0 } == 2)
        #expect(try names().isEmpty)
        #expect(slots.running == 0)
    }

    @Test func aCompleteRenderIsKeptUnderItsTag() async throws {
        let format = try AudioFormat(sampleRate: 8_000)
        let job = try RenderJob(source: QuietSource(format: format, frameCount: 1_000))
        job.keep(in: cache, tag: "short")
        let slots = RenderSlots(limits: RenderLimits(concurrentRenders: 1))
        try await send(job, holding: slots, to: DiscardingWriter())
        #expect(try names() == ["short.wav"])
        #expect(slots.running == 0)
        #expect(try Data(contentsOf: directory.file("short.wav")).count == 2_044)
    }
}

/// A listener that takes the first chunk and is gone at the second.
private struct LeavingListener: ResponseBodyWriter {
    struct Gone: Error {}

    /// What the listener saw, shared with the test.
    final class Seen: Sendable {
        let partialFile = Mutex(false)
        let chunks = Mutex(0)
    }

    let folder: URL
    let seen = Seen()

    mutating func write(_ buffer: ByteBuffer) async throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        if names.contains(where: { $0.hasSuffix(RenderCache.partialSuffix) }) {
            seen.partialFile.withLock { $0 = true }
        }
        let count = seen.chunks.withLock { count in
            count += 1
            return count
        }
        if count > 1 { throw Gone() }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// A listener that takes everything.
private struct DiscardingWriter: ResponseBodyWriter {
    mutating func write(_ buffer: ByteBuffer) async throws {}
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

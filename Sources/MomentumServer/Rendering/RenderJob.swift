import Hummingbird
import Logging
import MomentumAudio

/// One render on its way to the listener and, when it fits, into the cache: made chunk by chunk
/// on a ``RenderWorker`` and sent as it is made, so it stops as soon as the listener goes away.
///
/// Hummingbird does not cancel a request's task when its connection closes; a write to a closed
/// connection fails, though, and that ends the render within a chunk.
///
/// `@unchecked Sendable`: the stream and the cache file are used by one step at a time. Each step
/// runs on the worker only after the previous step's result was awaited, and `abandon()` runs only
/// after the last step returned, so no two threads ever touch them at once.
final class RenderJob: @unchecked Sendable {
    /// Blocks per chunk: 64 k frames, 1.5 s at 44.1 kHz, 128 KB mono; one hop to the worker each.
    static let blocksPerChunk = 16

    /// Every byte of the WAV file: the response's `Content-Length`.
    let byteCount: Int
    private var nextChunk: () -> [UInt8]?
    private var cache: Keeping = .no

    private enum Keeping {
        case no
        case asked(RenderCache, tag: String)
        case writing(RenderCache, RenderCacheFile)
    }

    /// Throws ``AudioFileError/tooLongForWAV`` for a source longer than a WAV file holds.
    init(source: some AudioSource) throws(AudioFileError) {
        var stream = try WAVByteStream(source: source)
        byteCount = stream.byteCount
        nextChunk = { stream.next(blocks: Self.blocksPerChunk) }
    }

    /// Also keeps the finished render in `cache` under `tag`, then trims the cache.
    func keep(in cache: RenderCache, tag: String) {
        self.cache = .asked(cache, tag: tag)
    }

    /// The next chunk, also written to the cache file; `nil` at the end, when the file is given
    /// its name and the cache trimmed. Blocking: runs on the worker.
    func step() -> [UInt8]? {
        if case .asked(let cache, let tag) = cache {
            // Made on the first step, so a response dropped unsent leaves no file behind.
            // try?: a cache file that cannot be made costs the cache, not the listener, who gets
            // every byte; the render is made again next time.
            self.cache = (try? cache.makeFile(tag: tag)).map { Keeping.writing(cache, $0) } ?? .no
        }
        guard let chunk = nextChunk() else {
            if case .writing(let cache, let file) = cache {
                self.cache = .no
                // try?: a file that cannot be named is removed by commit(); the listener has every
                // byte, and the render is made again next time.
                if (try? file.commit()) != nil { cache.trim() }
            }
            return nil
        }
        if case .writing(_, let file) = cache {
            do {
                try file.append(chunk)
            } catch {
                // A full disk costs the cache, not the listener.
                file.discard()
                cache = .no
            }
        }
        return chunk
    }

    /// Stops keeping the render: the half-written cache file goes.
    func abandon() {
        if case .writing(_, let file) = cache { file.discard() }
        cache = .no
    }

    /// The response body: each chunk as it is made. A failed write (the listener left) or a
    /// cancelled task stops the render and leaves no half-written file; `slot` is held until then.
    func body(holding slot: RenderSlot, logger: Logger) -> ResponseBody {
        ResponseBody(contentLength: byteCount) { writer in
            let worker = RenderWorker()
            do {
                while let chunk = try await worker.run({ self.step() }) {
                    try Task.checkCancellation()
                    try await writer.write(ByteBuffer(bytes: chunk))
                    slot.progressed()
                }
            } catch {
                self.abandon()
                logger.debug("render stopped", metadata: ["reason": "\(error)"])
                throw error
            }
            try await writer.finish(nil)
        }
    }
}

extension CachedRender {
    /// The response body: the file in chunks, read on a worker thread.
    func body() -> ResponseBody {
        ResponseBody(contentLength: byteCount) { writer in
            let worker = RenderWorker()
            var offset = 0
            while offset < self.byteCount {
                let start = offset
                let chunk = try await worker.run { try self.read(at: start, count: 256 << 10) }
                guard !chunk.isEmpty else { throw RenderCacheError.readFailed(0) }
                offset += chunk.count
                try await writer.write(ByteBuffer(bytes: chunk))
            }
            try await writer.finish(nil)
        }
    }
}

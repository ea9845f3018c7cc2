import Foundation
import Hummingbird
import Logging
import MomentumAudio
import MomentumCore
import Synchronization

/// Timelines sent as seekable 16-bit PCM WAV files at 22.05 kHz mono (``AudioFormat/runStream``),
/// made as they are sent: a run's audio and a focus timer's end sound share one instance, so
/// they share its limit of streams at once and its one thread for making chunks.
///
/// Nothing is rendered ahead: the bytes of any range are made as they are sent, 64 KB at a time,
/// from the frame the range starts at (``TimelineBlocks``). Every answer says
/// `Accept-Ranges: bytes` and gives the exact `Content-Length`: 200 with the whole file, 206 with
/// one range (it may start inside the 44-byte header), 416 for a range the file does not have;
/// several ranges get the whole file, as for the library's audio.
///
/// The chunks of every stream are made on one thread of their own, never on the threads that
/// answer requests, and at most ``RenderLimits/concurrentStreams`` streams are sent at once,
/// shared fairly by the household's people (``StreamTurns``; 503 with `Retry-After` beyond).
struct TimelineStreams: Sendable {
    static let chunkBytes = 64 << 10

    let limits: RenderLimits
    let turns: StreamTurns
    /// One serial queue for the chunks of every stream.
    let worker = RenderWorker()

    init(limits: RenderLimits) {
        self.limits = limits
        turns = StreamTurns(limit: limits.concurrentStreams, stallGrace: limits.stallGrace)
    }

    /// The answer to `request` (its `Range` header) for `timeline`'s WAV file.
    ///
    /// - Parameters:
    ///   - openEndedLength: how long to make an open-ended timeline.
    ///   - playsBed: `false` sends the file with its ambient bed silent, at the same length.
    ///   - hasEnded: asked before each chunk; once it says `true` the stream stops sending and
    ///     closes the connection, so the response is shorter than its `Content-Length` said.
    ///   - person: whose stream it is: each person has a share of the streams.
    func response(
        for timeline: Timeline, openEndedLength: Duration? = nil, playsBed: Bool = true, person: Person.ID,
        request: Request, context: BasicRequestContext, hasEnded: @escaping @Sendable () async -> Bool = { false }
    ) async throws -> Response {
        let file = try await prepare(timeline, context: context) {
            StreamedFile(
                try WAVRangeReader(
                    blocks: TimelineBlocks(
                        timeline: timeline, format: .runStream, openEndedLength: openEndedLength,
                        playsBed: playsBed)))
        }
        let size = file.byteCount
        let asked = ByteRangeRequest(header: request.headers[.range], size: size)
        var headers = HTTPFields()
        headers[.acceptRanges] = "bytes"
        headers[.cacheControl] = "no-store"
        if let contentRange = asked.contentRange(size: size) { headers[.contentRange] = contentRange }
        var wanted = 0..<size
        var status = HTTPResponse.Status.ok
        switch asked {
        case .unsatisfiable:
            headers[.contentLength] = "0"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        case .whole: break
        case .partial(let bytes):
            wanted = bytes.lowerBound..<bytes.upperBound + 1
            status = .partialContent
        }
        let turn = try turn(for: person)
        headers[.contentType] = "audio/wav"
        let range = wanted
        headers[.contentLength] = "\(range.count)"
        let worker = worker
        let body = ResponseBody(contentLength: range.count) { writer in
            var offset = range.lowerBound
            while offset < range.upperBound {
                guard await !hasEnded() else { throw StreamEnded() }
                let chunk = offset..<min(range.upperBound, offset + Self.chunkBytes)
                let bytes = try await worker.run { file.bytes(chunk) }
                try await writer.write(ByteBuffer(bytes: bytes))
                turn.progressed()
                offset = chunk.upperBound
            }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// Ends a stream whose sound has ended (a run stopped early).
    struct StreamEnded: Error {}

    /// What `make` makes of `timeline` on the worker, once its length is checked: a timeline over
    /// ``Timeline/longestRender`` is 422 `render_too_long`, a bed that cannot be rendered 422.
    func prepare<Value: Sendable>(
        _ timeline: Timeline, context: BasicRequestContext, _ make: @escaping @Sendable () throws -> Value
    ) async throws -> Value {
        do {
            try timeline.checkRenderLength()
        } catch {
            throw APIError(.unprocessableContent, code: "render_too_long", describing: error)
        }
        do {
            return try await worker.run(make)
        } catch let error as RenderError {
            context.logger.notice("ambient sound not rendered", metadata: ["error": "\(error)"])
            throw APIError.invalid(.apiAmbientUnrenderable)
        } catch {
            throw APIError.invalid(.errorAudioTooLong, code: "render_too_long")
        }
    }

    /// A turn of the streams for `person`'s request, or 503 `render_busy` with `Retry-After`.
    func turn(for person: Person.ID) throws -> StreamTurn {
        guard let turn = turns.take(for: person, connection: ClientConnection.current?.channel) else {
            let seconds = Int(limits.retryAfter.components.seconds)
            var busy = APIError(
                .serviceUnavailable, code: "render_busy", key: .errorRenderBusy, arguments: ["seconds": "\(seconds)"])
            busy.headers[.retryAfter] = "\(seconds)"
            throw busy
        }
        return turn
    }
}

/// A timeline's WAV file being read by one response.
///
/// `@unchecked Sendable`: its reader is used by one chunk at a time; each chunk is made on the
/// worker only after the previous one was awaited.
final class StreamedFile: @unchecked Sendable {
    private var reader: WAVRangeReader
    let byteCount: Int

    init(_ reader: WAVRangeReader) {
        self.reader = reader
        byteCount = reader.byteCount
    }

    /// The bytes of `range`; blocking, run on the worker.
    func bytes(_ range: Range<Int>) -> [UInt8] {
        reader.bytes(range)
    }
}

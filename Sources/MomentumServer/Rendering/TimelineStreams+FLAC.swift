import Foundation
import Hummingbird
import MomentumAudio
import MomentumCore

extension TimelineStreams {
    /// `timeline` as one FLAC file (``FLACByteStream``, 22.05 kHz mono), whole and sent as it is
    /// made: what a device keeps to play a practice offline (docs/offline.md). It decodes to the
    /// same samples as the WAV stream. Its length is known only once it is made, so the answer has
    /// no `Content-Length` and takes no ranges (the device answers ranges from its own copy). It
    /// shares the streams' limit, their fair shares and their one thread with the WAV streams.
    func flacResponse(for timeline: Timeline, person: Person.ID, context: BasicRequestContext) async throws
        -> Response
    {
        let stream = try await prepare(timeline, context: context) {
            FLACStream(
                FLACByteStream(
                    source: TimelineReader(
                        blocks: try TimelineBlocks(timeline: timeline, format: .runStream, openEndedLength: nil))))
        }
        let turn = try turn(for: person)
        var headers = HTTPFields()
        headers[.contentType] = "audio/flac"
        headers[.cacheControl] = "no-store"
        let worker = worker
        let body = ResponseBody { writer in
            while let bytes = try await worker.run({ stream.next() }) {
                try await writer.write(ByteBuffer(bytes: bytes))
                turn.progressed()
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}

/// A timeline's FLAC file being made for one response.
///
/// `@unchecked Sendable`: used by one chunk at a time; each chunk is made on the worker only after
/// the previous one was awaited.
final class FLACStream: @unchecked Sendable {
    private var stream: FLACByteStream<TimelineReader>

    init(_ stream: FLACByteStream<TimelineReader>) {
        self.stream = stream
    }

    /// The next 16 frames' bytes (about 3 s of sound); blocking, run on the worker.
    func next() -> [UInt8]? { stream.next(frames: 16) }
}

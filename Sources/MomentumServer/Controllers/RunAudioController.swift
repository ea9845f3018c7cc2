import Foundation
import Hummingbird
import MomentumCore

/// `GET /api/v1/runs/{id}/audio`: a run's whole timeline — countdown, ambient bed, every cue, the
/// end gong ringing out — as one 16-bit PCM WAV file at 22.05 kHz mono
/// (``AudioFormat/runStream``), for a browser's `<audio>` element to play and seek; made as it is
/// sent, with byte ranges, by the server's ``TimelineStreams``.
///
/// `?bed=off` answers the same file with its ambient bed silent (the same length, the same cues
/// at the same samples), so the page can switch to it at the same position while a guided
/// meditation takes the sound, and back to `bed=on` (the default) after.
///
/// An open-ended sit is made ``openEndedLength`` long (10 hours). A run that is stopped before
/// its end ends its streams: each stops sending at its next chunk and closes the connection, so
/// the response is shorter than its `Content-Length` said; asked for after the stop, the audio
/// is refused with 409 before any byte.
struct RunAudioController {
    static let openEndedLength: Duration = Timeline.longestRender

    let registry: any PracticeRuns
    let streams: TimelineStreams
    /// Whose runs these are: their streams count against that person's share.
    let person: Person.ID

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get(":id/audio", use: audio)
    }

    @Sendable func audio(_ request: Request, context: BasicRequestContext) async throws -> Response {
        guard let text = context.parameters.get("id"), let id = UUID(uuidString: text) else {
            throw APIError.notFound(.apiNoRunWithThatID)
        }
        let playsBed = try Self.playsBed(request)
        guard let run = try await registry.run(id: id) else {
            throw APIError.notFound(.apiNoRun, ["id": id.uuidString.lowercased()])
        }
        // A run stopped before its end has no more sound: say so before any byte, rather than
        // promise a length and close at once (a stream running while it is stopped ends short).
        guard !run.wasStoppedEarly else { throw APIError.conflict(.apiRunAudioEnded) }
        let (registry, logger) = (registry, context.logger)
        return try await streams.response(
            for: run.run.timeline, openEndedLength: Self.openEndedLength, playsBed: playsBed, person: person,
            request: request, context: context
        ) {
            // A store that fails for a moment ends nothing: the next chunk asks again.
            let ended: Bool
            do { ended = try await registry.run(id: id).map(\.wasStoppedEarly) ?? true } catch { return false }
            if ended { logger.debug("run stopped: its audio ends", metadata: ["run": "\(id)"]) }
            return ended
        }
    }

    /// `?bed=on` (the default) or `?bed=off`.
    static func playsBed(_ request: Request) throws -> Bool {
        switch request.uri.queryParameters["bed"].map(String.init) ?? "on" {
        case "on": true
        case "off": false
        case let other: throw APIError.invalid(.apiBedChoice, ["value": String(other.prefix(20))])
        }
    }
}

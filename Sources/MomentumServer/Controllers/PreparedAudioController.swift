import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// `GET /api/v1/runs/prepared/{key}/audio`: a prepared practice's whole timeline as FLAC, for a
/// device to keep and play offline (docs/offline.md) — made by the same renderer from the same
/// timeline as the run's stream, so it holds the same samples. An open-ended sit has no end to
/// prepare (422); an unknown key is 404.
struct PreparedAudioController {
    let services: MomentumServices
    let streams: TimelineStreams
    /// Whose practices these are: their streams count against that person's share.
    let person: Person.ID

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("prepared/:key/audio", use: audio)
    }

    @Sendable func audio(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let key = context.parameters.get("key") ?? ""
        let language = try await LanguageChoice.language(for: request, settings: services.settings)
        let prepared = try await RunsController.preparedRuns(of: services, language: language)
        guard let run = prepared.first(where: { $0.key == key })?.run else {
            throw APIError.notFound(.apiNoPreparedPractice, ["key": String(key.prefix(100))])
        }
        let timeline = run.run.timeline
        guard timeline.totalDuration != nil else { throw APIError.invalid(.apiPreparedOpenEnded) }
        return try await streams.flacResponse(for: timeline, person: person, context: context)
    }
}

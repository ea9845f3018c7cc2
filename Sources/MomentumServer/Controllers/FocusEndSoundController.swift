import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// `GET /api/v1/timers/{id}/end-sound`: what is left of a running focus timer as a WAV stream —
/// silence for the time left, then the end gong ringing out — for the page's `<audio>` element,
/// which keeps playing behind a locked phone screen where the page's own timers stop. Made from
/// the instant of the request (the server's clock), with byte ranges, by the server's
/// ``TimelineStreams`` (the same limit of streams and thread as a run's audio).
///
/// A timer that is not running (paused, idle, or its time is up) is refused with 409 before any
/// byte; an unknown one with 404.
struct FocusEndSoundController {
    let timers: FocusTimerService
    let now: @Sendable () -> Date
    let streams: TimelineStreams
    /// Whose timers these are: their streams count against that person's share.
    let person: Person.ID

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get(":id/end-sound", use: endSound)
    }

    @Sendable func endSound(_ request: Request, context: BasicRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id"), !id.isEmpty else { throw APIError.notFound(.apiNoTimer) }
        let timer = try await timers.timer(named: id)
        let timeline: Timeline
        do {
            timeline = try timer.remainingTimeline(at: now())
        } catch .notRunning {
            throw APIError.conflict(.apiTimerNotRunning, ["name": timer.name])
        }
        return try await streams.response(for: timeline, person: person, request: request, context: context)
    }
}

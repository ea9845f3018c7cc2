import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

extension FocusTimersController {
    /// `POST /api/v1/timers/intents`: what a page did to its own focus timers while the server was
    /// out of reach, in the order it did it (docs/offline.md). Each is applied at its instant and
    /// merged by the sync rules: the last change made wins, whenever it arrives.
    ///
    /// ```json
    /// {"node": "w-3f9a0c…", "intents": [
    ///   {"timer": "…", "action": "start", "at": "2026-12-02T07:00:00.000Z"},
    ///   {"timer": "…", "action": "tick", "item": "…", "done": true, "at": "…"}]}
    /// ```
    struct IntentsBody: Decodable {
        /// The page's name as a replica: `w-` and up to 62 letters, digits or `. _ @ : -`, made
        /// once by the page and kept.
        var node: String
        var intents: [IntentBody]
    }

    struct IntentBody: Decodable {
        enum Action: String, Decodable {
            case start, pause, reset, tick
        }
        var timer: UUID
        var action: Action
        /// For `tick`: the item, and whether it is done.
        var item: UUID?
        var done: Bool?
        var at: Date
    }

    struct IntentsResponse: Encodable {
        /// What became of each intent, in the order sent.
        var outcomes: [FocusTimerIntentOutcome]
        /// The list as `GET /timers` answers it now.
        var timers: [Timer]
    }

    @Sendable func applyIntents(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<
        IntentsResponse
    > {
        let body = try await RequestBody.decode(IntentsBody.self, from: request)
        let intents = try body.intents.enumerated().map { index, intent in
            try FocusTimerIntent(
                timer: intent.timer, action: Self.action(of: intent, at: index), at: intent.at)
        }
        let outcomes = try await intentService.apply(
            intents, node: body.node, device: DeviceName.current)
        return JSONResponse(IntentsResponse(outcomes: outcomes, timers: try await listed()))
    }

    private static func action(of intent: IntentBody, at index: Int) throws -> FocusTimerIntent.Action {
        if intent.action != .tick {
            // An item or a state with a start, pause or reset is a mistake, not something to ignore.
            if intent.item != nil { throw JSONInputError.unknownField("intents[\(index)].item") }
            if intent.done != nil { throw JSONInputError.unknownField("intents[\(index)].done") }
        }
        switch intent.action {
        case .start: return .start
        case .pause: return .pause
        case .reset: return .reset
        case .tick:
            guard let item = intent.item else {
                throw APIError.invalid(.apiMissingField, ["field": "intents[\(index)].item"], code: "missing_field")
            }
            guard let done = intent.done else {
                throw APIError.invalid(.apiMissingField, ["field": "intents[\(index)].done"], code: "missing_field")
            }
            return .tick(item: item, done: done)
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer

/// `POST /api/v1/timers/intents` over HTTP: what a page did offline, applied at its instants, the
/// page's name on the changes; a bad sending is refused whole with a sentence.
@Suite("Timer intents over HTTP")
struct TimerIntentRoutesTests {
    @Test func aPagesOfflineTickAndPauseAreAppliedAtTheirInstants() async throws {
        let server = try await TestServer()
        let clock = server.clock
        try await server.test { client in
            let created = try await client.send(
                .post, "/api/v1/timers", json: #"{"name": "Reading", "durationMs": 600000, "items": ["water"]}"#)
            let timer = try created.object
            let id = try #require(timer["id"] as? String)
            let item = try #require((timer["items"] as? [[String: Any]])?.first?["id"] as? String)
            #expect(try await client.send(.post, "/api/v1/timers/\(id)/start", json: "{}").status == .ok)
            let started = clock.now
            clock.advance(by: 300)
            let paused = WireDate.text(started.addingTimeInterval(120))
            let ticked = WireDate.text(started.addingTimeInterval(60))
            let body = """
                {"node": "w-phone1", "intents": [
                  {"timer": "\(id)", "action": "pause", "at": "\(paused)"},
                  {"timer": "\(id)", "action": "tick", "item": "\(item)", "done": true, "at": "\(ticked)"}]}
                """
            var headers = HTTPFields()
            headers[.xMomentumDevice] = "Anna%27s%20phone"
            let answer = try await client.send(.post, "/api/v1/timers/intents", json: body, headers: headers)
            #expect(answer.status == .ok)
            #expect(try answer.object["outcomes"] as? [String] == ["applied", "applied"])
            let listed = try #require((try answer.object["timers"] as? [[String: Any]])?.first)
            #expect(listed["status"] as? String == "paused")
            #expect(listed["remainingMs"] as? Int == 480_000)
            #expect((listed["items"] as? [[String: Any]])?.first?["done"] as? Bool == true)
            let run = try await client.send(.get, "/api/v1/sync/last-change?type=focusTimer&id=\(id)&field=run")
            #expect(try run.object["device"] as? String == "Anna's phone")

            // Sent again: nothing twice.
            let again = try await client.send(.post, "/api/v1/timers/intents", json: body, headers: headers)
            #expect(try again.object["outcomes"] as? [String] == ["alreadyApplied", "alreadyApplied"])
        }
    }

    @Test func aBadSendingIsRefusedWholeWithASentence() async throws {
        let server = try await TestServer()
        let clock = server.clock
        try await server.test { client in
            let created = try await client.send(.post, "/api/v1/timers", json: #"{"name": "Tea", "durationMs": 60000}"#)
            let id = try #require(try created.object["id"] as? String)
            let at = WireDate.text(clock.now)
            let badNode = try await client.send(
                .post, "/api/v1/timers/intents",
                json: #"{"node": "n-server", "intents": [{"timer": "\#(id)", "action": "start", "at": "\#(at)"}]}"#)
            #expect(badNode.status == .unprocessableContent)
            let message = try #require((try badNode.object["error"] as? [String: Any])?["message"] as? String)
            #expect(message.contains("reload the page"))
            let noItem = try await client.send(
                .post, "/api/v1/timers/intents",
                json:
                    #"{"node": "w-a", "intents": [{"timer": "\#(id)", "action": "tick", "done": true, "at": "\#(at)"}]}"#
            )
            #expect(noItem.status == .unprocessableContent)
            let itemWithAStart = try await client.send(
                .post, "/api/v1/timers/intents",
                json:
                    #"{"node": "w-a", "intents": [{"timer": "\#(id)", "action": "start", "done": true, "at": "\#(at)"}]}"#
            )
            #expect(itemWithAStart.status == .badRequest)
            let unknownField = try await client.send(
                .post, "/api/v1/timers/intents",
                json: #"{"node": "w-a", "intents": [], "extra": 1}"#)
            #expect(unknownField.status == .badRequest)
            let list = try await client.send(.get, "/api/v1/timers")
            #expect((try list.object["timers"] as? [[String: Any]])?.first?["status"] as? String == "idle")
        }
    }
}

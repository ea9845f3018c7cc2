import Foundation
import HummingbirdTesting
import MomentumCore
import MomentumStoreTestSupport
import Testing

@testable import MomentumServer

/// Issue 39: a run says what stopping it now would come to, and the one question the page asks
/// (the terminal's rule); a refused value names its field; a sit says what it is.
@Suite("Runs: the stop question, refusals that name their field, a sit's name and summary")
struct StopQuestionRoutesTests {
    let start = "2027-01-15T08:00:00Z"

    @Test func aRunAsksToKeepAnEarlyStopOfAMinuteOrMoreAndSaysAShortOneIsNotLogged() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let started = try await client.send(
                .post, "/api/v1/runs",
                json: #"{"kind":"meditation","plan":{"durationMs":600000,"countdownMs":0},"at":"\#(start)"}"#)
            let id = try #require(try started.object["id"] as? String)
            let early = try #require(try started.object["ifStopped"] as? [String: Any])
            #expect(early["outcome"] as? String == "tooShortToLog")
            #expect(early["asksToKeep"] as? Bool == false)
            #expect((early["question"] as? String)?.contains("not logged") == true)

            let paused = try await client.send(
                .post, "/api/v1/runs/\(id)/pause", json: #"{"at":"2027-01-15T08:01:10Z"}"#)
            let asked = try #require(try paused.object["ifStopped"] as? [String: Any])
            #expect(asked["outcome"] as? String == "stoppedEarly")
            #expect(asked["asksToKeep"] as? Bool == true)
            #expect(asked["practicedMs"] as? Int == 70_000)
            #expect(asked["question"] as? String == "Stop here? You practised 1 min 10 s. Keep it in your log?")

            // Asking changed nothing: the run is as it was, and stopping it ends the question.
            let stopped = try await client.send(
                .post, "/api/v1/runs/\(id)/stop", json: #"{"at":"2027-01-15T08:01:10Z","keep":false}"#)
            #expect(try stopped.object["ifStopped"] == nil)
            #expect((try stopped.object["ending"] as? [String: Any])?["logged"] as? Bool == false)
        }
        await #expect(try server.services.practiceLog.records().isEmpty)
    }

    @Test func theQuestionIsInTheRequestsLanguage() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let started = try await client.send(
                .post, "/api/v1/runs",
                json: #"{"kind":"workout","plan":{"rounds":20},"at":"\#(start)"}"#)
            let id = try #require(try started.object["id"] as? String)
            let paused = try await client.send(
                .post, "/api/v1/runs/\(id)/pause?lang=de", json: #"{"at":"2027-01-15T08:02:00Z"}"#,
                headers: [.acceptLanguage: "de"])
            let asked = try #require(try paused.object["ifStopped"] as? [String: Any])
            #expect((asked["question"] as? String)?.hasPrefix("Hier aufhören?") == true)
        }
    }

    @Test func aRefusedPlanNamesTheFieldAtFault() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let gongs = try await client.send(
                .post, "/api/v1/runs",
                json: #"{"kind":"meditation","plan":{"durationMs":600000,"#
                    + #""intervalGongs":{"mode":"offsets","offsetsMs":[1500000]}}}"#)
            #expect(gongs.status == .unprocessableContent)
            #expect(gongs.errorField == "intervalGongs")
            let length = try await client.send(.post, "/api/v1/meditation/timeline", json: #"{"durationMs":0}"#)
            #expect(length.errorField == "durationMs")
            let name = try await client.send(.post, "/api/v1/meditation/presets", json: #"{"name":" ","plan":{}}"#)
            #expect(name.errorField == "name")
            let work = try await client.send(
                .post, "/api/v1/workouts/programs", json: #"{"name":"x","plan":{"workMs":999999999}}"#)
            #expect(work.errorField == "workMs")
        }
    }

    @Test func aSitStartedFromASavedSitSaysItsNameAndWhatItIs() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let saved = try await client.send(
                .post, "/api/v1/meditation/presets",
                json: #"{"name":"Zazen","plan":{"durationMs":2400000,"#
                    + #""intervalGongs":{"mode":"offsets","offsetsMs":[1500000,1800000]}}}"#)
            #expect(saved.status == .created)
            let run = try await client.send(.post, "/api/v1/runs", json: #"{"kind":"meditation","preset":"zazen"}"#)
            #expect(try run.object["name"] as? String == "Zazen")
            #expect(try run.object["summary"] as? String == "40 min · gongs at 25, 30 min")
            // The saved sit's form, for editing it.
            let form = try await client.send(.get, "/api/v1/meditation/form?preset=Zazen")
            #expect((try form.object["plan"] as? [String: Any])?["durationMs"] as? Int == 2_400_000)
            #expect((try form.object["interval"] as? [String: Any])?["text"] as? String == "25,30")
            let missing = try await client.send(.get, "/api/v1/meditation/form?preset=Nowhere")
            #expect(missing.status == .notFound)
        }
        // Using a saved sit never becomes the quick sit (the core's MeditationPlan.lastSit).
        await #expect(try server.services.settings.load().meditation.duration != .minutes(40))
    }
}

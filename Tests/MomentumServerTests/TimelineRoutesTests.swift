import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer

@Suite("Timelines: plan in, the core's timeline out")
struct TimelineRoutesTests {
    /// The timeline the core computes, as the wire form.
    private func wire(_ timeline: Timeline) throws -> String {
        String(decoding: try JSONResponse<Timeline>.encoder.encode(timeline), as: UTF8.self)
    }

    @Test func aMeditationTimelineIsExactlyWhatTheCoreComputes() async throws {
        let server = try await TestServer()
        let plan = MeditationPlan(duration: .minutes(20), countdown: .seconds(10), intervalGongs: .every(minutes: 5))
        let expected = try wire(try plan.timeline())
        try await server.test { client in
            let body = #"{"durationMs":1200000,"countdownMs":10000,"intervalGongs":{"mode":"every","minutes":5}}"#
            let response = try await client.send(.post, "/api/v1/meditation/timeline", json: body)
            #expect(response.status == .ok)
            #expect(response.text == expected)
            #expect(try response.object["totalMs"] as? Int == 1_210_000)
        }
    }

    @Test func aBreathingTimelineFromAPatternOrAPreset() async throws {
        let server = try await TestServer()
        let expected = try wire(
            try BreathingPlan(pattern: BreathingPattern(parsing: "4-7-8-0"), length: .rounds(3)).timeline())
        try await server.test { client in
            let response = try await client.send(
                .post, "/api/v1/breathing/timeline", json: #"{"pattern":"4-7-8-0","rounds":3}"#)
            #expect(response.status == .ok)
            #expect(response.text == expected)
            let preset = try await client.send(
                .post, "/api/v1/breathing/timeline", json: #"{"preset":"box","rounds":2}"#)
            #expect(preset.status == .ok)
            // Three seconds to get ready, then two rounds of 16 s.
            #expect(try preset.object["totalMs"] as? Int == 35_000)
            #expect(try preset.object["leadInMs"] as? Int == 3_000)
        }
    }

    @Test func aWorkoutTimelineTakesTheDefaultsForMissingFields() async throws {
        let server = try await TestServer()
        let expected = try wire(try WorkoutPlan(rounds: 3).timeline())
        try await server.test { client in
            let response = try await client.send(.post, "/api/v1/workouts/timeline", json: #"{"rounds":3}"#)
            #expect(response.status == .ok)
            #expect(response.text == expected)
        }
    }

    @Test(arguments: [
        (
            "/api/v1/meditation/timeline", #"{"durationMs":0}"#, HTTPResponse.Status.unprocessableContent,
            "invalid_value"
        ),
        ("/api/v1/meditation/timeline", #"{"durationMs":"ten"}"#, .badRequest, "wrong_type"),
        ("/api/v1/meditation/timeline", #"{"ambientID":"thunder"}"#, .unprocessableContent, "invalid_value"),
        ("/api/v1/meditation/timeline", #"{"intervalGongs":{}}"#, .badRequest, "missing_field"),
        ("/api/v1/meditation/timeline", #"{"durationMs": 1"#, .badRequest, "malformed_json"),
        ("/api/v1/breathing/timeline", #"{"pattern":"4-x"}"#, .unprocessableContent, "invalid_value"),
        ("/api/v1/breathing/timeline", #"{"pattern":"4-4-4-4","rounds":1000}"#, .unprocessableContent, "invalid_value"),
        ("/api/v1/breathing/timeline", #"{"preset":"nope"}"#, .notFound, "not_found"),
        ("/api/v1/workouts/timeline", #"{"workMs":0}"#, .unprocessableContent, "invalid_value"),
        ("/api/v1/workouts/timeline", #"{"activity":"swimming"}"#, .unprocessableContent, "invalid_value"),
        ("/api/v1/workouts/timeline", #"[1,2]"#, .badRequest, "wrong_type"),
    ])
    func badPlansAreClearErrors(uri: String, body: String, status: HTTPResponse.Status, code: String) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(.post, uri, json: body)
            #expect(response.status == status)
            #expect(response.errorCode == code)
            #expect(response.errorMessage?.isEmpty == false)
        }
    }

    @Test func anOutOfRangeDurationNamesTheProblemInWords() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(
                .post, "/api/v1/meditation/timeline", json: #"{"durationMs":99999999}"#)
            #expect(
                response.errorMessage == StringCatalog.shared(for: .english)[.errorDurationTooLong])
        }
    }
}

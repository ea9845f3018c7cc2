import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer

@Suite("Runs: the sound interruptions a stop reports are told, logged and refused like other input")
struct RunSoundInterruptionRoutesTests {
    let start = "2027-01-15T08:00:00Z"
    let fifteenMinutes =
        #"{"kind":"meditation","plan":{"durationMs":900000,"countdownMs":0},"at":"2027-01-15T08:00:00Z"}"#
    let reported = #""soundInterruptions":[{"atMs":30000,"durationMs":500},{"atMs":751000,"durationMs":4000}]"#

    func started(_ client: some TestClientProtocol, _ body: String) async throws -> String {
        let response = try await client.send(.post, "/api/v1/runs", json: body)
        return try #require(try response.object["id"] as? String, "\(response.text)")
    }

    @Test func aStopLogsOnlyTheInterruptionOverASecondAndSaysItInEnglish() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let id = try await started(client, fifteenMinutes)
            let stopped = try await client.send(
                .post, "/api/v1/runs/\(id)/stop", json: #"{"at":"2027-01-15T08:15:00Z",\#(reported)}"#)
            #expect(stopped.status == .ok, "\(stopped.text)")
            let ending = try #require(try stopped.object["ending"] as? [String: Any])
            #expect(ending["logged"] as? Bool == true)
            let kept = try #require(ending["soundInterruptions"] as? [[String: Any]])
            #expect(kept.count == 1)
            #expect(kept.first?["atMs"] as? Int == 751_000)
            #expect(kept.first?["durationMs"] as? Int == 4000)
            #expect(ending["soundText"] as? String == "The sound was interrupted for 4 s at 12:31.")
            let record = try #require(try stopped.object["record"] as? [String: Any])
            #expect((record["details"] as? [String: Any])?["soundInterruptions"] as? String == "751000+4000")

            let log = try await client.send(.get, "/api/v1/log")
            let records = try #require(try log.object["records"] as? [[String: Any]])
            #expect(records.count == 1)
            #expect(records.first?["soundText"] as? String == "The sound was interrupted for 4 s at 12:31.")
        }
        let logged = try await #require(try server.services.practiceLog.records().first)
        #expect(try logged.soundInterruptions == [SoundInterruption(offset: .seconds(751), length: .seconds(4))])
    }

    @Test func theSentenceFollowsTheRequestsLanguageEvenWhenNothingIsLogged() async throws {
        let server = try await TestServer()
        let german: HTTPFields = [.acceptLanguage: "de"]
        try await server.test { client in
            let logged = try await started(client, fifteenMinutes)
            let stopped = try await client.send(
                .post, "/api/v1/runs/\(logged)/stop", json: #"{"at":"2027-01-15T08:15:00Z",\#(reported)}"#,
                headers: german)
            let ending = try #require(try stopped.object["ending"] as? [String: Any])
            #expect(ending["soundText"] as? String == "Der Ton war bei 12:31 für 4 Sek. unterbrochen.")
            let log = try await client.send(.get, "/api/v1/log", headers: german)
            let records = try #require(try log.object["records"] as? [[String: Any]])
            #expect(records.first?["soundText"] as? String == "Der Ton war bei 12:31 für 4 Sek. unterbrochen.")

            let short = try await started(client, #"{"kind":"breathing","at":"\#(start)"}"#)
            let tooShort = try await client.send(
                .post, "/api/v1/runs/\(short)/stop",
                json: #"{"at":"2027-01-15T08:00:30Z","soundInterruptions":[{"atMs":12000,"durationMs":3000}]}"#)
            let shortEnding = try #require(try tooShort.object["ending"] as? [String: Any])
            #expect(shortEnding["logged"] as? Bool == false)
            #expect(shortEnding["soundText"] as? String == "The sound was interrupted for 3 s at 00:12.")
            #expect((shortEnding["soundInterruptions"] as? [Any])?.count == 1)
        }
        await #expect(try server.services.practiceLog.records().count == 1)
    }

    @Test func aStopWithoutInterruptionsAddsNothing() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let id = try await started(client, fifteenMinutes)
            let stopped = try await client.send(
                .post, "/api/v1/runs/\(id)/stop",
                json: #"{"at":"2027-01-15T08:15:00Z","soundInterruptions":[{"atMs":30000,"durationMs":1000}]}"#)
            let ending = try #require(try stopped.object["ending"] as? [String: Any])
            #expect((ending["soundInterruptions"] as? [Any])?.isEmpty == true)
            #expect(ending["soundText"] == nil)
            let log = try await client.send(.get, "/api/v1/log")
            let records = try #require(try log.object["records"] as? [[String: Any]])
            #expect(records.first?["soundText"] == nil)
        }
        await #expect(try server.services.practiceLog.records().first?.details["soundInterruptions"] == nil)
    }

    static let tooMany =
        "[" + (0...500).map { #"{"atMs":\#($0 * 1000),"durationMs":2000}"# }.joined(separator: ",") + "]"

    @Test(arguments: [
        (#"[{"atMs":-1,"durationMs":4000}]"#, HTTPResponse.Status.unprocessableContent),
        (#"[{"atMs":751000,"durationMs":-4000}]"#, .unprocessableContent),
        (#"[{"atMs":36000001,"durationMs":4000}]"#, .unprocessableContent),
        (#"[{"atMs":751000,"durationMs":36000001}]"#, .unprocessableContent),
        (#"[{"atMs":9223372036854775807,"durationMs":9223372036854775807}]"#, .unprocessableContent),
        // Read as JSON that is not a whole number, as every `…Ms` field of a body is.
        (#"[{"atMs":1e300,"durationMs":4000}]"#, .badRequest),
        (#"[{"atMs":751000.5,"durationMs":4000}]"#, .badRequest),
        (#"[{"atMs":"NaN","durationMs":4000}]"#, .badRequest),
        (#"[{"atMs":NaN,"durationMs":4000}]"#, .badRequest),
        (#"[{"atMs":751000}]"#, .badRequest),
        (#"[{"atMs":751000,"durationMs":4000,"volume":1}]"#, .badRequest),
        (#"{"atMs":751000,"durationMs":4000}"#, .badRequest),
        (#""751000+4000""#, .badRequest),
        (RunSoundInterruptionRoutesTests.tooMany, .unprocessableContent),
    ])
    func refusedInterruptionsAreClearErrorsAndStopNothing(list: String, status: HTTPResponse.Status) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let id = try await started(client, fifteenMinutes)
            let refused = try await client.send(
                .post, "/api/v1/runs/\(id)/stop", json: #"{"at":"2027-01-15T08:15:00Z","soundInterruptions":\#(list)}"#)
            #expect(refused.status == status, "\(refused.text)")
            #expect(refused.errorMessage?.isEmpty == false)
            #expect(refused.errorMessage?.contains(" ") == true, "a catalog sentence, not a key")
            let shown = try await client.send(.get, "/api/v1/runs/\(id)")
            #expect(try shown.object["status"] as? String == "running")
            #expect(try shown.object["ending"] == nil)
            // The page can send the stop again without the report.
            let again = try await client.send(.post, "/api/v1/runs/\(id)/stop", json: #"{"at":"2027-01-15T08:15:00Z"}"#)
            #expect(again.status == .ok)
        }
        await #expect(try server.services.practiceLog.records().count == 1)
    }

    @Test func refusalsAreWordedByTheCatalogInTheRequestsLanguage() async throws {
        let server = try await TestServer()
        let german: HTTPFields = [.acceptLanguage: "de"]
        try await server.test { client in
            let id = try await started(client, fifteenMinutes)
            let negative = try await client.send(
                .post, "/api/v1/runs/\(id)/stop", json: #"{"soundInterruptions":[{"atMs":-1,"durationMs":4000}]}"#)
            #expect(
                negative.errorMessage
                    == "A sound interruption must lie between the start of the practice and 10 h into it.")
            let many = try await client.send(
                .post, "/api/v1/runs/\(id)/stop", json: #"{"soundInterruptions":\#(Self.tooMany)}"#, headers: german)
            #expect(
                many.errorMessage
                    == "Mit einer Übung lassen sich höchstens 500 Tonunterbrechungen melden; gesendet wurden 501.")
        }
    }

    @Test func aPauseTakesNoInterruptions() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let id = try await started(client, fifteenMinutes)
            let paused = try await client.send(
                .post, "/api/v1/runs/\(id)/pause", json: #"{"soundInterruptions":[{"atMs":1000,"durationMs":4000}]}"#)
            #expect(paused.status == .badRequest)
            let shown = try await client.send(.get, "/api/v1/runs/\(id)")
            #expect(try shown.object["status"] as? String == "running")
        }
    }
}

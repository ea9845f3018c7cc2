import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import MomentumServer

/// The reproductions of issue 21: each was a crash or a 500, each is now a 422 that changes
/// nothing.
@Suite("Input from outside is refused with a 422, never a crash or a 500")
struct InputSafetyRoutesTests {
    @Test func aHugeRiseTimeIsRefusedAndTheSettingsStay() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let before = try await client.send(.get, "/api/v1/morse/settings").text
            for value in ["1e300", "-1.7e308"] {
                let response = try await client.send(
                    .patch, "/api/v1/morse/settings", json: #"{"riseMilliseconds": \#(value)}"#)
                #expect(response.status == .unprocessableContent)
                #expect(response.errorMessage?.contains("riseMilliseconds") == true, "\(response.text)")
            }
            #expect(try await client.send(.get, "/api/v1/morse/settings").text == before)
        }
    }

    @Test func aHugeResponseTimeIsRefusedAndTheItemStillWaits() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let started = try await client.send(.post, "/api/v1/morse/sessions", json: #"{"direction":"receive"}"#)
            let id = try #require(try started.object["id"] as? String)
            try await client.send(.post, "/api/v1/morse/sessions/\(id)/start")
            let before = try await client.send(.get, "/api/v1/morse/sessions/\(id)").text
            let response = try await client.send(
                .post, "/api/v1/morse/sessions/\(id)/answer", json: #"{"answer":"k","responseMs":1e300}"#)
            #expect(response.status == .unprocessableContent)
            #expect(try await client.send(.get, "/api/v1/morse/sessions/\(id)").text == before)
            let answered = try await client.send(
                .post, "/api/v1/morse/sessions/\(id)/answer", json: #"{"answer":"k","responseMs":800}"#)
            #expect(answered.status == .ok)
        }
    }

    @Test func aRunStartedBefore1970IsRefusedAndTheRunsKeepWorking() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let refused = try await client.send(
                .post, "/api/v1/runs",
                json: #"{"kind":"meditation","plan":{"durationMs":60000,"countdownMs":0},"at":"1969-06-01T00:00:00Z"}"#)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorMessage?.contains("1969-06-01") == true, "\(refused.text)")
            #expect(try await client.send(.get, "/api/v1/runs").status == .ok)
            let started = try await client.send(
                .post, "/api/v1/runs", json: #"{"kind":"meditation","plan":{"durationMs":60000,"countdownMs":0}}"#)
            #expect(started.status == .created)
            let id = try #require(try started.object["id"] as? String)
            let late = try await client.send(.post, "/api/v1/runs/\(id)/pause", json: #"{"at":"2027-01-17T08:00:00Z"}"#)
            #expect(late.status == .unprocessableContent)
        }
    }

    @Test func aRunWithinADayOfNowIsTaken() async throws {
        let server = try await TestServer()
        try await server.test { client in
            // The test clock stands at 2027-01-15T08:00:00Z.
            let started = try await client.send(
                .post, "/api/v1/runs",
                json: #"{"kind":"meditation","plan":{"durationMs":60000,"countdownMs":0},"at":"2027-01-14T09:00:00Z"}"#)
            #expect(started.status == .created)
        }
    }

    @Test func aRecordBefore1970OrTooFarAheadIsRefusedInTheRequestsLanguage() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let early = try await client.send(
                .post, "/api/v1/log", json: #"{"kind":"meditation","start":"1969-12-31T23:00:00Z","durationMs":600000}"#
            )
            #expect(early.status == .unprocessableContent)
            let ahead = try await client.send(
                .post, "/api/v1/log",
                json: #"{"kind":"meditation","start":"2027-01-17T08:00:00Z","durationMs":600000}"#,
                headers: [.acceptLanguage: "de"])
            #expect(ahead.status == .unprocessableContent)
            #expect(ahead.errorMessage?.contains("zu spät") == true, "\(ahead.text)")
            let records = try await client.send(.get, "/api/v1/log")
            #expect((try records.object["records"] as? [Any])?.isEmpty == true, "\(records.text)")
        }
    }

    @Test func tooMuchEnergyIsRefused() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(
                .post, "/api/v1/log",
                json: #"{"kind":"workout","start":"2027-01-15T07:00:00Z","durationMs":600000,"energyKilocalories":1e9}"#
            )
            #expect(response.status == .unprocessableContent)
            #expect(response.errorMessage?.contains("10000") == true, "\(response.text)")
        }
    }

    @Test(arguments: [#""\u0000""#, #""Focus\u0000hidden""#, #""bell\u0007""#, #""\u001b[2J""#, #""del\u007f""#])
    func aNameWithAControlCharacterIsRefused(_ name: String) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(
                .post, "/api/v1/timers", json: #"{"name":\#(name),"durationMs":60000}"#)
            #expect(response.status == .unprocessableContent, "\(response.text)")
            #expect(response.errorMessage?.contains("U+00") == true, "\(response.text)")
            let timers = try await client.send(.get, "/api/v1/timers")
            #expect((try timers.object["timers"] as? [Any])?.isEmpty == true, "\(timers.text)")
        }
    }

    @Test func notesMayHoldLineBreaksButANameMayNot() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let notes = try await client.send(
                .post, "/api/v1/timers", json: #"{"name":"Focus","durationMs":60000,"notes":"one\ntwo\tthree"}"#)
            #expect(notes.status == .created, "\(notes.text)")
            let name = try await client.send(.post, "/api/v1/timers", json: #"{"name":"Fo\ncus","durationMs":60000}"#)
            #expect(name.status == .unprocessableContent, "\(name.text)")
            let preset = try await client.send(
                .post, "/api/v1/breathing/presets", json: #"{"name":"Even\ting","pattern":"4-2-6-0","rounds":8}"#)
            #expect(preset.status == .unprocessableContent, "\(preset.text)")
        }
    }

    @Test func theBodyCheckReadsEscapesOnly() {
        func refused(_ json: String) -> UInt32? {
            MomentumServer.RequestBody.refusedControlCharacter(inJSON: Data(json.utf8))
        }
        #expect(refused(#"{"a":"\u0000"}"#) == 0)
        #expect(refused(#"{"a":"\b"}"#) == 8)
        #expect(refused(#"{"a":"\\u0000"}"#) == nil)
        #expect(refused(#"{"a":"x\n\t\r\u000A é 🧘"}"#) == nil)
        #expect(refused("{\"a\":\"\u{85}\"}") == 0x85)
    }
}

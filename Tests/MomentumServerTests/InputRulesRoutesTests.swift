import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer

/// Issue 22.6: what should not be stored is refused by the API with the core's message, and
/// nothing changes. (The test clock stands at 2027-01-15T08:00:00Z.)
@Suite("The API refuses what the input rules refuse")
struct InputRulesRoutesTests {
    @Test func aMisspelledPlanKeyIsRefusedInsteadOfStartingADefaultSit() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let refused = try await client.send(
                .post, "/api/v1/runs", json: #"{"kind":"meditation","plan":{"durationMinutes":5,"countdownMs":0}}"#)
            #expect(refused.status == .badRequest)
            #expect(refused.errorCode == "unknown_field")
            #expect(refused.errorMessage?.contains("“plan.durationMinutes”") == true, "\(refused.text)")
            let runs = try await client.send(.get, "/api/v1/runs")
            #expect(runs.text.contains("meditation") == false, "\(runs.text)")
        }
    }

    @Test func aMisspelledTopLevelKeyIsRefusedInTheRequestsLanguage() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let refused = try await client.send(
                .post, "/api/v1/runs", json: #"{"kind":"meditation","plan":{"durationMs":60000},"startAt":"x"}"#,
                headers: [.acceptLanguage: "de"])
            #expect(refused.status == .badRequest)
            #expect(refused.errorMessage?.hasPrefix("„startAt“ ist hier kein Feld") == true, "\(refused.text)")
        }
    }

    @Test(arguments: [
        ("/api/v1/timers", #"{"name":"Read","durationMs":60000,"colour":"red"}"#, "colour"),
        ("/api/v1/log", #"{"kind":"meditation","start":"2027-01-15T07:00:00Z","durationMs":600000,"kcal":5}"#, "kcal"),
        ("/api/v1/breathing/presets", #"{"name":"Calm","pattern":"4-4-4-4","round":5}"#, "round"),
        (
            "/api/v1/meditation/timeline", #"{"durationMs":60000,"intervalGongs":{"mode":"off","minutes":5}}"#,
            "intervalGongs.minutes"
        ),
    ])
    func anUnknownFieldAnywhereIsRefusedAndNothingIsStored(path: String, body: String, field: String) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let refused = try await client.send(.post, path, json: body)
            #expect(refused.status == .badRequest, "\(refused.text)")
            #expect(refused.errorCode == "unknown_field")
            #expect(refused.errorMessage?.contains("“\(field)”") == true, "\(refused.text)")
        }
        await #expect(try server.services.focusTimers.timers().isEmpty)
        await #expect(try server.services.practiceLog.records().isEmpty)
        await #expect(try server.services.breathing.presets().allSatisfy(\.isBuiltIn))
    }

    @Test func aSessionStartingMoreThanADayAheadOrWithTooMuchEnergyIsNotLogged() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let ahead = try await client.send(
                .post, "/api/v1/log", json: #"{"kind":"meditation","start":"2027-01-16T08:01:00Z","durationMs":600000}"#
            )
            #expect(ahead.status == .unprocessableContent)
            let energetic = try await client.send(
                .post, "/api/v1/log",
                json:
                    #"{"kind":"workout","start":"2027-01-15T07:00:00Z","durationMs":600000,"energyKilocalories":10001}"#
            )
            #expect(energetic.status == .unprocessableContent)
            #expect(energetic.errorMessage == "Energy must be between 0 and 10000 kcal.")
        }
        await #expect(try server.services.practiceLog.records().isEmpty)
    }

    @Test func aNameOverOneHundredCharactersIsRefusedForPresetsAndPrograms() async throws {
        let server = try await TestServer()
        let long = String(repeating: "n", count: 101)
        try await server.test { client in
            let preset = try await client.send(
                .post, "/api/v1/breathing/presets", json: #"{"name":"\#(long)","pattern":"4-4-4-4"}"#)
            #expect(preset.status == .unprocessableContent)
            #expect(preset.errorMessage == "A name can be at most 100 characters; shorten it.")
            let program = try await client.send(.post, "/api/v1/workouts/programs", json: #"{"name":"\#(long)"}"#)
            #expect(program.status == .unprocessableContent)
            #expect(program.errorMessage == "A name can be at most 100 characters; shorten it.")
            let fits = try await client.send(
                .post, "/api/v1/workouts/programs", json: #"{"name":"\#(String(long.dropFirst()))"}"#)
            #expect(fits.status == .created, "\(fits.text)")
        }
    }

    @Test func anUnknownIconIsRefused() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let refused = try await client.send(
                .post, "/api/v1/timers", json: #"{"name":"Read","durationMs":60000,"icon":"rocket"}"#)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorMessage?.hasPrefix("“rocket” is not an icon name. Choose one of: timer,") == true)
            let taken = try await client.send(
                .post, "/api/v1/timers", json: #"{"name":"Read","durationMs":60000,"icon":"book"}"#)
            #expect(taken.status == .created, "\(taken.text)")
        }
    }

    @Test func anIntervalGongAtTheEndOfTheSitIsRefusedWhenARunStarts() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let refused = try await client.send(
                .post, "/api/v1/runs",
                json:
                    #"{"kind":"meditation","plan":{"durationMs":600000,"intervalGongs":{"mode":"every","minutes":10}}}"#
            )
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorMessage?.contains("at or after the end of the 10 min sit") == true, "\(refused.text)")
        }
    }

    @Test func aSyncedRecordStartingMoreThanADayAfterItsChangeIsRefused() async throws {
        let server = try await TestServer()
        var phone = try TestDevice(node: "phone", name: "browser@phone")
        let record = "00000000-0000-4000-8000-0000000000e1"
        var change = try phone.set(.practiceRecord, record, "start", .integer(1_800_000_000_000))
        change["value"] = 1_800_000_000_000 + 86_400_000 + 60_000
        let body = try pushBody([change])
        try await server.test { client in
            let refused = try await client.send(.post, "/api/v1/sync/push", json: body)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorCode == "wrong_value")
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer

@Suite("Saved sits over the API")
struct MeditationPresetsRoutesTests {
    static let evening =
        #"{"name":"Evening","plan":{"durationMs":1200000,"countdownMs":10000,"intervalGongs":{"mode":"every","minutes":5},"ambientID":"rain","ambientVolume":0.3}}"#

    @Test func savedSitsAreListedAddedShownEditedAndDeletedEachWithItsSummary() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let empty = try await client.send(.get, "/api/v1/meditation/presets")
            #expect((try empty.object["presets"] as? [Any])?.isEmpty == true)

            let added = try await client.send(.post, "/api/v1/meditation/presets?lang=de", json: Self.evening)
            #expect(added.status == .created, "\(added.text)")
            let id = try #require(try added.object["id"] as? String)
            #expect(try added.object["name"] as? String == "Evening")
            #expect(try added.object["summary"] as? String == "20 Min. · Gong alle 5 Min. · Sanfter Regen")
            #expect((try added.object["plan"] as? [String: Any])?["durationMs"] as? Int == 1_200_000)
            #expect(try added.object["createdAt"] as? String != nil)

            let shown = try await client.send(.get, "/api/v1/meditation/presets/evening")
            #expect(try shown.object["id"] as? String == id)
            #expect(try shown.object["summary"] as? String == "20 min · gongs every 5 min · Soft rain")

            let edited = try await client.send(
                .patch, "/api/v1/meditation/presets/\(id)",
                json:
                    #"{"name":"Late evening","plan":{"isOpenEnded":true,"intervalGongs":{"mode":"offsets","offsetsMs":[1500000,1800000]}}}"#
            )
            #expect(edited.status == .ok, "\(edited.text)")
            #expect(try edited.object["name"] as? String == "Late evening")
            #expect(try edited.object["summary"] as? String == "open-ended · gongs at 25, 30 min")

            let list = try await client.send(.get, "/api/v1/meditation/presets")
            let presets = try #require(try list.object["presets"] as? [[String: Any]])
            #expect(presets.map { $0["name"] as? String } == ["Late evening"])

            #expect(try await client.send(.delete, "/api/v1/meditation/presets/\(id)").status == .noContent)
            #expect(try await client.send(.delete, "/api/v1/meditation/presets/\(id)").status == .notFound)
        }
        await #expect(try server.services.meditationPresets.presets().isEmpty)
    }

    @Test func refusalsSayWhyInTheRequestsLanguageAndStoreNothing() async throws {
        let server = try await TestServer()
        try await server.test { client in
            #expect(try await client.send(.post, "/api/v1/meditation/presets", json: Self.evening).status == .created)

            let taken = try await client.send(
                .post, "/api/v1/meditation/presets?lang=de", json: #"{"name":"EVENING","plan":{}}"#)
            #expect(taken.status == .conflict)
            #expect(
                taken.errorMessage == "Es gibt schon eine gespeicherte Sitzung „EVENING“; wähle einen anderen Namen.")

            let unknownField = try await client.send(
                .post, "/api/v1/meditation/presets", json: #"{"name":"Odd","plan":{},"colour":"red"}"#)
            #expect(unknownField.status == .badRequest)
            let unknownPlanField = try await client.send(
                .post, "/api/v1/meditation/presets", json: #"{"name":"Odd","plan":{"durationMinutes":5}}"#)
            #expect(unknownPlanField.status == .badRequest)

            let tooLong = try await client.send(
                .post, "/api/v1/meditation/presets", json: #"{"name":"Odd","plan":{"durationMs":36000001}}"#)
            #expect(tooLong.status == .unprocessableContent)
            let blank = try await client.send(.post, "/api/v1/meditation/presets", json: #"{"name":"  ","plan":{}}"#)
            #expect(blank.status == .unprocessableContent)
            #expect(blank.errorMessage == "A saved sit needs a name.")

            let missing = try await client.send(.get, "/api/v1/meditation/presets/nowhere?lang=de")
            #expect(missing.status == .notFound)
            #expect(
                missing.errorMessage
                    == "Es gibt keine gespeicherte Sitzung „nowhere“; momentum meditate presets zeigt alle."
            )

            // A refused plan leaves the name as it was too.
            let badEdit = try await client.send(
                .patch, "/api/v1/meditation/presets/evening", json: #"{"name":"Dawn","plan":{"ambientID":"thunder"}}"#)
            #expect(badEdit.status == .unprocessableContent)
        }
        await #expect(try server.services.meditationPresets.presets().map(\.name) == ["Evening"])
    }

    @Test func aRunStartsFromASavedSit() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let added = try await client.send(.post, "/api/v1/meditation/presets", json: Self.evening)
            let id = try #require(try added.object["id"] as? String)
            let started = try await client.send(
                .post, "/api/v1/runs", json: #"{"kind":"meditation","preset":"\#(id)"}"#)
            #expect(started.status == .created, "\(started.text)")
            #expect((try started.object["timeline"] as? [String: Any])?["totalMs"] as? Int == 1_210_000)

            let unknown = try await client.send(
                .post, "/api/v1/runs", json: #"{"kind":"meditation","preset":"nowhere"}"#)
            #expect(unknown.status == .notFound)
            let breathing = try await client.send(
                .post, "/api/v1/runs", json: #"{"kind":"breathing","preset":"\#(id)"}"#)
            #expect(breathing.status == .badRequest)
            let both = try await client.send(
                .post, "/api/v1/runs", json: #"{"kind":"meditation","preset":"\#(id)","plan":{"durationMs":60000}}"#)
            #expect(both.status == .badRequest)
        }
    }
}

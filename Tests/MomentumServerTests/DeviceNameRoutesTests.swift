import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer

/// A browser's name (`X-Momentum-Device`) stamps the changes its requests make; a name that is not
/// valid is refused before anything is written.
@Suite("Device names: the X-Momentum-Device header")
struct DeviceNameRoutesTests {
    static let header = HTTPField.Name.xMomentumDevice
    static let timer = #"{"name": "Reading", "durationMs": 600000}"#

    static func named(_ value: String, as name: String = "X-Momentum-Device") throws -> HTTPFields {
        var fields = HTTPFields()
        fields.append(HTTPField(name: try #require(HTTPField.Name(name)), value: value))
        return fields
    }

    @Test func aNamedBrowsersChangesCarryItsName() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.send(
                .post, "/api/v1/timers", json: Self.timer, headers: try Self.named("Anna's%20phone"))
            #expect(created.status == .created)
            let id = try #require(try created.object["id"] as? String)
            let field = try await client.send(.get, "/api/v1/sync/last-change?type=focusTimer&id=\(id)&field=name")
            let answer = try field.object
            #expect(answer["device"] as? String == "Anna's phone")
            #expect(answer["by"] as? [String: String] == ["kind": "device", "name": "Anna's phone"])

            // The pulled log, which other devices merge, carries the same name.
            let pulled = try await client.send(.get, "/api/v1/sync/pull?after=0")
            let changes = try #require(try pulled.object["changes"] as? [[String: Any]])
            #expect(
                Set(changes.compactMap { ($0["change"] as? [String: Any])?["device"] as? String }) == ["Anna's phone"])

            // A request without the header keeps the server's own name.
            let started = try await client.send(.post, "/api/v1/timers/\(id)/start", json: "{}")
            #expect(started.status == .ok)
            let run = try await client.send(.get, "/api/v1/sync/last-change?type=focusTimer&id=\(id)&field=run")
            #expect(try run.object["device"] as? String == "test")
            #expect(try run.object["by"] as? [String: String] == ["kind": "device", "name": "test"])
        }
    }

    @Test func aTimerThatRanOutWhileABrowserReadsKeepsTheServersName() async throws {
        let server = try await TestServer()
        let clock = server.clock
        try await server.test { client in
            let created = try await client.send(
                .post, "/api/v1/timers", json: #"{"name": "Tea", "durationMs": 60000}"#,
                headers: try Self.named("Desk"))
            let id = try #require(try created.object["id"] as? String)
            #expect(try await client.send(.post, "/api/v1/timers/\(id)/start", json: "{}").status == .ok)
            clock.advance(by: 120)
            // Anna's phone reads the list: the timer is settled done by that read, not changed by it.
            let list = try await client.send(.get, "/api/v1/timers", headers: try Self.named("Anna's%20phone"))
            #expect(try (list.object["timers"] as? [[String: Any]])?.first?["status"] as? String == "completed")
            let run = try await client.send(.get, "/api/v1/sync/last-change?type=focusTimer&id=\(id)&field=run")
            #expect(try run.object["device"] as? String == "test")
            let name = try await client.send(.get, "/api/v1/sync/last-change?type=focusTimer&id=\(id)&field=name")
            #expect(try name.object["device"] as? String == "Desk")
        }
    }

    @Test func theDeviceRouteSaysWhatTheServerMakesOfTheHeader() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let named = try await client.send(
                .get, "/api/v1/device", headers: try Self.named("J%C3%BCrgens%20Handy%20"))
            #expect(named.status == .ok)
            #expect(named.text == #"{"name":"Jürgens Handy"}"#)
            let unnamed = try await client.send(.get, "/api/v1/device")
            #expect(unnamed.text == #"{"name":null}"#)
        }
    }

    @Test(arguments: [
        ("Anna%07", "control characters"),
        (String(repeating: "a", count: 200), "at most 40 characters; this one has 200"),
        ("%E2%80%AEenohp", "invisible direction controls"),
        ("%20%20", "at least one character"),
        ("web%40laptop", "web@"),
        ("terminal@laptop", "web@"),
        ("100%", "percent-encoded"),
    ])
    func aHostileNameIsRefusedAndNothingIsWritten(value: String, says: String) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let refused = try await client.send(
                .post, "/api/v1/timers", json: Self.timer, headers: try Self.named(value))
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorCode == "invalid_device_name")
            #expect(refused.errorMessage?.contains(says) == true, "\(refused.errorMessage ?? "")")
            let reading = try await client.send(.get, "/api/v1/device", headers: try Self.named(value))
            #expect(reading.status == .unprocessableContent)
            let list = try await client.send(.get, "/api/v1/timers")
            #expect(try (list.object["timers"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func aRefusalIsSaidInThePagesLanguage() async throws {
        let server = try await TestServer()
        try await server.test { client in
            var headers = try Self.named(String(repeating: "a", count: 41))
            headers[.acceptLanguage] = "de"
            let refused = try await client.send(.get, "/api/v1/device", headers: headers)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorMessage == "Der Name eines Geräts darf höchstens 40 Zeichen haben; dieser hat 41.")
        }
    }

    @Test func headerSpellings() async throws {
        let server = try await TestServer()
        try await server.test { client in
            // Header names are case-insensitive: any spelling of this one counts.
            let lower = try await client.send(
                .get, "/api/v1/device", headers: try Self.named("Desk", as: "x-momentum-device"))
            #expect(lower.text == #"{"name":"Desk"}"#)
            let upper = try await client.send(
                .get, "/api/v1/device", headers: try Self.named("Desk", as: "X-MOMENTUM-DEVICE"))
            #expect(upper.text == #"{"name":"Desk"}"#)
            // Other names are not this header: left alone.
            for other in ["X-Momentum-Device-Name", "X-Momentum-Devices", "Momentum-Device", "X-Device"] {
                let answer = try await client.send(
                    .get, "/api/v1/device", headers: try Self.named("Desk", as: other))
                #expect(answer.text == #"{"name":null}"#, "\(other)")
            }
            // Sent twice (even alike), it is refused: one request, one name.
            var twice = try Self.named("Desk")
            twice.append(HTTPField(name: Self.header, value: "Desk"))
            let refused = try await client.send(.post, "/api/v1/timers", json: Self.timer, headers: twice)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorCode == "invalid_device_name")
        }
    }

    @Test func anotherSitesPageIsStoppedBeforeItsNameCounts() async throws {
        let server = try await TestServer()
        try await server.test { client in
            var headers = try Self.named("Anna's%20phone")
            headers[.origin] = "https://evil.example"
            let refused = try await client.send(.post, "/api/v1/timers", json: Self.timer, headers: headers)
            #expect(refused.status == .forbidden)
            #expect(refused.errorCode == "cross_origin")
            let list = try await client.send(.get, "/api/v1/timers")
            #expect(try (list.object["timers"] as? [Any])?.isEmpty == true)
        }
    }
}

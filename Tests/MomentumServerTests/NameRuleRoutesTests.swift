import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import MomentumServices
import Testing

@testable import MomentumServer

/// One text rule for every name (issue 46): a bidirectional control or U+FEFF anywhere in a name
/// is refused with 422 and a sentence naming the character, and nothing is stored — whichever
/// route the name comes through.
@Suite("Names refuse direction controls through every route")
struct NameRuleRoutesTests {
    /// A route that takes a name, and how many things of its kind the server holds.
    struct EntryPoint: CustomTestStringConvertible, Sendable {
        var path: String
        /// The body with `NAME` where the name goes (as a JSON string's contents).
        var body: String
        var count: @Sendable (TestServer) async throws -> Int
        var testDescription: String { path }
    }

    static let entryPoints = [
        EntryPoint(path: "/api/v1/timers", body: #"{"name":"NAME","durationMs":60000}"#) {
            try await $0.services.focusTimers.timers().count
        },
        EntryPoint(path: "/api/v1/timers", body: #"{"name":"Tea","durationMs":60000,"items":["NAME"]}"#) {
            try await $0.services.focusTimers.timers().count
        },
        EntryPoint(path: "/api/v1/meditation/presets", body: #"{"name":"NAME","plan":{"durationMs":1200000}}"#) {
            try await $0.services.meditationPresets.presets().count
        },
        EntryPoint(path: "/api/v1/breathing/presets", body: #"{"name":"NAME","pattern":"4-2-6-0","rounds":8}"#) {
            try await $0.services.breathing.presets().count
        },
        EntryPoint(path: "/api/v1/workouts/programs", body: #"{"name":"NAME"}"#) {
            try await $0.services.workouts.programs().count
        },
        EntryPoint(path: "/api/v1/people", body: #"{"name":"NAME"}"#) { try await $0.household.people().count },
    ]

    static let directionControls: [UInt32] = [
        0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C, 0xFEFF,
    ]

    static func hex(_ code: UInt32) -> String { String(format: "%04X", code) }

    /// One server per route, every control through it: 78 servers (one per route and control),
    /// each made and migrated synchronously, held the shared test threads for most of a minute
    /// and starved the suites with live servers.
    @Test(arguments: entryPoints)
    func aNameWithADirectionControlIsRefusedAndNothingIsStored(entry: EntryPoint) async throws {
        let server = try await TestServer()
        let before = try await entry.count(server)
        for code in Self.directionControls {
            // At the start (what trimming would not see) and inside the name.
            for name in ["\\u\(Self.hex(code))Calm", "Ca\\u\(Self.hex(code))lm"] {
                let body = entry.body.replacingOccurrences(of: "NAME", with: name)
                let response = try await server.test { client in
                    try await client.send(.post, entry.path, json: body)
                }
                #expect(response.status == .unprocessableContent, "\(entry.path) \(name): \(response.text)")
                #expect(response.errorMessage?.contains("U+\(Self.hex(code))") == true, "\(response.text)")
            }
        }
        #expect(try await entry.count(server) == before)
        // The same route takes the name without it.
        let plain = try await server.test { client in
            try await client.send(.post, entry.path, json: entry.body.replacingOccurrences(of: "NAME", with: "Calm"))
        }
        #expect((200..<300).contains(plain.status.code), "\(entry.path): \(plain.text)")
    }

    @Test func theRefusalIsInThePersonsLanguage() async throws {
        let server = try await TestServer()
        let response = try await server.test { client in
            try await client.send(
                .post, "/api/v1/meditation/presets?lang=de", json: #"{"name":"\u202Ebad","plan":{"durationMs":60000}}"#)
        }
        #expect(response.status == .unprocessableContent)
        #expect(response.errorMessage?.contains("Richtungs-Steuerzeichen") == true, "\(response.text)")
        #expect(response.errorMessage?.contains("U+202E") == true)
    }

    @Test(arguments: directionControls)
    func aDeviceNameWithADirectionControlIsRefused(code: UInt32) async throws {
        let server = try await TestServer()
        let encoded = String(Character(try #require(Unicode.Scalar(code)))).addingPercentEncoding(
            withAllowedCharacters: .alphanumerics)
        let headers: HTTPFields = [.xMomentumDevice: "Anna" + (encoded ?? "")]
        let response = try await server.test { client in
            try await client.send(.get, "/api/v1/device", headers: headers)
        }
        #expect(response.status == .unprocessableContent, "\(response.text)")
        #expect(response.errorCode == "invalid_device_name")
        #expect(response.errorMessage?.contains("U+\(Self.hex(code))") == true, "\(response.text)")
    }
}

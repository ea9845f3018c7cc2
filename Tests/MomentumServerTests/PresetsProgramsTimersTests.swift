import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer

@Suite("Breathing presets, workout programs and focus timers")
struct PresetsProgramsTimersTests {
    @Test func breathingPresetsAreListedAddedEditedAndDeleted() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let list = try await client.send(.get, "/api/v1/breathing/presets?lang=de")
            let presets = try #require(try list.object["presets"] as? [[String: Any]])
            #expect(presets.count == BreathingPreset.builtIn.count)
            #expect(presets.first?["name"] as? String == BreathingPreset.builtIn[0].displayName(.shared(for: .german)))

            let added = try await client.send(
                .post, "/api/v1/breathing/presets", json: #"{"name":"Evening","pattern":"4-2-6-0","rounds":8}"#)
            #expect(added.status == .created)
            let id = try #require(try added.object["id"] as? String)
            #expect(try added.object["pattern"] as? String == "4-2-6-0")

            let edited = try await client.send(
                .put, "/api/v1/breathing/presets/\(id)", json: #"{"rounds":12,"name":"Late evening"}"#)
            #expect(edited.status == .ok, "\(edited.text)")
            #expect(try edited.object["rounds"] as? Int == 12)
            #expect(try edited.object["name"] as? String == "Late evening")

            let taken = try await client.send(.post, "/api/v1/breathing/presets", json: #"{"name":"late EVENING"}"#)
            #expect(taken.status == .unprocessableContent)

            let builtIn = try await client.send(.delete, "/api/v1/breathing/presets/box")
            #expect(builtIn.status == .unprocessableContent)
            #expect(try await client.send(.delete, "/api/v1/breathing/presets/\(id)").status == .noContent)
            #expect(try await client.send(.delete, "/api/v1/breathing/presets/\(id)").status == .notFound)
        }
        await #expect(try server.services.breathing.presets().count == BreathingPreset.builtIn.count)
    }

    @Test func aBadPresetStoresNothing() async throws {
        let server = try await TestServer()
        try await server.test { client in
            for body in [
                #"{"name":"X","pattern":"0-0-0-0"}"#, #"{"name":"","pattern":"4-4-4-4"}"#, #"{"pattern":"4-4-4-4"}"#,
            ] {
                let response = try await client.send(.post, "/api/v1/breathing/presets", json: body)
                #expect([.badRequest, .unprocessableContent].contains(response.status), "\(body)")
            }
        }
        await #expect(try server.services.breathing.presets().count == BreathingPreset.builtIn.count)
    }

    @Test func workoutProgramsAreListedAddedEditedAndDeleted() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let list = try await client.send(.get, "/api/v1/workouts/programs")
            #expect((try list.object["programs"] as? [Any])?.count == WorkoutProgram.builtIn.count)
            let added = try await client.send(
                .post, "/api/v1/workouts/programs", json: #"{"name":"Legs","plan":{"workMs":40000,"rounds":6}}"#)
            #expect(added.status == .created, "\(added.text)")
            let id = try #require(try added.object["id"] as? String)
            let edited = try await client.send(.put, "/api/v1/workouts/programs/\(id)", json: #"{"plan":{"rounds":8}}"#)
            let plan = try #require(try edited.object["plan"] as? [String: Any])
            #expect(plan["rounds"] as? Int == 8)
            #expect(plan["workMs"] as? Int == 40000)
            let bad = try await client.send(.put, "/api/v1/workouts/programs/\(id)", json: #"{"plan":{"rounds":0}}"#)
            #expect(bad.status == .unprocessableContent)
            #expect(try await client.send(.delete, "/api/v1/workouts/programs/\(id)").status == .noContent)
            #expect(try await client.send(.get, "/api/v1/workouts/programs/\(id)").status == .methodNotAllowed)
            #expect(try await client.send(.delete, "/api/v1/workouts/programs/nope").status == .notFound)
        }
    }

    @Test func aFocusTimerWithItemsIsTickedMovedStartedPausedAndReset() async throws {
        let server = try await TestServer()
        let clock = server.clock
        try await server.test { client in
            let added = try await client.send(
                .post, "/api/v1/timers",
                json: #"{"name":"Morning pages","durationMs":1500000,"items":["water","notebook"]}"#)
            #expect(added.status == .created, "\(added.text)")
            let id = try #require(try added.object["id"] as? String)
            let withItem = try await client.send(.post, "/api/v1/timers/\(id)/items", json: #"{"text":"phone away"}"#)
            let items = try #require(try withItem.object["items"] as? [[String: Any]])
            #expect(items.compactMap { $0["text"] as? String } == ["water", "notebook", "phone away"])
            let phone = try #require(items.last?["id"] as? String)

            let ticked = try await client.send(.patch, "/api/v1/timers/\(id)/items/\(phone)", json: #"{"done":true}"#)
            #expect((try ticked.object["items"] as? [[String: Any]])?.last?["done"] as? Bool == true)
            let renamed = try await client.send(
                .patch, "/api/v1/timers/\(id)/items/\(phone)", json: #"{"text":"phone in drawer","done":false}"#)
            #expect((try renamed.object["items"] as? [[String: Any]])?.last?["text"] as? String == "phone in drawer")
            #expect((try renamed.object["items"] as? [[String: Any]])?.last?["done"] as? Bool == false)
            let moved = try await client.send(
                .post, "/api/v1/timers/\(id)/items/\(phone)/move", json: #"{"position":1}"#)
            #expect((try moved.object["items"] as? [[String: Any]])?.first?["id"] as? String == phone)
            let removed = try await client.send(.delete, "/api/v1/timers/\(id)/items/\(phone)")
            #expect((try removed.object["items"] as? [Any])?.count == 2)

            let started = try await client.send(.post, "/api/v1/timers/\(id)/start")
            #expect(try started.object["status"] as? String == "running")
            clock.advance(by: 600)
            let paused = try await client.send(.post, "/api/v1/timers/\(id)/pause")
            #expect(try paused.object["status"] as? String == "paused")
            #expect(try paused.object["remainingMs"] as? Int == 900_000)
            let pausedAgain = try await client.send(.post, "/api/v1/timers/\(id)/pause")
            #expect(pausedAgain.status == .conflict)
            let reset = try await client.send(.post, "/api/v1/timers/\(id)/reset")
            #expect(try reset.object["status"] as? String == "idle")

            let timeline = try await client.send(.get, "/api/v1/timers/\(id)/timeline")
            #expect(try timeline.object["totalMs"] as? Int == 1_500_000)
            let edited = try await client.send(
                .patch, "/api/v1/timers/\(id)", json: ##"{"name":"Pages","color":"#112233"}"##)
            #expect(try edited.object["name"] as? String == "Pages")
            let list = try await client.send(.get, "/api/v1/timers")
            #expect((try list.object["timers"] as? [Any])?.count == 1)
            // The services' timer view, the one `momentum timer list --json` prints: sortOrder from
            // 0 as before, and position (from 1) and startedAt added.
            let first = try #require((try list.object["timers"] as? [[String: Any]])?.first)
            #expect(first["sortOrder"] as? Int == 0)
            #expect(first["position"] as? Int == 1)
            #expect(first["durationMs"] as? Int == 1_500_000)
            #expect(try await client.send(.delete, "/api/v1/timers/\(id)").status == .noContent)
            #expect(try await client.send(.get, "/api/v1/timers/\(id)").status == .notFound)
        }
    }

    @Test func badTimerInputIsAClearErrorAndStoresNothing() async throws {
        let server = try await TestServer()
        try await server.test { client in
            for body in [
                #"{"name":"","durationMs":60000}"#, #"{"name":"A","durationMs":0}"#, #"{"name":"A","color":"red"}"#,
                #"{"durationMs":60000}"#, #"{"name":"A","items":[""]}"#,
            ] {
                let response = try await client.send(.post, "/api/v1/timers", json: body)
                #expect([.badRequest, .unprocessableContent].contains(response.status), "\(body) \(response.text)")
                #expect(response.errorMessage?.isEmpty == false)
            }
            let unknown = try await client.send(.post, "/api/v1/timers/nope/start")
            #expect(unknown.status == .notFound)
        }
        await #expect(try server.services.focusTimers.timers().isEmpty)
    }
}

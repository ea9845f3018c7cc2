import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import MomentumServices
import Testing

@testable import MomentumServer

/// A focus timer shared within a household (docs/people.md): it stays its owner's, and whoever it
/// is shared with sees it, runs it and ticks it; no one else sees it at all.
@Suite("Shared focus timers")
struct SharedTimerRoutesTests {
    /// Ada (the founder) and Ben, off loopback, each with a token; Ada has a timer with two items.
    struct Household {
        let server: TestServer
        let ada: HTTPFields
        let ben: HTTPFields
        let timer: FocusTimer

        init() async throws {
            server = try await TestServer(host: "0.0.0.0")
            let ben = try await server.household.add(named: "Ben")
            self.ada = await Self.bearer(try server.services.accessTokens.create(name: "ada").secret)
            self.ben = await Self.bearer(try server.services.accessTokens.create(name: "ben", personID: ben.id).secret)
            timer = try await server.services.focusTimers.addTimer(
                name: "Chores", duration: .seconds(1500), items: ["Dishes", "Laundry"], icon: FocusTimer.defaultIcon,
                color: FocusTimer.defaultColor, notes: "")
        }

        static func bearer(_ secret: String) -> HTTPFields {
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(secret)"
            return headers
        }

        var id: String { timer.id.uuidString.lowercased() }
    }

    static func timers(_ response: TestResponse) throws -> [[String: Any]] {
        try #require(try response.object["timers"] as? [[String: Any]])
    }

    @Test func anUnsharedTimerIsInvisibleToTheOtherPersonByListAndById() async throws {
        let home = try await Household()
        let (_, ben, id, items) = (home.ada, home.ben, home.id, home.timer.items)
        try await home.server.test { client in
            let list = try await client.send(.get, "/api/v1/timers", headers: ben)
            #expect(try Self.timers(list).isEmpty)
            for path in ["", "/timeline"] {
                let response = try await client.send(.get, "/api/v1/timers/\(id)\(path)", headers: ben)
                #expect(response.status == .notFound)
            }
            let tick = try await client.send(
                .patch, "/api/v1/timers/\(id)/items/\(items[0].id.uuidString)", json: #"{"done":true}"#,
                headers: ben)
            #expect(tick.status == .notFound)
        }
        await #expect(try home.server.services.focusTimers.timer(named: home.id).items.map(\.done) == [false, false])
    }

    @Test func aSharedTimerIsListedWithItsOwnerAndTickedIntoTheOwnersTimer() async throws {
        let home = try await Household()
        let (ada, ben, id, items) = (home.ada, home.ben, home.id, home.timer.items)
        try await home.server.test { client in
            let shared = try await client.send(
                .put, "/api/v1/timers/\(id)/sharing", json: #"{"with":["ben"]}"#, headers: ada)
            #expect(shared.status == .ok)
            #expect(try shared.object["sharedWith"] as? [String] == ["Ben"])
            let list = try Self.timers(try await client.send(.get, "/api/v1/timers", headers: ben))
            #expect(list.count == 1)
            #expect(list.first?["owner"] as? String == "Ada")
            #expect(list.first?["name"] as? String == "Chores")
            let item = items[1].id.uuidString.lowercased()
            let tick = try await client.send(
                .patch, "/api/v1/timers/\(id)/items/\(item)", json: #"{"done":true}"#, headers: ben)
            #expect(tick.status == .ok)
            let start = try await client.send(.post, "/api/v1/timers/\(id)/start", headers: ben)
            #expect(start.status == .ok)
            // Only its owner deletes, moves or shares it.
            #expect(try await client.send(.delete, "/api/v1/timers/\(id)", headers: ben).status == .notFound)
            let reshare = try await client.send(
                .put, "/api/v1/timers/\(id)/sharing", json: #"{"with":[]}"#, headers: ben)
            #expect(reshare.status == .notFound)
            let own = try Self.timers(try await client.send(.get, "/api/v1/timers", headers: ada))
            #expect(own.first?["owner"] == nil)
            #expect(own.first?["sharedWith"] as? [String] == ["Ben"])
        }
        let timer = try await home.server.services.focusTimers.timer(named: home.id)
        #expect(timer.items.map(\.done) == [false, true])
        #expect(timer.run.status == .running)
        // Ben's own practice holds nothing of it.
        let benPerson = try await home.server.household.person(named: "Ben")
        await #expect(try home.server.household.services(for: benPerson).focusTimers.timers().isEmpty)
    }

    @Test func sharingWithNoOneTakesItAwayAgain() async throws {
        let home = try await Household()
        let (ada, ben, id, _) = (home.ada, home.ben, home.id, home.timer.items)
        try await home.server.test { client in
            _ = try await client.send(
                .put, "/api/v1/timers/\(id)/sharing", json: #"{"with":["Ben"]}"#, headers: ada)
            _ = try await client.send(
                .put, "/api/v1/timers/\(id)/sharing", json: #"{"with":[]}"#, headers: ada)
            #expect(try Self.timers(try await client.send(.get, "/api/v1/timers", headers: ben)).isEmpty)
        }
    }

    @Test func sharingWithAnUnknownPersonOrTheOwnerIsRefusedAndChangesNothing() async throws {
        let home = try await Household()
        let (ada, ben, id, _) = (home.ada, home.ben, home.id, home.timer.items)
        try await home.server.test { client in
            let unknown = try await client.send(
                .put, "/api/v1/timers/\(id)/sharing", json: #"{"with":["Ben","Zoe"]}"#, headers: ada)
            #expect(unknown.status == .notFound)
            #expect(unknown.errorMessage?.contains("Zoe") == true)
            let owner = try await client.send(
                .put, "/api/v1/timers/\(id)/sharing", json: #"{"with":["Ada"]}"#, headers: ada)
            #expect(owner.status == .unprocessableContent)
            let extra = try await client.send(
                .put, "/api/v1/timers/\(id)/sharing", json: #"{"with":["Ben"],"owner":"x"}"#, headers: ada)
            #expect(extra.status == .badRequest)
            #expect(try Self.timers(try await client.send(.get, "/api/v1/timers", headers: ben)).isEmpty)
        }
    }

    /// A push naming another person's timer or item — shared or not, guessed or known — merges
    /// nothing; a push of one's own new timer merges as ever.
    @Test func aPushNamingAnotherPersonsTimerIsRefusedWhole() async throws {
        let home = try await Household()
        let ada = try await home.server.household.person(named: "Ada")
        try await home.server.household.share(home.timer, of: ada, with: ["Ben"])
        var phone = try TestDevice(node: "n-benphone", name: "Ben's phone")
        let own = try phone.timer(UUID().uuidString.lowercased(), name: "Mine")
        let theirs = try phone.set(.checklistItem, home.timer.items[0].id.uuidString, "done", .bool(true))
        let refusedBody = String(
            decoding: try JSONSerialization.data(withJSONObject: ["changes": own + [theirs]]), as: UTF8.self)
        let acceptedBody = String(
            decoding: try JSONSerialization.data(withJSONObject: ["changes": own]), as: UTF8.self)
        let ben = home.ben
        try await home.server.test { client in
            let refused = try await client.send(.post, "/api/v1/sync/push", json: refusedBody, headers: ben)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorCode == "not_yours")
            let accepted = try await client.send(.post, "/api/v1/sync/push", json: acceptedBody, headers: ben)
            #expect(accepted.status == .ok)
        }
        await #expect(try home.server.services.focusTimers.timer(named: home.id).items.map(\.done) == [false, false])
        let benPerson = try await home.server.household.person(named: "Ben")
        await #expect(try home.server.household.services(for: benPerson).focusTimers.timers().map(\.name) == ["Mine"])
    }

    @Test func removingAPersonEndsTheSharesWithThem() async throws {
        let home = try await Household()
        let ada = try await home.server.household.person(named: "Ada")
        try await home.server.household.share(home.timer, of: ada, with: ["Ben"])
        try await home.server.household.remove("Ben")
        await #expect(try home.server.household.store.timerShares().isEmpty)
    }
}

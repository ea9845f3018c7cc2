import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import MomentumServices
import Testing

@testable import MomentumServer

/// The household on the web (docs/people.md): owners manage people and anyone's devices, members
/// only their own; a pairing code signs a browser in once; the server's own screen picks profiles.
@Suite("People, pairing and profiles")
struct PeopleRoutesTests {
    static func bearer(_ secret: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(secret)"
        return headers
    }

    static func cookie(of response: TestResponse) throws -> HTTPFields {
        var headers = HTTPFields()
        headers[.cookie] = String(try #require(response.headers[.setCookie]).split(separator: ";")[0])
        return headers
    }

    @Test func anOwnerManagesPeopleAndAMemberSeesOnlyThemselves() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        let ada = await Self.bearer(try server.services.accessTokens.create(name: "ada").secret)
        try await server.test { client in
            let added = try await client.send(
                .post, "/api/v1/people", json: #"{"name":"Ben","language":"de"}"#, headers: ada)
            #expect(added.status == .created)
            #expect(try added.object["role"] as? String == "member")
            #expect(try added.object["language"] as? String == "de")
            let twice = try await client.send(.post, "/api/v1/people", json: #"{"name":"ben"}"#, headers: ada)
            #expect(twice.status == .conflict)
        }
        let ben = try await server.household.person(named: "Ben")
        let benHeaders = await Self.bearer(
            try server.services.accessTokens.create(name: "ben", personID: ben.id).secret)
        try await server.test { client in
            let list = try await client.send(.get, "/api/v1/people", headers: benHeaders)
            #expect(try list.object["canManage"] as? Bool == false)
            let people = try #require(try list.object["people"] as? [[String: Any]])
            #expect(people.map { $0["name"] as? String } == ["Ben"])
            let refused = try await client.send(.post, "/api/v1/people", json: #"{"name":"Cara"}"#, headers: benHeaders)
            #expect(refused.status == .forbidden)
            #expect(refused.errorCode == "owner_only")
            // Another person's devices and pairing are not there for a member.
            let adasPairing = try await client.send(.post, "/api/v1/people/1/pairing", headers: benHeaders)
            #expect(adasPairing.status == .notFound)
            let adasRemoval = try await client.send(.delete, "/api/v1/people/1", headers: benHeaders)
            #expect(adasRemoval.status == .forbidden)
            let session = try await client.send(.get, "/api/v1/session", headers: benHeaders)
            #expect(try (session.object["person"] as? [String: Any])?["name"] as? String == "Ben")
        }
        await #expect(try server.household.people().map(\.name) == ["Ada", "Ben"])
    }

    @Test func aPairingCodeSignsOneBrowserInOnceAsItsPerson() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        let ada = await Self.bearer(try server.services.accessTokens.create(name: "ada").secret)
        let ben = try await server.household.add(named: "Ben")
        let clock = server.clock
        try await server.test { client in
            // The test client says `localhost`, which a phone would open as itself: the link names
            // this machine's address on the home network instead.
            let pairing = try await client.send(.post, "/api/v1/people/\(ben.id)/pairing", headers: ada)
            #expect(pairing.status == .created)
            let code = try #require(try pairing.object["code"] as? String)
            let link = try #require(try pairing.object["link"] as? String)
            #expect(link == "http://192.168.1.5/pair.html#\(code)")
            #expect(try pairing.object["reachableByPhone"] as? Bool == true)
            #expect(try pairing.object["notice"] == nil)
            let rows = try #require(try pairing.object["qr"] as? [String])
            #expect(rows.count >= 21 && rows.allSatisfy { $0.count == rows.count })
            #expect(try QRCode.encode(link).size == rows.count)

            let paired = try await client.send(
                .post, "/pair", json: #"{"code":"\#(code.lowercased())","device":"Ben's phone"}"#)
            #expect(paired.status == .ok)
            let session = try await client.send(.get, "/api/v1/session", headers: try Self.cookie(of: paired))
            #expect(try (session.object["person"] as? [String: Any])?["name"] as? String == "Ben")
            let again = try await client.send(.post, "/pair", json: #"{"code":"\#(code)"}"#)
            #expect(again.status == .unprocessableContent)
            #expect(again.errorCode == "pairing_code")

            let late = try await client.send(.post, "/api/v1/people/\(ben.id)/pairing", headers: ada)
            let lateCode = try #require(try late.object["code"] as? String)
            clock.advance(by: PairingCode.lifetime)
            let expired = try await client.send(.post, "/pair", json: #"{"code":"\#(lateCode)"}"#)
            #expect(expired.status == .unprocessableContent)
            let malformed = try await client.send(.post, "/pair", json: #"{"code":"nope"}"#)
            #expect(malformed.status == .unprocessableContent)
        }
        let devices = try await server.household.devices(of: ben)
        #expect(devices.map(\.token.name) == ["Ben's phone"])
        #expect(devices.first?.token.isPairing == true)
    }

    /// Given a server listening on this machine only; when the owner, at the server's own screen,
    /// adds a device; then the answer says a phone cannot open the link, and how to change that
    /// (the link still works in another browser of this machine). With no network address at
    /// all, it says to connect the machine first.
    @Test func aPairingAPhoneCannotOpenSaysWhyAndWhatToChange() async throws {
        let loopback = try await TestServer()
        try await loopback.test { client in
            let pairing = try await client.send(.post, "/api/v1/people/\(Person.founderID)/pairing")
            #expect(pairing.status == .created)
            #expect(try pairing.object["reachableByPhone"] as? Bool == false)
            let notice = try #require(try pairing.object["notice"] as? String)
            #expect(notice.contains("listens on this machine only (http://localhost)"))
            #expect(notice.contains("momentum serve --host 0.0.0.0"))
            let link = try #require(try pairing.object["link"] as? String)
            #expect(link.hasPrefix("http://localhost/pair.html#"))
        }
        let offline = try await TestServer(host: "0.0.0.0", interfaceAddresses: ["127.0.0.1", "fe80::1"])
        let ada = await Self.bearer(try offline.services.accessTokens.create(name: "ada").secret)
        try await offline.test { client in
            let pairing = try await client.send(.post, "/api/v1/people/\(Person.founderID)/pairing", headers: ada)
            #expect(try pairing.object["reachableByPhone"] as? Bool == false)
            #expect(
                try (pairing.object["notice"] as? String)?.hasPrefix("This machine has no network address yet") == true)
        }
    }

    @Test func endingAPairedDeviceSignsItOut() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        let ben = try await server.household.add(named: "Ben")
        let pairing = try await server.household.startPairing(for: ben)
        let (sessionID, _) = try await server.household.pair(code: pairing.code, deviceName: "tablet")
        let benHeaders = await Self.bearer(
            try server.services.accessTokens.create(name: "ben", personID: ben.id).secret)
        let device = try await #require(try server.household.devices(of: ben).first { $0.token.name == "tablet" })
        let viaCookie: HTTPFields = [.cookie: "momentum_session=\(sessionID)"]
        try await server.test { client in
            let whilePaired = try await client.send(.get, "/api/v1/timers", headers: viaCookie)
            #expect(whilePaired.status == .ok)
            let ended = try await client.send(
                .delete, "/api/v1/people/\(ben.id)/devices/\(device.token.id)", headers: benHeaders)
            #expect(ended.status == .noContent)
            let afterEnding = try await client.send(.get, "/api/v1/timers", headers: viaCookie)
            #expect(afterEnding.status == .unauthorized)
        }
    }

    @Test func theServersOwnScreenPicksAProfileWithItsPIN() async throws {
        let server = try await TestServer()
        let ben = try await server.household.add(named: "Ben")
        try await server.household.setPIN(of: "Ben", to: "2468")
        try await server.test { client in
            let unchosen = try await client.send(.get, "/api/v1/timers")
            #expect(unchosen.status == .unauthorized)
            #expect(unchosen.errorCode == "choose_person")
            let profiles = try await client.send(.get, "/api/v1/profiles")
            #expect(profiles.status == .ok)
            let listed = try #require(try profiles.object["profiles"] as? [[String: Any]])
            #expect(listed.map { $0["hasPIN"] as? Bool } == [false, true])
            let wrong = try await client.send(
                .post, "/api/v1/profiles/choose", json: #"{"id":\#(ben.id),"pin":"1111"}"#)
            #expect(wrong.status == .unprocessableContent)
            let right = try await client.send(
                .post, "/api/v1/profiles/choose", json: #"{"id":\#(ben.id),"pin":"2468"}"#)
            #expect(right.status == .noContent)
            let session = try await client.send(.get, "/api/v1/session", headers: try Self.cookie(of: right))
            #expect(try session.object["access"] as? String == "profile")
            #expect(try (session.object["person"] as? [String: Any])?["name"] as? String == "Ben")
            let ada = try await client.send(.post, "/api/v1/profiles/choose", json: #"{"id":1}"#)
            #expect(ada.status == .noContent)
        }
        let guarded = try await TestServer(host: "0.0.0.0")
        try await guarded.test { client in
            let profiles = try await client.send(.get, "/api/v1/profiles")
            #expect(profiles.status == .notFound)
            let choosing = try await client.send(.post, "/api/v1/profiles/choose", json: #"{"id":1}"#)
            #expect(choosing.status == .notFound)
        }
    }
}

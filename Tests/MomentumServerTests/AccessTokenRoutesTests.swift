import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import MomentumServer

@Suite("Access tokens off loopback")
struct AccessTokenRoutesTests {
    private func bearer(_ secret: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(secret)"
        return headers
    }

    @Test func onLoopbackNoTokenIsNeeded() async throws {
        let server = try await TestServer(host: "127.0.0.1")
        try await server.test { client in
            let response = try await client.send(.get, "/api/v1/settings")
            #expect(response.status == .ok)
        }
    }

    @Test func offLoopbackTheAPINeedsALiveToken() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        let created = try await server.services.accessTokens.create(name: "phone")
        let tokens = server.services.accessTokens
        try await server.test { client in
            let without = try await client.send(.get, "/api/v1/settings")
            #expect(without.status == .unauthorized)
            #expect(without.errorCode == "unauthorized")
            #expect(without.headers[.wwwAuthenticate] == "Bearer")
            #expect(try await client.send(.get, "/metrics").status == .unauthorized)
            #expect(try await client.send(.get, "/api/v1/settings", headers: bearer("wrong")).status == .unauthorized)

            let with = try await client.send(.get, "/api/v1/settings", headers: bearer(created.secret))
            #expect(with.status == .ok)

            // The health check and the API description stay open.
            #expect(try await client.send(.get, "/health").status == .ok)
            #expect(try await client.send(.get, "/openapi.yaml").status == .ok)

            try await tokens.revoke(id: created.token.id)
            let revoked = try await client.send(.get, "/api/v1/settings", headers: bearer(created.secret))
            #expect(revoked.status == .unauthorized)
        }
    }

    @Test func anUnauthorizedWriteStoresNothing() async throws {
        let server = try await TestServer(host: "192.168.1.10")
        _ = try await server.services.accessTokens.create(name: "phone")
        try await server.test { client in
            let response = try await client.send(
                .post, "/api/v1/log", json: #"{"kind":"meditation","start":"2027-01-15T07:00:00Z","durationMs":600000}"#
            )
            #expect(response.status == .unauthorized)
        }
        await #expect(try server.services.practiceLog.records().isEmpty)
    }

    @Test func loginExchangesATokenForAStrictHTTPOnlyCookie() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        let created = try await server.services.accessTokens.create(name: "laptop")
        try await server.test { client in
            let refused = try await client.send(.post, "/login", json: #"{"token":"guess"}"#)
            #expect(refused.status == .unauthorized)
            #expect(refused.headers[.setCookie] == nil)

            let login = try await client.send(.post, "/login", json: #"{"token":"\#(created.secret)"}"#)
            #expect(login.status == .noContent)
            let cookie = try #require(login.headers[.setCookie])
            #expect(cookie.hasPrefix("momentum_session="))
            #expect(!cookie.contains(created.secret))
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Strict"))
            #expect(!cookie.contains("Secure"))

            var headers = HTTPFields()
            headers[.cookie] = String(cookie.split(separator: ";")[0])
            #expect(try await client.send(.get, "/api/v1/timers", headers: headers).status == .ok)
            // The token itself is not a session.
            headers[.cookie] = "momentum_session=\(created.secret)"
            #expect(try await client.send(.get, "/api/v1/timers", headers: headers).status == .unauthorized)
            headers[.cookie] = "momentum_session=forged"
            #expect(try await client.send(.get, "/api/v1/timers", headers: headers).status == .unauthorized)

            var proxied = HTTPFields()
            proxied[.xForwardedProto] = "https"
            let secure = try await client.send(
                .post, "/login", json: #"{"token":"\#(created.secret)"}"#, headers: proxied)
            #expect(secure.headers[.setCookie]?.contains("Secure") == true)
        }
    }

    @Test func theSessionSaysHowARequestGotIn() async throws {
        let open = try await TestServer(host: "127.0.0.1")
        try await open.test { client in
            let response = try await client.send(.get, "/api/v1/session")
            #expect(response.status == .ok)
            #expect(
                response.text == #"{"access":"open","canSignOut":false,"person":{"id":1,"name":"Ada","role":"owner"}}"#)
        }
        let guarded = try await TestServer(host: "0.0.0.0")
        let created = try await guarded.services.accessTokens.create(name: "laptop")
        try await guarded.test { client in
            #expect(try await client.send(.get, "/api/v1/session").status == .unauthorized)
            let viaBearer = try await client.send(.get, "/api/v1/session", headers: bearer(created.secret))
            #expect(
                viaBearer.text
                    == #"{"access":"bearer","canSignOut":false,"person":{"id":1,"name":"Ada","role":"owner"}}"#)
            let login = try await client.send(.post, "/login", json: #"{"token":"\#(created.secret)"}"#)
            var headers = HTTPFields()
            headers[.cookie] = String(try #require(login.headers[.setCookie]).split(separator: ";")[0])
            let viaCookie = try await client.send(.get, "/api/v1/session", headers: headers)
            #expect(
                viaCookie.text
                    == #"{"access":"cookie","canSignOut":true,"person":{"id":1,"name":"Ada","role":"owner"}}"#)

            let logout = try await client.send(.post, "/logout", headers: headers)
            #expect(logout.status == .noContent)
            #expect(logout.headers[.setCookie]?.hasPrefix("momentum_session=;") == true)
            #expect(logout.headers[.setCookie]?.contains("Max-Age=0") == true)
        }
    }
}

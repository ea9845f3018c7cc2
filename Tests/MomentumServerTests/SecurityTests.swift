import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import MomentumServices
import MomentumStore
import Testing

@testable import MomentumServer

private func bearer(_ secret: String) -> HTTPFields {
    var headers = HTTPFields()
    headers[.authorization] = "Bearer \(secret)"
    return headers
}

private func cookie(_ value: String) -> HTTPFields {
    var headers = HTTPFields()
    headers[.cookie] = "momentum_session=\(value)"
    return headers
}

/// The value of the session cookie a response sets.
private func sessionCookie(in response: TestResponse) throws -> String {
    let header = try #require(response.headers[.setCookie])
    let pair = try #require(header.split(separator: ";").first)
    #expect(pair.hasPrefix("momentum_session="))
    return String(pair.dropFirst("momentum_session=".count))
}

@Suite("Access cannot be spelled around")
struct PathSpellingTests {
    @Test(arguments: [
        "//api/v1/settings", "/api//v1/settings", "/api/v1//settings", "/api/./v1/settings",
        "/api/v1/x/../settings", "/api%2Fv1/settings", "/api/v1/%2e/settings", "//metrics", "//reminders.ics",
    ])
    func aSpellingWithEmptyOrDotSegmentsIsRefusedBeforeAnyRoute(path: String) async throws {
        let server = try await TestServer(host: "0.0.0.0")
        _ = try await server.services.accessTokens.create(name: "phone")
        try await server.test { client in
            let response = try await client.send(.get, path)
            #expect(response.status == .badRequest, "\(path)")
            #expect(response.errorCode == "bad_path")
        }
    }

    @Test func aWriteThroughADoubleSlashStoresNothing() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        _ = try await server.services.accessTokens.create(name: "phone")
        try await server.test { client in
            let response = try await client.send(.post, "//api/v1/timers", json: #"{"name":"x","durationMs":60000}"#)
            #expect(response.status == .badRequest)
        }
        await #expect(try server.services.focusTimers.timers().isEmpty)
    }

    @Test(arguments: ["/api/v1/settings/", "/api/v1/settings", "/metrics", "/metrics/", "/reminders.ics"])
    func everyGuardedSpellingTheRouterAcceptsNeedsAToken(path: String) async throws {
        let server = try await TestServer(host: "0.0.0.0")
        let created = try await server.services.accessTokens.create(name: "phone")
        try await server.test { client in
            let without = try await client.send(.get, path).status
            let with = try await client.send(.get, path, headers: bearer(created.secret)).status
            #expect(without == .unauthorized, "\(path)")
            #expect(with == .ok, "\(path)")
        }
    }

    @Test func theCatalogHealthAndDescriptionStayOpen() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        _ = try await server.services.accessTokens.create(name: "phone")
        try await server.test { client in
            for path in ["/api/v1/catalog", "/health", "/openapi.yaml", "/login.html"] {
                let status = try await client.send(.get, path).status
                #expect(status == .ok, "\(path)")
            }
            #expect(try await client.send(.get, "/api/v1/ambient").status == .unauthorized)
        }
    }

    @Test func pathsAreCheckedSegmentBySegment() {
        for path in ["/", "/api/v1/settings", "/api/v1/settings/", "/app.js", "/api/v1/log/3f2a"] {
            #expect(PathSafetyMiddleware<BasicRequestContext>.isSafe(path), "\(path)")
        }
        for path in ["//", "//api", "/a//b", "/a/./b", "/a/../b", "/a/%2e%2E/b", "/a%2fb", "/a%5cb", "/a%00", "api/v1"]
        {
            #expect(!PathSafetyMiddleware<BasicRequestContext>.isSafe(path), "\(path)")
        }
    }
}

@Suite("Sign-in sessions and token scopes")
struct SessionAndScopeTests {
    @Test func theCookieCarriesARandomSessionNotTheToken() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        let created = try await server.services.accessTokens.create(name: "laptop")
        try await server.test { client in
            let login = try await client.send(.post, "/login", json: #"{"token":"\#(created.secret)"}"#)
            #expect(login.status == .noContent)
            let session = try sessionCookie(in: login)
            #expect(session != created.secret)
            #expect(session.count >= 40)
            #expect(try await client.send(.get, "/api/v1/timers", headers: cookie(session)).status == .ok)
            // A second sign-in is another session.
            let again = try await client.send(.post, "/login", json: #"{"token":"\#(created.secret)"}"#)
            #expect(try sessionCookie(in: again) != session)
        }
    }

    @Test func aCookieUsedAfterLogoutIsRefused() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        let created = try await server.services.accessTokens.create(name: "laptop")
        try await server.test { client in
            let session = try sessionCookie(
                in: try await client.send(.post, "/login", json: #"{"token":"\#(created.secret)"}"#))
            #expect(try await client.send(.post, "/logout", headers: cookie(session)).status == .noContent)
            let after = try await client.send(.get, "/api/v1/timers", headers: cookie(session))
            #expect(after.status == .unauthorized)
        }
    }

    @Test func sessionsLastThirtyDaysFromTheirLastUse() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        let created = try await server.services.accessTokens.create(name: "laptop")
        let clock = server.clock
        try await server.test { client in
            let session = try sessionCookie(
                in: try await client.send(.post, "/login", json: #"{"token":"\#(created.secret)"}"#))
            // Used every 20 days, it stays signed in for 60 days, and the cookie is sent again.
            for _ in 0..<3 {
                clock.advance(by: 20 * 86_400)
                let used = try await client.send(.get, "/api/v1/timers", headers: cookie(session))
                #expect(used.status == .ok)
                #expect(try sessionCookie(in: used) == session)
            }
            // Within the hour the end is not written again, and no cookie is sent.
            clock.advance(by: 60)
            #expect(try await client.send(.get, "/api/v1/timers", headers: cookie(session)).headers[.setCookie] == nil)
            // Unused for 30 days, it has ended.
            clock.advance(by: 30 * 86_400)
            #expect(try await client.send(.get, "/api/v1/timers", headers: cookie(session)).status == .unauthorized)
        }
    }

    @Test func revokingTheTokenEndsItsSessions() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        let created = try await server.services.accessTokens.create(name: "laptop")
        let tokens = server.services.accessTokens
        try await server.test { client in
            let session = try sessionCookie(
                in: try await client.send(.post, "/login", json: #"{"token":"\#(created.secret)"}"#))
            try await tokens.revoke(id: created.token.id)
            #expect(try await client.send(.get, "/api/v1/timers", headers: cookie(session)).status == .unauthorized)
        }
    }

    @Test func aFeedTokenReadsTheFeedAndNothingElse() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        let feed = try await server.services.accessTokens.create(name: "calendar", scope: .feed)
        #expect(feed.token.scope == .feed)
        await #expect(try server.services.accessTokens.tokens().map(\.scope) == [.feed])
        try await server.test { client in
            let read = try await client.send(.get, "/reminders.ics?token=\(feed.secret)")
            #expect(read.status == .ok)
            #expect(read.text.hasPrefix("BEGIN:VCALENDAR"))
            #expect(try await client.send(.get, "/reminders.ics", headers: bearer(feed.secret)).status == .ok)
            for path in ["/api/v1/settings", "/api/v1/session", "/metrics", "/api/v1/reminders"] {
                let refused = try await client.send(.get, path, headers: bearer(feed.secret))
                #expect(refused.status == .forbidden, "\(path)")
                #expect(refused.errorCode == "forbidden_scope")
            }
            // `?token=` opens the feed only.
            let apiWithQuery = "/api/v1/settings?token=" + feed.secret
            #expect(try await client.send(.get, apiWithQuery).status == .unauthorized)
            // A feed token cannot sign a browser in.
            let login = try await client.send(.post, "/login", json: #"{"token":"\#(feed.secret)"}"#)
            #expect(login.status == .unauthorized)
            #expect(login.headers[.setCookie] == nil)
        }
    }

    @Test func aFullTokenAlsoReadsTheFeed() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        let full = try await server.services.accessTokens.create(name: "phone")
        try await server.test { client in
            let status = try await client.send(.get, "/reminders.ics?token=" + full.secret).status
            #expect(status == .ok)
        }
    }
}

@Suite("Cross-site and rebinding defence")
struct CrossSiteTests {
    private func origin(_ value: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[.origin] = value
        return headers
    }

    @Test func aWriteFromAnotherOriginIsRefusedAndChangesNothing() async throws {
        let server = try await TestServer(host: "127.0.0.1")
        try await server.test { client in
            for foreign in ["http://evil.example", "null", "http://localhost.evil.example", "https://localhost:8443"] {
                let response = try await client.send(
                    .post, "/api/v1/timers", json: #"{"name":"x","durationMs":60000}"#, headers: origin(foreign))
                #expect(response.status == .forbidden, "\(foreign)")
                #expect(response.errorCode == "cross_origin")
            }
            // The router test client calls the server `localhost`: that origin is its own.
            let own = try await client.send(
                .post, "/api/v1/timers", json: #"{"name":"own","durationMs":60000}"#,
                headers: origin("http://localhost"))
            #expect(own.status == .created)
            // Without an Origin (the CLI, curl, momentum sync) writes work as before.
            let tool = try await client.send(.post, "/api/v1/timers", json: #"{"name":"tool","durationMs":60000}"#)
            #expect(tool.status == .created)
            // Reads carry no Origin rule: a foreign page cannot read the answer anyway (no CORS).
            #expect(try await client.send(.get, "/api/v1/timers", headers: origin("http://evil.example")).status == .ok)
        }
        await #expect(try server.services.focusTimers.timers().map(\.name).sorted() == ["own", "tool"])
    }

    @Test func aBodyThatIsNotJSONIsRefused() async throws {
        let server = try await TestServer(host: "127.0.0.1")
        try await server.test { client in
            for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
                var headers = HTTPFields()
                headers[.contentType] = type
                let response = try await client.execute(
                    uri: "/api/v1/timers", method: .post, headers: headers,
                    body: ByteBuffer(string: #"{"name":"x","durationMs":60000}"#))
                #expect(response.status == .unsupportedMediaType, "\(type)")
                #expect(response.errorCode == "unsupported_media_type")
            }
            let untyped = try await client.execute(
                uri: "/api/v1/timers", method: .post, headers: [:],
                body: ByteBuffer(string: #"{"name":"x","durationMs":60000}"#))
            #expect(untyped.status == .unsupportedMediaType)
            var json = HTTPFields()
            json[.contentType] = "application/json; charset=utf-8"
            let typed = try await client.execute(
                uri: "/api/v1/timers", method: .post, headers: json,
                body: ByteBuffer(string: #"{"name":"ok","durationMs":60000}"#))
            #expect(typed.status == .created)
        }
        await #expect(try server.services.focusTimers.timers().map(\.name) == ["ok"])
    }

    @Test func theLibraryUploadTakesAudioTypesOnly() async throws {
        let server = try await TestServer(host: "127.0.0.1")
        try await server.test { client in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain"
            let refused = try await client.execute(
                uri: "/api/v1/library/upload?name=a.mp3", method: .post, headers: headers,
                body: ByteBuffer(string: "not audio"))
            #expect(refused.status == .unsupportedMediaType)
            headers[.contentType] = "application/octet-stream"
            let accepted = try await client.execute(
                uri: "/api/v1/library/upload?name=a.mp3", method: .post, headers: headers,
                body: ByteBuffer(string: "not audio"))
            // Past the type check, the library itself refuses what is not audio.
            #expect(accepted.status == .unprocessableContent)
        }
    }

    @Test func hostNamesAreCheckedAgainstTheServer() {
        let loopback = HostPolicy(bindHost: "127.0.0.1", allowedHosts: [])
        for host in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST", "[::1]:8080", "localhost.", "127.0.0.1"] {
            #expect(loopback.allows(hostHeader: host), "\(host)")
        }
        for host in [
            "rebind.evil.example", "rebind.evil.example:8080", "evil.example:8080", "127.0.0.1.nip.io:8080",
            "localhost.evil.example", "", "::1", "[::1", "a b", "127.0.0.1:0", "127.0.0.1:99999", "x:y",
        ] {
            #expect(!loopback.allows(hostHeader: host), "\(host)")
        }
        let proxied = HostPolicy(bindHost: "0.0.0.0", allowedHosts: ["Momentum.Example.org"])
        for host in ["momentum.example.org", "momentum.example.org:443", "192.168.1.5:8080", "[fe80::1]"] {
            #expect(proxied.allows(hostHeader: host), "\(host)")
        }
        #expect(!proxied.allows(hostHeader: "other.example.org"))
        let named = HostPolicy(bindHost: "homeserver.local", allowedHosts: [])
        #expect(named.allows(hostHeader: "homeserver.local:8080"))
    }

    @Test func originsMustBeTheServersOwn() {
        let policy = HostPolicy(bindHost: "0.0.0.0", allowedHosts: ["momentum.example.org"])
        #expect(policy.allows(origin: "http://192.168.1.5:8080", hostHeader: "192.168.1.5:8080"))
        #expect(policy.allows(origin: "http://localhost", hostHeader: "localhost:80"))
        #expect(policy.allows(origin: "https://momentum.example.org", hostHeader: "127.0.0.1:8080"))
        #expect(!policy.allows(origin: "http://192.168.1.5:9090", hostHeader: "192.168.1.5:8080"))
        #expect(!policy.allows(origin: "https://192.168.1.5:8080", hostHeader: "192.168.1.5"))
        #expect(!policy.allows(origin: "http://evil.example", hostHeader: "192.168.1.5:8080"))
        #expect(!policy.allows(origin: "null", hostHeader: "192.168.1.5:8080"))
        #expect(!policy.allows(origin: "file://", hostHeader: "192.168.1.5:8080"))
        #expect(!policy.allows(origin: "http://192.168.1.5:8080", hostHeader: nil))
        // No web page has a ws: origin; WebSocket libraries outside a browser send one.
        #expect(policy.allows(origin: "ws://localhost", hostHeader: "192.168.1.5:8080"))
    }

    @Test func loopbackMeansALoopbackAddress() {
        for host in ["127.0.0.1", "127.5.5.5", "::1", "[::1]", "::ffff:127.0.0.1", "localhost"] {
            #expect(ServerConfiguration.isLoopback(host: host), "\(host)")
        }
        for host in ["127.5.5.5.example", "127.0.0.1.nip.io", "0.0.0.0", "::", "192.168.1.2", "localhost.example"] {
            #expect(!ServerConfiguration.isLoopback(host: host), "\(host)")
        }
    }

    @Test func behindAProxyOnTheSameMachineALoopbackServerCanAskForATokenToo() async throws {
        let server = try await TestServer(host: "127.0.0.1")
        let created = try await server.services.accessTokens.create(name: "phone")
        var configuration = server.configuration
        configuration.requiresTokenOnLoopback = true
        let clock = server.clock
        let router = buildRouter(
            configuration: configuration,
            dependencies: ServerDependencies(household: server.household, now: { clock.now }, version: "test"))
        try await Application(router: router).test(.router) { client in
            let without = try await client.send(.get, "/api/v1/settings").status
            let with = try await client.send(.get, "/api/v1/settings", headers: bearer(created.secret)).status
            #expect(without == .unauthorized)
            #expect(with == .ok)
        }
    }

    @Test func theWebSocketRefusesAForeignOrigin() async throws {
        let server = try await TestServer()
        let clock = server.clock
        let application = buildApplication(
            configuration: ServerConfiguration(
                host: "127.0.0.1", port: 0, dataDirectory: server.directory.url, publicDirectory: nil),
            dependencies: ServerDependencies(household: server.household, now: { clock.now }, version: "test"))
        try await application.test(.live) { client in
            var foreign = HTTPFields()
            foreign[.origin] = "http://evil.example"
            await #expect(throws: (any Error).self) {
                try await client.ws("/api/v1/live", configuration: .init(additionalHeaders: foreign)) { _, _, _ in }
            }
            var own = HTTPFields()
            own[.origin] = "http://localhost:\(client.port ?? 0)"
            let head = try await client.ws("/api/v1/live", configuration: .init(additionalHeaders: own)) {
                inbound, _, _ in
                for try await message in inbound.messages(maxSize: 1 << 16) {
                    if case .text(let text) = message { #expect(text.hasPrefix("{\"head\"")) }
                    break
                }
            }
            _ = head
        }
    }
}

@Suite("A busy database")
struct BusyDatabaseTests {
    @Test func aWriteThatFindsTheDatabaseLockedIsA503WithRetryAfter() {
        let answer = ServiceErrorMapping.apiError(for: PracticeLogError.store(.busy), logger: .init(label: "test"))
        #expect(answer.status == .serviceUnavailable)
        #expect(answer.code == "busy")
        #expect(answer.headers[.retryAfter] == "5")
        #expect(answer.message(in: .shared(for: .german)).contains("Datenbank"))
    }
}

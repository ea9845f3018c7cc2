import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumServices
import MomentumStoreContract
import MomentumStoreTestSupport
import Testing

@testable import MomentumServer

/// Every route of the OpenAPI document × every spelling of its path × every kind of credential,
/// against a server off loopback. No spelling may reach a guarded handler without a live full
/// credential, and nothing a refused request sent may change the data.
@Suite("Route × spelling × credential")
struct AccessMatrixTests {
    /// Routes open to everyone.
    static let open: Set<String> = [
        "GET /health", "GET /openapi.yaml", "GET /api/v1/catalog", "POST /login", "POST /logout",
        // Open to all, with the person's shortcuts only for a live credential (its own tests).
        "GET /manifest.webmanifest",
        // A pairing code is the credential (its own tests); the profile picker answers only on
        // loopback, so off loopback it is a 404 whatever is sent.
        "POST /pair", "GET /api/v1/profiles", "POST /api/v1/profiles/choose",
    ]

    /// `/api/v1/log/{id}` with a plausible value in each parameter.
    static func concrete(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment.hasPrefix("{"), let close = segment.firstIndex(of: "}") else { return String(segment) }
            let name = segment[segment.index(after: segment.startIndex)..<close]
            let value =
                switch name {
                case "kind": "meditation"
                case "cue": "start"
                case "id" where segment.hasSuffix(".wav"): "rain"
                default: "00000000-0000-0000-0000-0000000000aa"
                }
            return value + segment[segment.index(after: close)...]
        }.joined(separator: "/")
    }

    /// The ways one path can be spelled, and whether the path check refuses the spelling outright.
    static func spellings(_ path: String) -> [(path: String, refused: Bool)] {
        let inner = path.replacingOccurrences(of: "/v1/", with: "/v1//")
        let dotted = path.replacingOccurrences(of: "/v1/", with: "/v1/./")
        let parent = path.replacingOccurrences(of: "/v1/", with: "/v1/x/../")
        let encoded = path.replacingOccurrences(of: "/v1/", with: "/v1%2F")
        var list: [(String, Bool)] = [(path, false), (path + "/", false), ("/" + path, true)]
        if path.contains("/v1/") { list += [(inner, true), (dotted, true), (parent, true), (encoded, true)] }
        list.append((path.replacingOccurrences(of: "/", with: "/%2e/", options: .anchored), true))
        return list
    }

    enum Credential: String, CaseIterable {
        case none, wrong, revoked, feed, bearer, cookie
    }

    @Test func noSpellingReachesAGuardedRouteWithoutALiveFullCredential() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        let tokens = server.services.accessTokens
        let full = try await tokens.create(name: "phone")
        let revoked = try await tokens.create(name: "old")
        let feed = try await tokens.create(name: "calendar", scope: .feed)
        try await tokens.revoke(id: revoked.token.id)
        let sessionID = try await #require(try tokens.startSession(secret: full.secret))
        let routes = OpenAPIDocumentTests.documentedRoutes(String(decoding: OpenAPIDocument.bytes, as: UTF8.self))
        #expect(routes.count > 40)
        let before = try server.services.sqlite.syncStatus().head

        let (checked, violations) = try await server.test { client in
            var checked = 0
            var violations: [String] = []
            for route in routes.sorted() {
                let parts = route.split(separator: " ", maxSplits: 1)
                let method = try #require(HTTPRequest.Method(String(parts[0])))
                let template = String(parts[1])
                let isOpen = Self.open.contains(route)
                for (path, refused) in Self.spellings(Self.concrete(template)) {
                    // Signing out with the cookie would end the session the rest of the walk uses.
                    for credential in Credential.allCases where !(route == "POST /logout" && credential == .cookie) {
                        var headers = HTTPFields()
                        switch credential {
                        case .none: break
                        case .wrong: headers[.authorization] = "Bearer not-a-token"
                        case .revoked: headers[.authorization] = "Bearer \(revoked.secret)"
                        case .feed: headers[.authorization] = "Bearer \(feed.secret)"
                        case .bearer: headers[.authorization] = "Bearer \(full.secret)"
                        case .cookie: headers[.cookie] = "momentum_session=\(sessionID)"
                        }
                        let isWrite = ![.get, .head].contains(method)
                        let body: String? = isWrite ? "{}" : nil
                        if isWrite { headers[.contentType] = "application/json" }
                        if template == LibraryController.uploadPath { headers[.contentType] = "audio/mpeg" }
                        let status = try await client.execute(
                            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }
                        ).status.code
                        checked += 1
                        let expected: String
                        let ok: Bool
                        if refused {
                            expected = "400"
                            ok = status == 400
                        } else if isOpen || [.bearer, .cookie].contains(credential) {
                            expected = "a handler's answer"
                            ok = status != 401 && status != 403 && status < 500
                        } else if credential == .feed && template != "/reminders.ics" {
                            expected = "403"
                            ok = status == 403
                        } else if credential == .feed {
                            expected = "the feed"
                            ok = status == 200
                        } else {
                            expected = "401"
                            ok = status == 401
                        }
                        if !ok {
                            violations.append("\(route) as \(path) with \(credential): \(status), expected \(expected)")
                        }
                    }
                }
            }
            return (checked, violations)
        }
        #expect(violations == [])
        #expect(checked > 1000)
        // The refused writes changed nothing: no change reached the sync log, no record the log.
        // (Writes with a valid credential and an empty body are refused by their own checks.)
        #expect(try server.services.sqlite.syncStatus().head == before)
    }
}

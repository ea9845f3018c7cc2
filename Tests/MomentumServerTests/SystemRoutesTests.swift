import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MomentumServices
import MomentumStore
import MomentumStoreContract
import Testing

@testable import MomentumServer

@Suite("Health, metrics, security headers and errors shared by every route")
struct SystemRoutesTests {
    @Test func healthSaysOkWithTheVersion() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(.get, "/health")
            #expect(response.status == .ok)
            #expect(try response.object["status"] as? String == "ok")
            #expect(try response.object["version"] as? String == "test-version")
            // What momentum doctor reads to check a proxy: plain HTTP here, and the Host it was called by.
            let seen = try #require(try response.object["request"] as? [String: Any])
            #expect(seen["secure"] as? Bool == false)
            #expect(seen["host"] as? String == "localhost")
            let proxied = try await client.send(.get, "/health", headers: [.xForwardedProto: "https"])
            #expect(try (proxied.object["request"] as? [String: Any])?["secure"] as? Bool == true)
        }
    }

    @Test func everyResponseCarriesTheSecurityHeadersErrorsIncluded() async throws {
        let server = try await TestServer()
        try await server.test { client in
            for uri in ["/health", "/no/such/thing", "/api/v1/log/not-an-id"] {
                let response = try await client.send(.get, uri)
                #expect(response.headers[.contentSecurityPolicy] == SecurityHeaders.contentSecurityPolicy)
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[.referrerPolicy] == "no-referrer")
                #expect(response.headers[.xFrameOptions] == "DENY")
                #expect(response.headers[.permissionsPolicy] != nil)
            }
        }
    }

    @Test func anUnknownRouteIsAJSON404() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(.get, "/api/v1/nothing-here")
            #expect(response.status == .notFound)
            #expect(response.errorCode == "not_found")
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
        }
    }

    @Test func aKnownPathWithAnotherMethodIsA405NamingTheAllowedOnes() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(.delete, "/api/v1/settings")
            #expect(response.status == .methodNotAllowed)
            #expect(response.errorCode == "method_not_allowed")
            #expect(response.headers[.allow] == "GET, PATCH, PUT")
        }
    }

    @Test(arguments: [
        "/api/v1/../../etc/passwd", "/api/v1/log/..%2f..%2fetc%2fpasswd", "/api/v1/log/%2e%2e",
        "/static/..%5cwindows", "/api/v1/log/a%00b", "/%2e%2e/%2e%2e/etc/passwd",
    ])
    func pathTraversalInAnySegmentIsRefusedWithJSON(path: String) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(.get, path)
            #expect([.badRequest, .notFound].contains(response.status))
            #expect(response.errorCode != nil)
            #expect(!response.text.contains("root:"))
        }
    }

    @Test func aBodyOverTheLimitIsA413AndNothingIsStored() async throws {
        let server = try await TestServer(bodyLimit: 1024)
        try await server.test { client in
            let huge =
                #"{"kind":"meditation","start":"2027-01-15T07:00:00Z","durationMs":600000,"details":{"x":""#
                + String(repeating: "a", count: 4096) + #""}}"#
            let response = try await client.send(.post, "/api/v1/log", json: huge)
            #expect(response.status == .contentTooLarge)
            #expect(response.errorCode == "body_too_large")
        }
        await #expect(try server.services.practiceLog.records().isEmpty)
    }

    @Test func theDefaultBodyLimitIsOneMegabyte() {
        #expect(ServerConfiguration.defaultBodyLimit == 1_048_576)
    }

    @Test func metricsCountRequestsByRouteAndStatusAndLoggedSessions() async throws {
        let server = try await TestServer()
        try await server.test { client in
            try await client.send(.get, "/health")
            try await client.send(.get, "/nope")
            try await client.send(.get, "/")
            try await client.send(
                .post, "/api/v1/log", json: #"{"kind":"breathing","start":"2027-01-15T07:00:00Z","durationMs":300000}"#)
            let response = try await client.send(.get, "/metrics")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            #expect(
                response.text.contains(#"momentum_http_requests_total{method="GET",route="/health",status="200"} 1"#))
            #expect(response.text.contains(#"route="NotFound",status="404"} 1"#))
            #expect(
                response.text.contains(#"momentum_http_requests_total{method="GET",route="static",status="200"} 1"#))
            #expect(response.text.contains(#"momentum_http_request_duration_seconds_count{route="/health"} 1"#))
            #expect(response.text.contains(#"momentum_sessions_logged_total{kind="breathing"} 1"#))
        }
    }

    @Test func storeAndUnexpectedErrorsAreAGeneric500ThatLeaksNothing() {
        struct Surprise: Error { var detail = "stack trace and secrets" }
        let logger = Logger(label: "test")
        for error: any Error in [
            StoreError.database(message: "SQLITE_CORRUPT at /home/someone/momentum.sqlite"),
            PracticeLogError.store(.corruptRow(table: "practiceRecord", id: "x", reason: "secret")),
            SettingsChangeError.store(.notADatabase(path: "/home/someone")), Surprise(),
        ] {
            let answer = ServiceErrorMapping.apiError(for: error, logger: logger)
            let message = answer.message(in: .shared(for: .english))
            #expect(answer.status == .internalServerError)
            #expect(answer.code == "internal")
            #expect(!message.contains("SQLITE"))
            #expect(!message.contains("/home"))
            #expect(!message.contains("secret"))
        }
    }

    @Test func loopbackHostsAreRecognised() {
        for host in ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST"] {
            #expect(ServerConfiguration.isLoopback(host: host), "\(host)")
        }
        for host in ["0.0.0.0", "192.168.1.2", "::", "example.org"] {
            #expect(!ServerConfiguration.isLoopback(host: host), "\(host)")
        }
    }
}

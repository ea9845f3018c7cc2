import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import MomentumServices
import Testing

@testable import MomentumServer

/// Exactly one `Host` header (issue 46): with two, the first used to win — a proxy in front could
/// have read the other — and an HTTP/1.1 request without one was served.
@Suite("Exactly one Host header")
struct HostHeaderTests {
    /// The whole server listening on a free loopback port, as `momentum serve` runs it.
    static func live<Value: Sendable>(
        _ server: TestServer, _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        let clock = server.clock
        let application = buildApplication(
            configuration: ServerConfiguration(
                host: "127.0.0.1", port: 0, dataDirectory: server.directory.url, publicDirectory: nil),
            dependencies: ServerDependencies(household: server.household, now: { clock.now }, version: "test"))
        return try await application.test(.live, body)
    }

    /// The status line and body of the answer to `request`, sent as raw bytes to `port`.
    static func answer(to request: String, port: Int) async throws -> (status: String, body: String) {
        let socket = try SocketHTTPGet(port: port, request: request)
        // Each request asks to close: the server's answer ends with the connection.
        let bytes = await socket.read { _ in false }
        let head = try #require(SocketHTTPGet.head(bytes), "no answer: \(String(decoding: bytes, as: UTF8.self))")
        return (head.lines.first ?? "", String(decoding: bytes[head.size...], as: UTF8.self))
    }

    static let hostField = HTTPField.Name("Host")

    @Test(arguments: [
        "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
        "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
        "GET /api/v1/timers HTTP/1.1\r\nHost: evil.example\r\nhost: 127.0.0.1\r\nConnection: close\r\n\r\n",
        "GET /health HTTP/1.1\r\nConnection: close\r\n\r\n",
        "GET /api/v1/timers HTTP/1.1\r\nConnection: close\r\n\r\n",
    ])
    func aRequestWithoutExactlyOneHostIsRefused(request: String) async throws {
        let server = try await TestServer()
        let (status, body) = try await Self.live(server) { client in
            try await Self.answer(to: request, port: try #require(client.port))
        }
        #expect(status.hasPrefix("HTTP/1.1 400"), "\(status)")
        let error = try #require(
            try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: [String: Any]], "\(body)")
        #expect(error["error"]?["code"] as? String == "bad_host")
        #expect(error["error"]?["message"] as? String == "A request must name the server in exactly one Host header.")
    }

    @Test func aRequestWithOneHostIsServed() async throws {
        let server = try await TestServer()
        let (status, _) = try await Self.live(server) { client in
            try await Self.answer(
                to: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                port: try #require(client.port))
        }
        #expect(status.hasPrefix("HTTP/1.1 200"), "\(status)")
    }

    /// In the router: a write naming the server twice stores nothing, and says so in German when
    /// asked.
    @Test func aWriteWithASecondHostStoresNothing() async throws {
        let server = try await TestServer()
        var second: HTTPFields = [.acceptLanguage: "de"]
        second.append(HTTPField(name: try #require(Self.hostField), value: "127.0.0.1"))
        let headers = second
        let response = try await server.test { client in
            try await client.send(
                .post, "/api/v1/timers", json: #"{"name":"Tea","durationMs":60000}"#, headers: headers)
        }
        #expect(response.status == .badRequest)
        #expect(response.errorCode == "bad_host")
        #expect(response.errorMessage == "Eine Anfrage muss den Server in genau einer Host-Kopfzeile nennen.")
        await #expect(try server.services.focusTimers.timers().isEmpty)
    }
}

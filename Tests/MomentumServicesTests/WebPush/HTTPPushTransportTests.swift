import Foundation
import Testing

@testable import MomentumServices

/// Right before each send the endpoint's name is resolved and every address must be public. A name that resolves to loopback, a private
/// or a mixed set of addresses is refused without a connection; an admitted origin is taken as it is.
@Suite("Push transport: where a push may connect")
struct HTTPPushTransportTests {
    private func request(_ url: String) throws -> PushRequest {
        PushRequest(endpoint: try PushEndpoint(parsing: url), headers: [], body: Data())
    }

    private func transport(resolving addresses: [String], admitting origins: [String] = []) throws
        -> HTTPPushTransport
    {
        let resolved = addresses.compactMap(PushAddress.init(literal:))
        return HTTPPushTransport(admitting: try PushOrigins(origins), resolve: { _ in resolved })
    }

    @Test(arguments: [
        ["127.0.0.1"], ["::1"], ["10.0.0.7"], ["192.168.1.20"], ["172.16.0.1"], ["169.254.169.254"], ["fe80::1"],
        ["fd00::1"], ["100.64.0.1"], ["0.0.0.0"], ["224.0.0.1"], ["::ffff:127.0.0.1"], ["64:ff9b::a00:1"],
        ["8.8.8.8", "10.0.0.1"], ["2a00:1450:4001:80b::200a", "::1"],
    ])
    func aNameResolvingToAnyNonPublicAddressIsRefused(addresses: [String]) async throws {
        let transport = try transport(resolving: addresses)
        await #expect(throws: PushTransportError.addressNotPublic(host: "push.example.com")) {
            _ = try await transport.send(try request("https://push.example.com/send/abc"))
        }
    }

    @Test func aNameThatDoesNotResolveIsNotSentTo() async throws {
        let transport = try transport(resolving: [])
        await #expect(throws: PushTransportError.unresolved(host: "push.example.com")) {
            _ = try await transport.send(try request("https://push.example.com/send/abc"))
        }
    }

    @Test func aPublicNameIsSentTo() async throws {
        let transport = try transport(resolving: ["142.250.185.74", "2a00:1450:4001:80b::200a"])
        await #expect(throws: Never.self) {
            try await transport.checkAddress(of: PushEndpoint("https://fcm.googleapis.com/fcm/send/x"))
        }
    }

    @Test func anAddressLiteralIsJudgedAsItIs() async throws {
        let transport = try transport(resolving: ["8.8.8.8"])
        await #expect(throws: PushTransportError.addressNotPublic(host: "10.1.2.3")) {
            _ = try await transport.send(try request("https://10.1.2.3/send"))
        }
        await #expect(throws: Never.self) { try await transport.checkAddress(of: PushEndpoint("https://8.8.8.8/send")) }
    }

    @Test func anAdmittedOriginIsTakenAsItIs() async throws {
        let transport = try transport(resolving: ["127.0.0.1"], admitting: ["http://127.0.0.1:8181"])
        let endpoint = try PushEndpoint(
            "http://127.0.0.1:8181/push/1", admitting: PushOrigins(["http://127.0.0.1:8181"]))
        await #expect(throws: Never.self) { try await transport.checkAddress(of: endpoint) }
    }

    /// The system's resolver, as the server uses it: `localhost` is loopback, so a name that
    /// resolves there (whatever it is called) is refused.
    @Test func theSystemsResolverReadsLocalhostAsLoopback() async throws {
        let addresses = try await HTTPPushTransport.systemResolve("localhost")
        #expect(!addresses.isEmpty && addresses.allSatisfy { !$0.isPublic })
        let transport = HTTPPushTransport(admitting: PushOrigins(), resolve: { _ in addresses })
        await #expect(throws: PushTransportError.addressNotPublic(host: "push.example.com")) {
            _ = try await transport.send(try request("https://push.example.com/send/abc"))
        }
    }

    /// `Retry-After` as seconds or as an HTTP date (RFC 9110 §10.2.3); anything else waits the backoff.
    @Test func retryAfterReadsSecondsOrAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)  // Wed, 18 Nov 2026 11:06:40 GMT
        #expect(PushAnswer(PushResponse(status: 429, retryAfter: "120"), at: now) == .retry(after: 120, failure: "429"))
        let date = HTTPDate.parse("Wed, 18 Nov 2026 12:31:40 GMT")
        #expect(date == Date(timeIntervalSince1970: 1_795_005_100))
        #expect(
            PushAnswer(PushResponse(status: 503, retryAfter: "Wed, 18 Nov 2026 12:31:40 GMT"), at: now)
                == .retry(after: 5100, failure: "503"))
        #expect(
            PushAnswer(PushResponse(status: 503, retryAfter: "soon"), at: now) == .retry(after: nil, failure: "503"))
        #expect(PushAnswer(PushResponse(status: 410), at: now) == .gone)
        #expect(PushAnswer(PushResponse(status: 413), at: now) == .failed("413"))
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import MomentumStoreContract
import NIOCore
import NIOEmbedded
import Testing

@testable import MomentumServer

/// Wrong guesses at the ways in (docs/security.md "Limits and timeouts"): five are forgiven, then
/// each waits twice as long as the last, per person and per client address.
@Suite("Attempt limits")
struct AttemptLimitTests {
    /// Runs `body` as if its requests came over a connection from `address`.
    static func from<T>(_ address: String, _ body: () async throws -> T) async throws -> T {
        let channel = EmbeddedChannel()
        try await channel.connect(to: SocketAddress(ipAddress: address, port: 50_000)).get()
        return try await ClientConnection.$current.withValue(ClientConnection(channel: channel), operation: body)
    }

    @Test func aSixthWrongPINWaitsASecondAndTheRightOneAfterItGetsIn() async throws {
        let server = try await TestServer()
        let ben = try await server.household.add(named: "Ben")
        try await server.household.setPIN(of: "Ben", to: "2468")
        let clock = server.clock
        try await server.test { client in
            for _ in 0..<6 {
                let wrong = try await client.send(
                    .post, "/api/v1/profiles/choose", json: #"{"id":\#(ben.id),"pin":"1111"}"#)
                #expect(wrong.status == .unprocessableContent)
            }
            let waiting = try await client.send(
                .post, "/api/v1/profiles/choose", json: #"{"id":\#(ben.id),"pin":"2468"}"#)
            #expect(waiting.status == .tooManyRequests)
            #expect(waiting.errorCode == "too_many_attempts")
            #expect(waiting.headers[.retryAfter] == "1")
            clock.advance(by: 1)
            let right = try await client.send(
                .post, "/api/v1/profiles/choose", json: #"{"id":\#(ben.id),"pin":"2468"}"#)
            #expect(right.status == .noContent)
            // The right PIN cleared the count: five more mistakes are forgiven again.
            for _ in 0..<5 {
                let wrong = try await client.send(
                    .post, "/api/v1/profiles/choose", json: #"{"id":\#(ben.id),"pin":"1111"}"#)
                #expect(wrong.status == .unprocessableContent)
            }
        }
    }

    @Test func thePINOfOnePersonIsLimitedForEveryClientAndNotForOthers() async throws {
        let server = try await TestServer()
        let ben = try await server.household.add(named: "Ben")
        try await server.household.setPIN(of: "Ben", to: "2468")
        let cleo = try await server.household.add(named: "Cleo")
        try await server.household.setPIN(of: "Cleo", to: "1357")
        try await server.test { client in
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<8 {
                let guess = try await client.send(
                    .post, "/api/v1/profiles/choose", json: #"{"id":\#(ben.id),"pin":"0000"}"#)
                statuses.append(guess.status)
            }
            // Guesses made while waiting are not even checked (and do not count).
            #expect(
                statuses == Array(repeating: .unprocessableContent, count: 6) + [.tooManyRequests, .tooManyRequests])
            let benWaits = try await client.send(
                .post, "/api/v1/profiles/choose", json: #"{"id":\#(ben.id),"pin":"2468"}"#)
            #expect(benWaits.status == .tooManyRequests)
            let cleoGetsIn = try await client.send(
                .post, "/api/v1/profiles/choose", json: #"{"id":\#(cleo.id),"pin":"1357"}"#)
            #expect(cleoGetsIn.status == .noContent)
        }
    }

    @Test func wrongTokensAtLoginWaitPerClientAddress() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        let created = try await server.services.accessTokens.create(name: "phone")
        try await server.test { client in
            try await Self.from("192.0.2.7") {
                for _ in 0..<6 {
                    let wrong = try await client.send(.post, "/login", json: #"{"token":"guess"}"#)
                    #expect(wrong.status == .unauthorized)
                }
                let waiting = try await client.send(.post, "/login", json: #"{"token":"\#(created.secret)"}"#)
                #expect(waiting.status == .tooManyRequests)
                #expect(waiting.headers[.retryAfter] == "1")
            }
            // The owner's phone, elsewhere on the network, is not held back by the guesser.
            try await Self.from("192.0.2.8") {
                let login = try await client.send(.post, "/login", json: #"{"token":"\#(created.secret)"}"#)
                #expect(login.status == .noContent)
            }
        }
    }

    @Test func wrongPairingCodesWaitPerClientAddress() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        try await server.test { client in
            try await Self.from("192.0.2.7") {
                for _ in 0..<6 {
                    let wrong = try await client.send(.post, "/pair", json: #"{"code":"ABCD-EFGH-JKLM"}"#)
                    #expect(wrong.status == .unprocessableContent)
                }
                let waiting = try await client.send(.post, "/pair", json: #"{"code":"ABCD-EFGH-JKLM"}"#)
                #expect(waiting.status == .tooManyRequests)
                #expect(waiting.errorCode == "too_many_attempts")
            }
        }
    }

    @Test func theKeysKeptAreBounded() async throws {
        let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))
        let limits = AttemptLimits(capacity: 100, now: { clock.now })
        let everyErrorIsAWrongGuess: (any Error) -> Bool = { _ in true }
        for index in 0..<1_000 {
            let address = "10.0.\(index / 256).\(index % 256)"
            try? await limits.attempt([.client(address)], isWrongGuess: everyErrorIsAWrongGuess) {
                throw CancellationError()
            }
        }
        #expect(limits.keptKeys <= 100)
    }
}

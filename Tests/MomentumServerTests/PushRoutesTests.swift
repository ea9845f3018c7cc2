import Foundation
import HTTPTypes
import MomentumServices
import Testing

@testable import MomentumServer

/// `GET /api/v1/push/key`: the household's Web Push key, made on the first request and the same
/// for everyone after (who may ask is `AccessMatrixTests`').
struct PushRoutesTests {
    @Test func theServersKeyIsOneUncompressedPointTheSameEveryTime() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let first = try await client.send(.get, "/api/v1/push/key")
            #expect(first.status == .ok, "\(first.text)")
            let key = try #require(try first.object["publicKey"] as? String)
            #expect(try first.object.keys.sorted() == ["publicKey"])
            #expect(key.wholeMatch(of: /[A-Za-z0-9_-]{87}/) != nil)
            #expect(Base64URL.decode(key)?.first == 0x04)
            let again = try await client.send(.get, "/api/v1/push/key")
            #expect(try again.object["publicKey"] as? String == key)
        }
        await #expect(try server.household.push.publicKey() == server.household.push.serverKey().publicKey)
    }
}

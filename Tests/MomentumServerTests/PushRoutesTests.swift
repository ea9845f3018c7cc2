import Foundation
import HTTPTypes
import MomentumServices
import Synchronization
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

    static let keys =
        #"{"p256dh":"BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4","auth":"BTBZMqHH6r4Tts7J_aSIgg"}"#

    static func body(endpoint: String, name: String? = "Anna's phone", expiration: String = "null") -> String {
        let device = name.map { #","deviceName":"\#($0)""# } ?? ""
        return #"{"endpoint":"\#(endpoint)","expirationTime":\#(expiration),"keys":\#(keys)\#(device)}"#
    }

    @Test func aBrowserSubscribesIsListedWithoutItsEndpointAndEnds() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let endpoint = "https://fcm.googleapis.com/fcm/send/cXx9:APA91bH"
            let made = try await client.send(.post, "/api/v1/push/subscriptions", json: Self.body(endpoint: endpoint))
            #expect(made.status == .created, "\(made.text)")
            let id = try #require(try made.object["id"] as? String)
            #expect(try made.object["pushService"] as? String == "https://fcm.googleapis.com")
            #expect(try made.object["deviceName"] as? String == "Anna's phone")
            // The same browser again (it subscribes on every load) is the same subscription.
            let again = try await client.send(
                .post, "/api/v1/push/subscriptions", json: Self.body(endpoint: endpoint, name: "Anna's tablet"))
            #expect(try again.object["id"] as? String == id)
            let listed = try await client.send(.get, "/api/v1/push/subscriptions")
            #expect(listed.status == .ok)
            #expect(!listed.text.contains("APA91bH") && !listed.text.contains("BTBZ"), "\(listed.text)")
            let items = try #require(try listed.object["subscriptions"] as? [[String: Any]])
            #expect(items.map { $0["deviceName"] as? String } == ["Anna's tablet"])
            #expect(items.first?.keys.contains("lastFailure") == true)

            let ended = try await client.send(.delete, "/api/v1/push/subscriptions/\(id)")
            #expect(ended.status == .noContent)
            let gone = try await client.send(.delete, "/api/v1/push/subscriptions/\(id)")
            #expect(gone.status == .notFound)
            #expect(gone.errorMessage?.contains("already turned off") == true)
        }
        await #expect(try server.services.pushSubscriptions.subscriptions().isEmpty)
    }

    @Test(arguments: [
        ("http://127.0.0.1:8181/push", "https"),
        ("https://192.168.1.10/push", "public"),
        ("https://[::ffff:127.0.0.1]/push", "public"),
        ("https://2130706433/push", "not a web address"),
        ("https://push.example.org@10.0.0.1/push", "not a web address"),
        ("https://fcm.googleapis.com:8443/push", "443"),
        ("https://nas.local/push", "public"),
    ])
    func endpointsOfThisMachineOrTheHomeNetworkAreRefusedInWords(endpoint: String, says: String) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let refused = try await client.send(
                .post, "/api/v1/push/subscriptions", json: Self.body(endpoint: endpoint))
            #expect(refused.status == .unprocessableContent, "\(refused.text)")
            #expect(refused.errorMessage?.contains(says) == true, "\(refused.text)")
        }
        await #expect(try server.services.pushSubscriptions.subscriptions().isEmpty)
    }

    @Test func badKeysNamesExpiriesAndUnknownFieldsAreRefused() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let endpoint = "https://web.push.apple.com/QGuQyavXutnMH"
            let badKeys = Self.body(endpoint: endpoint).replacingOccurrences(of: "BTBZMqHH6r4Tts7J_aSIgg", with: "AAAA")
            var answer = try await client.send(.post, "/api/v1/push/subscriptions", json: badKeys)
            #expect(answer.status == .unprocessableContent && answer.errorMessage?.contains("keys") == true)
            answer = try await client.send(
                .post, "/api/v1/push/subscriptions", json: Self.body(endpoint: endpoint, name: "web@laptop"))
            #expect(answer.status == .unprocessableContent && answer.errorCode == "invalid_device_name")
            answer = try await client.send(
                .post, "/api/v1/push/subscriptions", json: Self.body(endpoint: endpoint, name: nil))
            #expect(answer.status == .unprocessableContent && answer.errorCode == "invalid_device_name")
            answer = try await client.send(
                .post, "/api/v1/push/subscriptions", json: Self.body(endpoint: endpoint, expiration: "1000"))
            #expect(answer.status == .unprocessableContent && answer.errorMessage?.contains("ended") == true)
            answer = try await client.send(
                .post, "/api/v1/push/subscriptions", json: Self.body(endpoint: endpoint, expiration: "1e300"))
            #expect(answer.status == .unprocessableContent)
            let extra = Self.body(endpoint: endpoint).replacingOccurrences(
                of: #""endpoint""#, with: #""x":1,"endpoint""#)
            answer = try await client.send(.post, "/api/v1/push/subscriptions", json: extra)
            #expect(answer.status == .badRequest)
            answer = try await client.send(.delete, "/api/v1/push/subscriptions/not-a-uuid")
            #expect(answer.status == .notFound)
        }
        await #expect(try server.services.pushSubscriptions.subscriptions().isEmpty)
    }

    /// A push service that answers in turn what it is given, and counts what it got.
    final class ScriptedPushService: PushTransport {
        let answers: Mutex<[PushResponse]>
        init(_ answers: [PushResponse]) { self.answers = Mutex(answers) }
        func send(_ request: PushRequest) async throws(PushTransportError) -> PushResponse {
            answers.withLock { $0.isEmpty ? PushResponse(status: 201) : $0.removeFirst() }
        }
    }

    @Test func aTestNotificationGoesToThatDeviceAndAGoneOneIsRemoved() async throws {
        let service = ScriptedPushService([PushResponse(status: 201), PushResponse(status: 410)])
        let server = try await TestServer(pushTransport: service)
        try await server.test { client in
            let made = try await client.send(
                .post, "/api/v1/push/subscriptions", json: Self.body(endpoint: "https://fcm.googleapis.com/fcm/send/a"))
            let id = try #require(try made.object["id"] as? String)
            let first = try await client.send(.post, "/api/v1/push/subscriptions/\(id)/test")
            #expect(first.status == .ok, "\(first.text)")
            #expect(try first.object["outcome"] as? String == "delivered")
            let second = try await client.send(.post, "/api/v1/push/subscriptions/\(id)/test")
            #expect(try second.object["outcome"] as? String == "gone")
            let third = try await client.send(.post, "/api/v1/push/subscriptions/\(id)/test")
            #expect(third.status == .notFound)
            let unknown = try await client.send(.post, "/api/v1/push/subscriptions/not-an-id/test")
            #expect(unknown.status == .notFound)
        }
        await #expect(try server.services.pushSubscriptions.subscriptions().isEmpty)
    }

    @Test func withoutAPushSenderATestSaysSo() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let made = try await client.send(
                .post, "/api/v1/push/subscriptions", json: Self.body(endpoint: "https://fcm.googleapis.com/fcm/send/a"))
            let id = try #require(try made.object["id"] as? String)
            let answer = try await client.send(.post, "/api/v1/push/subscriptions/\(id)/test")
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.errorMessage?.contains("no notifications") == true, "\(answer.text)")
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer

/// Settings → People shows times as people read them: the pairing code's end and each device's
/// last use come in the request's language and the person's time zone.
@Suite("People: times in words")
struct PeopleWordsTests {
    @Test func aPairingsEndAndADevicesLastUseAreWrittenForPeople() async throws {
        let server = try await TestServer()
        let founder = Person.founderID
        let (expires, lastUsed) = try await server.test { client in
            let zone = try await client.send(
                .patch, "/api/v1/settings", json: #"{"progress": {"timeZoneIdentifier": "Europe/Berlin"}}"#)
            #expect(zone.status == .ok)
            var german = HTTPFields()
            german[.acceptLanguage] = "de"
            let pairing = try await client.send(.post, "/api/v1/people/\(founder)/pairing", headers: german)
            #expect(pairing.status == .created)
            let code = try #require(try pairing.object["code"] as? String)
            let paired = try await client.send(.post, "/pair", json: #"{"code": "\#(code)", "device": "iPhone"}"#)
            #expect(paired.status == .ok)
            let people = try await client.send(.get, "/api/v1/people?lang=en")
            let person = try #require((try people.object["people"] as? [[String: Any]])?.first)
            let devices = try #require(person["devices"] as? [[String: Any]])
            let phone = try #require(devices.first { $0["name"] as? String == "iPhone" })
            return (try pairing.object["expiresText"] as? String, phone["lastUsedText"] as? String)
        }
        // The test clock stands at 2027-01-15T08:00:00Z: 09:00 in Berlin; a code lasts 10 minutes.
        #expect(expires == "09:10")
        #expect(lastUsed == "15 Jan at 09:00")
    }
}

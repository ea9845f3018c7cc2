import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import MomentumServices
import Testing

@testable import MomentumServer

@Suite("Morse QSO routes: a contact with a seeded virtual station, played and answered over HTTP")
struct MorseQSORoutesTests {
    @Test func aContactNeedsACallSignAndTheSettingKeepsOne() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let none = try await client.send(.post, "/api/v1/morse/qso", json: "{}")
            #expect(none.status == .unprocessableContent)
            #expect(none.errorMessage?.contains("call sign") == true, "\(none.text)")
            let bad = try await client.send(.put, "/api/v1/morse/call-sign", json: #"{"callSign":"HELLO"}"#)
            #expect(bad.status == .unprocessableContent, "\(bad.text)")
            #expect(try await client.send(.get, "/api/v1/morse/call-sign").object["callSign"] is NSNull)
            let saved = try await client.send(.put, "/api/v1/morse/call-sign", json: #"{"callSign":"dl1abc"}"#)
            #expect(try saved.object["callSign"] as? String == "DL1ABC")
            let started = try await client.send(.post, "/api/v1/morse/qso", json: #"{"seed":5}"#)
            #expect(started.status == .created, "\(started.text)")
            #expect(try started.object["ownCallSign"] as? String == "DL1ABC")
            let cleared = try await client.send(.put, "/api/v1/morse/call-sign", json: #"{"callSign":null}"#)
            #expect(try cleared.object["callSign"] is NSNull)
        }
    }

    @Test func answeringACQRunsTheWholeContactWithAHintForWhatWasMissing() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let body = #"{"mode":"answer","style":"firstContact","callSign":"DL1ABC","seed":11}"#
            let started = try await client.send(.post, "/api/v1/morse/qso", json: body).object
            let id = try #require(started["id"] as? String)
            #expect(started["phase"] as? String == "calling")
            let station = try #require(started["station"] as? [String: Any])
            let cq = try #require(station["text"] as? String)
            #expect(cq.hasPrefix("CQ CQ CQ DE "))
            #expect((station["elements"] as? [Any])?.isEmpty == false)
            let call = try #require(cq.split(separator: " ").dropFirst(4).first.map(String.init))

            // Only our own call: the station asks again and the hint names its call sign.
            let partial = try await client.send(
                .post, "/api/v1/morse/qso/\(id)/send", json: #"{"text":"DE DL1ABC K"}"#
            ).object
            let reply = try #require(partial["lastReply"] as? [String: Any])
            #expect(reply["advanced"] as? Bool == false)
            #expect((reply["missing"] as? [[String: Any]])?.first?["element"] as? String == "stationCallSign")
            #expect((reply["hint"] as? String)?.isEmpty == false)

            // Then send what the station expects each time, until the contact is done.
            var contact = partial
            for _ in 0..<6 where contact["isDone"] as? Bool != true {
                let expected = try #require(contact["expected"] as? [[String: Any]]).compactMap {
                    $0["element"] as? String
                }
                let words = expected.map { element in
                    switch element {
                    case "stationCallSign": call
                    case "ownCallSign": "DE DL1ABC"
                    case "report": "UR RST 599"
                    case "signOff": "73 <SK>"
                    case "cq": "CQ"
                    default: "?"
                    }
                }
                let sent = try await client.send(
                    .post, "/api/v1/morse/qso/\(id)/send", json: #"{"text":"\#(words.joined(separator: " "))"}"#)
                contact = try sent.object
                #expect((contact["lastReply"] as? [String: Any])?["advanced"] as? Bool == true, "\(words)")
            }
            #expect(contact["isDone"] as? Bool == true, "\(contact)")
            #expect(contact["phase"] as? String == "done")
            #expect((contact["transcript"] as? [Any])?.count ?? 0 >= 6)
            let over = try await client.send(.post, "/api/v1/morse/qso/\(id)/send", json: #"{"text":"73"}"#)
            #expect(over.status == .conflict)
        }
    }

    @Test func theSameSeedMeetsTheSameStationAndBadInputIsClear() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let body = #"{"mode":"answer","callSign":"DL1ABC","seed":42}"#
            let first = try await client.send(.post, "/api/v1/morse/qso", json: body).object
            let second = try await client.send(.post, "/api/v1/morse/qso", json: body).object
            #expect(
                (first["station"] as? [String: Any])?["text"] as? String
                    == (second["station"] as? [String: Any])?["text"] as? String)
            let id = try #require(first["id"] as? String)
            let long = String(repeating: "CQ ", count: 200)
            let tooLong = try await client.send(.post, "/api/v1/morse/qso/\(id)/send", json: #"{"text":"\#(long)"}"#)
            #expect(tooLong.status == .unprocessableContent, "\(tooLong.text)")
            let unchanged = try await client.send(.get, "/api/v1/morse/qso/\(id)").object
            #expect((unchanged["transcript"] as? [Any])?.count == 1)
            let style = try await client.send(
                .post, "/api/v1/morse/qso", json: #"{"style":"chat","callSign":"DL1ABC"}"#)
            #expect(style.status == .badRequest || style.status == .unprocessableContent)
            let unknown = try await client.send(.get, "/api/v1/morse/qso/00000000-0000-0000-0000-0000000000ff")
            #expect(unknown.status == .notFound)
        }
    }
}

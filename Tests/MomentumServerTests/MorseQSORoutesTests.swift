import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumAudio
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

@Suite("Morse QSO routes: a station on a band, and asking it again and slower")
struct MorseQSOBandRoutesTests {
    @Test func onABandTheStationsSoundIsTheServersWithNoiseAndItsElementsByTheSameHand() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let body = #"{"mode":"answer","callSign":"DL1ABC","seed":11,"conditions":"weak-dx"}"#
            let started = try await client.send(.post, "/api/v1/morse/qso", json: body)
            #expect(started.status == .created, "\(started.text)")
            let contact = try started.object
            #expect(contact["conditions"] as? String == "weak-dx")
            let station = try #require(contact["station"] as? [String: Any])
            let path = try #require(station["audio"] as? String)
            let elements = try #require(station["elements"] as? [[String: Any]])
            let keyedMs = elements.compactMap { $0["ms"] as? Double }.reduce(0, +)
            let sound = try await client.send(.get, path)
            #expect(sound.status == .ok)
            #expect(sound.headers[.contentType] == "audio/wav")
            let audio = try WAVFile.decode(Data(buffer: sound.body))
            // The sound is the elements the page was given (a heavy fist: not the book's lengths)
            // and the tone's fall.
            #expect(abs(audio.duration.inSeconds * 1000 - keyedMs) < 20, "\(audio.duration) vs \(keyedMs) ms")
            let book = try MorseKeyer(timing: MorseTiming(characterWPM: 20, effectiveWPM: 13))
                .keying(try #require(station["text"] as? String)).elements
            #expect(abs(book.reduce(Duration.zero) { $0 + $1.duration }.inSeconds * 1000 - keyedMs) > 50)
            // Noise at 0 dB S/N: no stretch of the sound is silent.
            let quietest =
                stride(from: 0, to: audio.samples.count - 2205, by: 2205).map { start in
                    audio.samples[start..<start + 2205].map { abs(Int($0)) }.max() ?? 0
                }.min() ?? 0
            #expect(quietest > 100)
            // A clean band has no sound of the server's: the page keys the elements itself.
            let clean = try await client.send(
                .post, "/api/v1/morse/qso", json: #"{"mode":"answer","callSign":"DL1ABC","seed":11}"#
            ).object
            let cleanStation = try #require(clean["station"] as? [String: Any])
            #expect(cleanStation["audio"] == nil)
            let cleanID = try #require(clean["id"] as? String)
            #expect(try await client.send(.get, "/api/v1/morse/qso/\(cleanID)/station.wav").status == .notFound)
            let unknown = try await client.send(
                .post, "/api/v1/morse/qso", json: #"{"callSign":"DL1ABC","conditions":"storm"}"#)
            #expect(unknown.status == .badRequest || unknown.status == .unprocessableContent)
        }
    }

    @Test func qrsKeysTheStationSlowerAndAgnRepeatsIt() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let body = #"{"mode":"answer","callSign":"DL1ABC","seed":11}"#
            let started = try await client.send(.post, "/api/v1/morse/qso", json: body).object
            let id = try #require(started["id"] as? String)
            let cq = try #require((started["station"] as? [String: Any])?["text"] as? String)
            #expect(started["stationWPM"] as? Double == 20)
            let again = try await client.send(.post, "/api/v1/morse/qso/\(id)/send", json: #"{"text":"AGN?"}"#).object
            #expect((again["station"] as? [String: Any])?["text"] as? String == cq)
            #expect((again["lastReply"] as? [String: Any])?["request"] as? String == "again")
            #expect((again["lastReply"] as? [String: Any])?["hint"] == nil)
            let slower = try await client.send(.post, "/api/v1/morse/qso/\(id)/send", json: #"{"text":"QRS"}"#).object
            #expect(slower["stationWPM"] as? Double == 15)
            #expect(slower["phase"] as? String == "calling")
        }
    }
}

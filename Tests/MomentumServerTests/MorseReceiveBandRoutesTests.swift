import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumAudio
import MomentumCore
import Testing

@testable import MomentumServer

@Suite("Morse receive routes: items heard on a band")
struct MorseReceiveBandRoutesTests {
    static func started(_ client: some TestClientProtocol, body: String) async throws -> (String, [String: Any]) {
        let created = try await client.send(.post, "/api/v1/morse/sessions", json: body)
        #expect(created.status == .created, "\(created.text)")
        let id = try #require(try created.object["id"] as? String)
        let started = try await client.send(.post, "/api/v1/morse/sessions/\(id)/start")
        #expect(started.status == .ok, "\(started.text)")
        return (id, try started.object)
    }

    @Test func eachItemIsTheServersSoundOfItsElementsKeyedByTheBandsHand() async throws {
        let server = try await TestServer()
        try await server.test { client in
            var (id, session) = try await Self.started(
                client, body: #"{"direction":"receive","seed":7,"conditions":"weak-dx"}"#)
            #expect(session["conditions"] as? String == "weak-dx")
            var paths: Set<String> = []
            for turn in 0..<3 {
                let item = try #require(session["item"] as? [String: Any])
                let path = try #require(item["audio"] as? String)
                #expect(path == "/api/v1/morse/sessions/\(id)/item.wav?item=\(turn)")
                paths.insert(path)
                let keyedMs = try #require(item["elements"] as? [[String: Any]]).compactMap { $0["ms"] as? Double }
                    .reduce(0, +)
                let sound = try await client.send(.get, path)
                #expect(sound.status == .ok)
                #expect(sound.headers[.contentType] == "audio/wav")
                let audio = try WAVFile.decode(Data(buffer: sound.body))
                // The sound lasts as long as the elements the page counts the answer window from.
                #expect(abs(audio.duration.inSeconds * 1000 - keyedMs) < 20, "\(audio.duration) vs \(keyedMs) ms")
                // Noise at 0 dB S/N: no stretch of the sound is silent.
                let quietest =
                    stride(from: 0, to: audio.samples.count - 1102, by: 1102).map { start in
                        audio.samples[start..<start + 1102].map { abs(Int($0)) }.max() ?? 0
                    }.min() ?? 0
                #expect(quietest > 100)
                // The copy a perfect listener makes of the hand-keyed elements is the item itself.
                let answer = try MorseRoutesTests.copy(item)
                let answered = try await client.send(
                    .post, "/api/v1/morse/sessions/\(id)/answer", json: #"{"answer":"\#(answer)","responseMs":700}"#)
                #expect(answered.status == .ok, "\(answered.text)")
                session = try answered.object
                #expect((session["lastAttempt"] as? [String: Any])?["isCorrect"] as? Bool == true)
            }
            #expect(paths.count == 3)
            // The same seed on a clean band: the book's lengths, which the heavy fist is not.
            let (_, clean) = try await Self.started(client, body: #"{"direction":"receive","seed":7}"#)
            let cleanItem = try #require(clean["item"] as? [String: Any])
            #expect(cleanItem["audio"] == nil)
            #expect(clean["conditions"] as? String == "clean")
            let cleanID = try #require(clean["id"] as? String)
            #expect(
                try await client.send(.get, "/api/v1/morse/sessions/\(cleanID)/item.wav?item=0").status == .notFound)
            // Paused, no item is out to be heard.
            #expect(try await client.send(.post, "/api/v1/morse/sessions/\(id)/pause").status == .ok)
            #expect(try await client.send(.get, "/api/v1/morse/sessions/\(id)/item.wav").status == .notFound)
        }
    }

    @Test func aBandIsForReceiveOnlyAndAnUnknownOneIsRefused() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let send = try await client.send(
                .post, "/api/v1/morse/sessions", json: #"{"direction":"send","conditions":"contest"}"#)
            #expect(send.status == .unprocessableContent)
            #expect(send.errorMessage?.contains("receive") == true, "\(send.text)")
            let unknown = try await client.send(
                .post, "/api/v1/morse/sessions", json: #"{"direction":"receive","conditions":"aurora"}"#)
            #expect(unknown.status == .badRequest || unknown.status == .unprocessableContent, "\(unknown.text)")
            // A clean band is every direction's.
            let sendClean = try await client.send(
                .post, "/api/v1/morse/sessions", json: #"{"direction":"send","conditions":"clean"}"#)
            #expect(sendClean.status == .created)
            #expect(try await client.send(.get, "/api/v1/morse/sessions").status == .ok)
        }
    }
}

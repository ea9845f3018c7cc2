import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumAudio
import MomentumCore
import MomentumServices
import Testing

@testable import MomentumServer

/// A speech engine for route tests: a short buzz per text, no process.
private struct QuickSpeech: SpeechEngine {
    func speak(_ text: String, language: Language) throws(SpeechError) -> SpokenAudio {
        SpokenAudio(
            samples: (0..<(text.count * 800)).map { Float(0.3 * sin(Double($0) * 0.2)) }, sampleRate: 22_050)
    }
}

@Suite("Hands-free routes: the form, the session as a stream, listening logged once")
struct HandsFreeRoutesTests {
    static let speaking = AudioRendering(
        makeSource: AudioRendering.live.makeSource,
        makeSpeech: { () throws(SpeechError) -> any SpeechEngine in QuickSpeech() })
    static let mute = AudioRendering(
        makeSource: AudioRendering.live.makeSource,
        makeSpeech: { () throws(SpeechError) -> any SpeechEngine in throw .engineMissing })

    static func planQuery(_ json: String) -> String {
        "/api/v1/morse/hands-free.wav?plan="
            + (json.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }

    @Test func theFormCarriesTheCoursesDefaultsTheBoundsAndAFreshSeed() async throws {
        let server = try await TestServer(rendering: Self.speaking)
        try await server.services.morse.saveCourseSettings(
            try MorseCourseSettings(characterWPM: 25, effectiveWPM: 10))
        try await server.test { client in
            let view = try await client.send(.get, "/api/v1/morse/hands-free").object
            #expect(view["contents"] as? [String] == ["words", "callSigns", "qCodes", "list"])
            #expect(view["characterWPM"] as? Double == 25)
            #expect(view["effectiveWPM"] as? Double == 25)
            #expect((view["countBounds"] as? [String: Int]) == ["min": 1, "max": 200])
            #expect((view["pauseBoundsMs"] as? [String: Int]) == ["min": 500, "max": 5000])
            #expect(view["pauseMs"] as? Int == 1000)
            #expect(view["speechProblem"] == nil)
            let seed = try #require(view["seed"] as? Int)
            let again = try await client.send(.get, "/api/v1/morse/hands-free").object
            #expect(again["seed"] as? Int != seed)
        }
    }

    @Test func withoutSpeechTheFormAndTheStreamSayWhyInTheirLanguage() async throws {
        let server = try await TestServer(rendering: Self.mute)
        try await server.test { client in
            var german = HTTPFields()
            german[.acceptLanguage] = "de"
            let view = try await client.send(.get, "/api/v1/morse/hands-free", headers: german).object
            #expect((view["speechProblem"] as? String)?.contains("espeak-ng, das hier nicht installiert ist") == true)
            let audio = try await client.send(.get, Self.planQuery(#"{"content":"words","count":3}"#))
            #expect(audio.status == .serviceUnavailable)
            #expect(audio.errorCode == "speech_unavailable")
            #expect(audio.errorMessage?.contains("apt install espeak-ng") == true, "\(audio.text)")
        }
    }

    @Test func theSessionStreamsAsWAVAndIsKeptUnderItsPlan() async throws {
        let server = try await TestServer(rendering: Self.speaking)
        try await server.test { client in
            let query = Self.planQuery(#"{"content":"callSigns","count":3,"seed":9,"language":"de"}"#)
            let first = try await client.send(.get, query)
            #expect(first.status == .ok, "\(first.text)")
            #expect(first.headers[.contentType] == "audio/wav")
            let audio = try WAVFile.decode(Data(buffer: first.body))
            #expect(audio.format == .runStream)
            // 3 × (Morse, 1 s, speech, 1 s, Morse) and 2 × 2 s between: well over 12 s.
            #expect(audio.duration > .seconds(12))
            let tag = try #require(first.headers[.eTag])
            let second = try await client.send(.get, query)
            #expect(second.headers[.eTag] == tag)
            #expect(Data(buffer: second.body) == Data(buffer: first.body))
            var revalidate = HTTPFields()
            revalidate[.ifNoneMatch] = tag
            #expect(try await client.send(.get, query, headers: revalidate).status == .notModified)
            // Another seed is another session.
            let other = try await client.send(
                .get, Self.planQuery(#"{"content":"callSigns","count":3,"seed":10,"language":"de"}"#))
            #expect(other.headers[.eTag] != tag)
        }
    }

    @Test func badPlansAreRefusedWithASentenceAndNothingRenders() async throws {
        let server = try await TestServer(rendering: Self.speaking)
        try await server.test { client in
            let tooMany = try await client.send(.get, Self.planQuery(#"{"content":"words","count":201}"#))
            #expect(tooMany.status == .unprocessableContent)
            #expect(tooMany.errorMessage?.contains("1 to 200 items") == true, "\(tooMany.text)")
            let unknown = try await client.send(.get, Self.planQuery(#"{"content":"words","volume":3}"#))
            #expect(unknown.status == .badRequest)
            let kind = try await client.send(.get, Self.planQuery(#"{"content":"poems"}"#))
            #expect(kind.status == .badRequest || kind.status == .unprocessableContent)
            #expect(kind.errorMessage != nil)
            let entry = try await client.send(
                .get, Self.planQuery(#"{"content":"list","list":["DL1ABC","SMILE☺"]}"#))
            #expect(entry.status == .unprocessableContent)
            #expect(entry.errorMessage?.contains("SMILE☺") == true, "\(entry.text)")
            let control = try await client.send(
                .get, Self.planQuery(#"{"content":"list","list":["A\u0007B"]}"#))
            #expect(control.status == .badRequest || control.status == .unprocessableContent)
            let pause = try await client.send(.get, Self.planQuery(#"{"content":"words","pauseMs":100}"#))
            #expect(pause.status == .unprocessableContent)
            let fast = try await client.send(.get, Self.planQuery(#"{"content":"words","characterWPM":1e308}"#))
            #expect(fast.status == .unprocessableContent)
            #expect(try await client.send(.get, "/api/v1/morse/hands-free.wav").status == .badRequest)
            // The page checks its plan here first: the same sentence, before any sound.
            let checked = try await client.send(
                .post, "/api/v1/morse/hands-free/items", json: #"{"content":"list","list":["DL1ABC","SMILE☺"]}"#)
            #expect(checked.status == .unprocessableContent)
            #expect(checked.errorMessage == entry.errorMessage)
            let items = try await client.send(
                .post, "/api/v1/morse/hands-free/items", json: #"{"content":"list","list":["dl1abc","wald"]}"#)
            let listed = try #require(try items.object["items"] as? [[String: String]])
            #expect(listed == [["sent": "DL1ABC", "spoken": "D L 1 A B C"], ["sent": "WALD", "spoken": "wald"]])
        }
    }

    @Test func listeningIsLoggedOnceAsMorsePractice() async throws {
        let server = try await TestServer(rendering: Self.speaking)
        let log = server.services.practiceLog
        try await server.test { client in
            let id = UUID().uuidString
            let body = #"{"id":"\#(id)","plan":{"content":"qCodes","count":10},"listenedMs":185000,"finished":true}"#
            let first = try await client.send(.post, "/api/v1/morse/hands-free/listened", json: body)
            #expect(first.status == .ok, "\(first.text)")
            #expect(try first.object["logged"] as? Bool == true)
            #expect(try await client.send(.post, "/api/v1/morse/hands-free/listened", json: body).status == .ok)
            let records = try await log.records()
            #expect(records.count == 1)
            #expect(records.first?.kind == .morse)
            #expect(records.first?.countedSeconds == 185)
            #expect(records.first?.details["practice"] == "handsFree")
            let short = try await client.send(
                .post, "/api/v1/morse/hands-free/listened",
                json: #"{"id":"\#(UUID().uuidString)","plan":{"content":"words"},"listenedMs":30000,"finished":false}"#)
            #expect(try short.object["logged"] as? Bool == false)
            let negative = try await client.send(
                .post, "/api/v1/morse/hands-free/listened",
                json: #"{"id":"\#(UUID().uuidString)","plan":{"content":"words"},"listenedMs":-5,"finished":true}"#)
            #expect(negative.status == .unprocessableContent)
            #expect(try await log.records().count == 1)
        }
    }
}

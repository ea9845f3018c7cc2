import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumAudio
import MomentumCore
import Testing

@testable import MomentumServer

@Suite("Rendered sessions and cue sounds as cacheable audio")
struct AudioRoutesTests {
    @Test func aBreathingSessionIsRenderedAsAWAVWithAnETagThatRevalidates() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let plan = #"{"pattern":"1-0-1-0","rounds":2}"#.addingPercentEncoding(
                withAllowedCharacters: .alphanumerics)!
            let uri = "/api/v1/render/breathing.wav?rate=8000&plan=\(plan)"
            let response = try await client.send(.get, uri)
            #expect(response.status == .ok, "\(response.text)")
            #expect(response.headers[.contentType] == "audio/wav")
            #expect(response.headers[.cacheControl]?.contains("max-age") == true)
            let audio = try WAVFile.decode(Data(buffer: response.body))
            #expect(audio.format.sampleRate == 8000)
            let timeline = try BreathingPlan(pattern: BreathingPattern(parsing: "1-0-1-0"), length: .rounds(2))
                .timeline()
            let expected = try TimelineRenderer(timeline: timeline, format: AudioFormat(sampleRate: 8000)).frameCount
            #expect(audio.frameCount == expected)
            #expect(audio.frameCount >= 4 * 8000)
            let tag = try #require(response.headers[.eTag])
            var headers = HTTPFields()
            headers[.ifNoneMatch] = tag
            let again = try await client.send(.get, uri, headers: headers)
            #expect(again.status == .notModified)
        }
    }

    @Test(arguments: [
        ("/api/v1/render/meditation.wav?plan=%7B%22isOpenEnded%22%3Atrue%7D", HTTPResponse.Status.unprocessableContent),
        ("/api/v1/render/meditation.wav?plan=%7B%22durationMs%22%3A0%7D", .unprocessableContent),
        ("/api/v1/render/meditation.wav?plan=nope", .badRequest),
        ("/api/v1/render/workout.wav?rate=3", .unprocessableContent),
        ("/api/v1/render/breathing.wav?ambient=thunder", .unprocessableContent),
        ("/api/v1/render/morse.wav", .notFound),
        ("/api/v1/sounds/kazoo.wav", .notFound),
        ("/api/v1/sounds/ambient/thunder.wav", .notFound),
        ("/api/v1/sounds/ambient/silent.wav", .notFound),
    ])
    func badRenderRequestsAreClearErrors(uri: String, status: HTTPResponse.Status) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(.get, uri)
            #expect(response.status == status, "\(response.text)")
            #expect(response.errorMessage?.isEmpty == false)
        }
    }

    @Test func everyCueSoundIsServedAsCacheableAudio() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(.get, "/api/v1/sounds/\(CueSound.startGong.rawValue).wav")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "audio/wav")
            #expect(response.headers[.cacheControl] == "public, max-age=604800")
            #expect(response.headers[.eTag] != nil)
            #expect(try WAVFile.decode(Data(buffer: response.body)).frameCount > 0)
        }
    }

    @Test func anAmbientBedIsServedAsASeamlessLoopThatIsMadeOnce() async throws {
        let server = try await TestServer()
        let cache = server.configuration.dataDirectory.appendingPathComponent("cache/ambient")
        try await server.test { client in
            let response = try await client.send(.get, "/api/v1/sounds/ambient/rain.wav")
            #expect(response.status == .ok, "\(response.text)")
            #expect(response.headers[.contentType] == "audio/wav")
            let audio = try WAVFile.decode(Data(buffer: response.body))
            #expect(audio.format == .liveAmbient)
            #expect(audio.frameCount == AudioFormat.liveAmbient.frames(at: AmbientLoop.length))
            let tag = try #require(response.headers[.eTag])
            var revalidate = HTTPFields()
            revalidate[.ifNoneMatch] = tag
            #expect(
                try await client.send(.get, "/api/v1/sounds/ambient/rain.wav", headers: revalidate).status
                    == .notModified)
            #expect(try await client.send(.get, "/api/v1/sounds/ambient/ocean.wav").headers[.eTag] != tag)
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".wav") }.count == 2)
    }
}

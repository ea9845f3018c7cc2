import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumAudio
import MomentumCore
import Testing

@testable import MomentumServer

@Suite("A running focus timer's end sound: silence for the time left, then the end gong")
struct FocusEndSoundRoutesTests {
    static let rate = AudioFormat.runStream.sampleRate
    static let header = 44

    static func add(_ client: any TestClientProtocol, seconds: Int) async throws -> String {
        let added = try await client.send(
            .post, "/api/v1/timers", json: #"{"name":"Tea","durationMs":\#(seconds * 1000)}"#)
        #expect(added.status == .created)
        return try #require(try added.object["id"] as? String)
    }

    static func endSound(_ client: any TestClientProtocol, _ id: String, range: String? = nil) async throws
        -> TestResponse
    {
        var headers = HTTPFields()
        headers[.range] = range
        return try await client.execute(
            uri: "/api/v1/timers/\(id)/end-sound", method: .get, headers: headers, body: nil)
    }

    @Test func theGongStrikesWhenTheServersTimeLeftIsUp() async throws {
        let server = try await TestServer()
        let clock = server.clock
        try await server.test { client in
            let id = try await Self.add(client, seconds: 120)
            #expect(try await client.send(.post, "/api/v1/timers/\(id)/start").status == .ok)
            clock.advance(by: 30.5)
            // 89.5 s left: one second before it to three after.
            let first = Self.header + 2 * (Self.rate * 885 / 10)
            let last = first + 2 * 4 * Self.rate - 1
            let response = try await Self.endSound(client, id, range: "bytes=\(first)-\(last)")
            #expect(response.status == .partialContent)
            #expect(response.headers[.contentType] == "audio/wav")
            #expect(response.headers[.acceptRanges] == "bytes")
            // The time left and the end gong's 14 s of ring-out.
            let size = Self.header + 2 * (Self.rate * 895 / 10 + 14 * Self.rate)
            #expect(response.headers[.contentRange] == "bytes \(first)-\(last)/\(size)")
            let samples = RunAudioRoutesTests.samples(response.body)
            #expect(samples.prefix(Self.rate).allSatisfy { $0 == 0 }, "silence until the time is up")
            let onset = try #require(RunAudioRoutesTests.onset(samples))
            let error = Double(onset - Self.rate) / Double(Self.rate)
            #expect(abs(error) <= 0.010, "the gong is \(error * 1000) ms off")

            // The whole file is the same bytes as the timer's rest, rendered.
            let whole = try await Self.endSound(client, id)
            #expect(whole.status == .ok)
            #expect(whole.headers[.contentLength] == "\(size)")
            var timer = try FocusTimer(
                id: UUID(), name: "Tea", duration: .seconds(120), sortOrder: 0, createdAt: clock.now)
            try timer.start(at: clock.now.addingTimeInterval(-30.5))
            var reader = try WAVRangeReader(
                blocks: TimelineBlocks(timeline: timer.remainingTimeline(at: clock.now), format: .runStream))
            #expect([UInt8](buffer: whole.body) == reader.bytes(0..<reader.byteCount))
        }
    }

    @Test func aTimerThatIsNotRunningHasNoEndSoundAndAnUnknownOneIsNotFound() async throws {
        let server = try await TestServer()
        let clock = server.clock
        try await server.test { client in
            let id = try await Self.add(client, seconds: 60)
            let idle = try await Self.endSound(client, id)
            #expect(idle.status == .conflict)
            #expect(idle.errorMessage == "“Tea” is not running: it has no end to sound.")

            #expect(try await client.send(.post, "/api/v1/timers/\(id)/start").status == .ok)
            clock.advance(by: 10)
            #expect(try await client.send(.post, "/api/v1/timers/\(id)/pause").status == .ok)
            let paused = try await client.execute(
                uri: "/api/v1/timers/\(id)/end-sound", method: .get, headers: [.acceptLanguage: "de"], body: nil)
            #expect(paused.status == .conflict)
            #expect(paused.errorCode == "conflict")
            #expect(paused.body.readableBytes > 0)
            #expect(paused.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(paused.errorMessage == "„Tea“ läuft nicht: es gibt kein Ende, das erklingen könnte.")

            // Resumed and run out: done, nothing left to sound.
            #expect(try await client.send(.post, "/api/v1/timers/\(id)/start").status == .ok)
            clock.advance(by: 60)
            let done = try await Self.endSound(client, id)
            #expect(done.status == .conflict)

            let missing = try await Self.endSound(client, "00000000-0000-0000-0000-000000000099")
            #expect(missing.status == .notFound)
            #expect(missing.errorCode == "not_found")
        }
    }

    @Test func theEndSoundIsHeldToTheLimitOfStreamsAtOnce() async throws {
        let server = try await RenderTestServer(limits: RenderLimits(concurrentStreams: 0))
        try await server.test { client in
            let id = try await Self.add(client, seconds: 60)
            #expect(try await client.send(.post, "/api/v1/timers/\(id)/start").status == .ok)
            let busy = try await Self.endSound(client, id)
            #expect(busy.status == .serviceUnavailable)
            #expect(busy.errorCode == "render_busy")
        }
    }
}

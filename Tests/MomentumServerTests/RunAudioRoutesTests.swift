import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumAudio
import MomentumCore
import Testing

@testable import MomentumServer

@Suite("A run's audio as one seekable WAV stream, made as it is sent")
struct RunAudioRoutesTests {
    static let rate = AudioFormat.runStream.sampleRate
    static let header = 44

    /// The server over real HTTP on a free port.
    static func live<Value: Sendable>(
        _ server: TestServer, _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        let clock = server.clock
        let ids = server.ids
        let application = buildApplication(
            configuration: ServerConfiguration(
                host: "127.0.0.1", port: 0, dataDirectory: server.directory.url, publicDirectory: nil),
            dependencies: ServerDependencies(
                household: server.household, now: { clock.now }, makeID: { ids.make() }, version: "test"))
        return try await application.test(.live, body)
    }

    static func start(_ client: any TestClientProtocol, _ plan: String) async throws -> String {
        let started = try await client.send(
            .post, "/api/v1/runs", json: #"{"kind":"meditation","plan":\#(plan),"at":"2027-01-15T08:00:00Z"}"#)
        return try #require(try started.object["id"] as? String)
    }

    static func ranged(
        _ client: any TestClientProtocol, _ id: String, _ range: String, query: String = ""
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.range] = range
        return try await client.execute(
            uri: "/api/v1/runs/\(id)/audio\(query)", method: .get, headers: headers, body: nil)
    }

    /// 16-bit little-endian samples of `bytes` (an even count, starting on a sample).
    static func samples(_ bytes: ByteBuffer) -> [Float] {
        let raw = [UInt8](buffer: bytes)
        return stride(from: 0, to: raw.count - 1, by: 2).map {
            Float(Int16(bitPattern: UInt16(raw[$0]) | UInt16(raw[$0 + 1]) << 8)) / 32_767
        }
    }

    /// Where a gong strikes in `samples`: the first sample more than twice as loud as anything in
    /// the first half second (the bed alone).
    static func onset(_ samples: [Float]) -> Int? {
        let quiet = samples.prefix(rate / 2).map { abs($0) }.max() ?? 0
        return samples.indices.first { abs(samples[$0]) > max(0.02, 2 * quiet) }
    }

    @Test func aSixtyMinuteSitHasEveryGongWithinTenMillisecondsOfItsTimeline() async throws {
        let server = try await TestServer()
        try await Self.live(server) { client in
            let id = try await Self.start(
                client,
                #"{"durationMs":3600000,"countdownMs":15000,"intervalGongs":{"mode":"every","minutes":5},"ambientID":"rain","ambientVolume":0.15}"#
            )
            // The start gong at 15 s, eleven interval gongs every 5 minutes, the end gong at 60:15.
            let cues = [15] + (1...11).map { 15 + 300 * $0 } + [3_615]
            var size: Int?
            for second in cues {
                // One second before the cue to one after: the bed, then the gong.
                let first = Self.header + 2 * (second - 1) * Self.rate
                let last = first + 4 * Self.rate - 1
                let response = try await Self.ranged(client, id, "bytes=\(first)-\(last)")
                #expect(response.status == .partialContent)
                #expect(response.headers[.acceptRanges] == "bytes")
                #expect(response.headers[.contentLength] == "\(4 * Self.rate)")
                let total = response.headers[.contentRange]?.split(separator: "/").last.flatMap { Int($0) }
                size = size ?? total
                #expect(total == size)
                #expect(response.headers[.contentRange] == "bytes \(first)-\(last)/\(size ?? 0)")
                let onset = try #require(Self.onset(Self.samples(response.body)), "gong at \(second) s")
                let error = Double(onset - Self.rate) / Double(Self.rate)
                #expect(abs(error) <= 0.010, "gong at \(second) s is \(error * 1000) ms off")
            }
            // 60:15 of sit, the end gong's 14 s and the bed's 1.5 s fade (the longer) after it.
            let frames = (3_615 + 14) * Self.rate
            #expect(size == Self.header + 2 * frames)
            // Past the end: nothing there.
            let beyond = try await Self.ranged(client, id, "bytes=\(size ?? 0)-")
            #expect(beyond.status == .rangeNotSatisfiable)
            #expect(beyond.headers[.contentRange] == "bytes */\(size ?? 0)")
        }
    }

    @Test func theWholeFileIsTheRenderAndAnyRangesJoinToIt() async throws {
        let server = try await TestServer()
        try await Self.live(server) { client in
            let id = try await Self.start(
                client,
                #"{"durationMs":90000,"countdownMs":5000,"intervalGongs":{"mode":"every","minutes":1},"ambientID":"ocean","ambientVolume":0.3}"#
            )
            let whole = try await client.execute(uri: "/api/v1/runs/\(id)/audio", method: .get, headers: [:], body: nil)
            #expect(whole.status == .ok)
            #expect(whole.headers[.acceptRanges] == "bytes")
            #expect(whole.headers[.contentType] == "audio/wav")
            #expect(whole.headers[.contentRange] == nil)
            let bytes = [UInt8](buffer: whole.body)
            #expect(whole.headers[.contentLength] == "\(bytes.count)")
            // The same bytes as the renderer writes for the run's timeline.
            let plan = MeditationPlan(
                duration: .seconds(90), countdown: .seconds(5), intervalGongs: .every(minutes: 1), ambientID: "ocean",
                ambientVolume: 0.3)
            var renderer = try TimelineRenderer(timeline: plan.timeline(), format: .runStream)
            #expect(bytes == [UInt8](try WAVFile.encode(samples: renderer.renderAll(), format: .runStream)))
            let audio = try WAVFile.decode(Data(bytes))
            #expect(audio.format == .runStream)

            // Ranges of odd sizes, the first inside the header, joined.
            var joined: [UInt8] = []
            var offset = 0
            while offset < bytes.count {
                let last = min(bytes.count, offset + 333_333) - 1
                let part = try await Self.ranged(client, id, "bytes=\(offset)-\(last)")
                #expect(part.status == .partialContent)
                #expect(part.headers[.contentRange] == "bytes \(offset)-\(last)/\(bytes.count)")
                joined += [UInt8](buffer: part.body)
                offset = last + 1
            }
            #expect(joined == bytes)
            let suffix = try await Self.ranged(client, id, "bytes=-500")
            #expect([UInt8](buffer: suffix.body) == Array(bytes.suffix(500)))
            let open = try await Self.ranged(client, id, "bytes=17-")
            #expect(open.headers[.contentLength] == "\(bytes.count - 17)")
            #expect([UInt8](buffer: open.body) == Array(bytes[17...]))
            let several = try await Self.ranged(client, id, "bytes=0-9,20-29")
            #expect(several.status == .ok)
            #expect(several.body.readableBytes == bytes.count)
            let unreadable = try await Self.ranged(client, id, "bytes=9-3")
            #expect(unreadable.status == .rangeNotSatisfiable)
        }
    }

    @Test func anOpenEndedSitIsTenHoursLongItsSoundIsRefusedOnceStoppedAndAnUnknownRunIsNotFound() async throws {
        let server = try await TestServer()
        try await Self.live(server) { client in
            let id = try await Self.start(
                client, #"{"countdownMs":0,"isOpenEnded":true,"intervalGongs":{"mode":"every","minutes":5}}"#)
            let head = try await Self.ranged(client, id, "bytes=0-43")
            let size = Self.header + 2 * 10 * 3_600 * Self.rate
            #expect(head.headers[.contentRange] == "bytes 0-43/\(size)")
            // Five hours in, the sixtieth interval gong, on time.
            let first = Self.header + 2 * (5 * 3_600 - 1) * Self.rate
            let late = try await Self.ranged(client, id, "bytes=\(first)-\(first + 4 * Self.rate - 1)")
            let onset = try #require(Self.onset(Self.samples(late.body)))
            #expect(abs(onset - Self.rate) <= Self.rate / 100)

            let missing = try await client.execute(
                uri: "/api/v1/runs/00000000-0000-0000-0000-000000000099/audio", method: .get, headers: [:], body: nil)
            #expect(missing.status == .notFound)
            #expect(missing.errorMessage == "There is no run with the id 00000000-0000-0000-0000-000000000099.")

            let stopped = try await client.send(
                .post, "/api/v1/runs/\(id)/stop", json: #"{"at":"2027-01-15T08:20:00Z"}"#)
            #expect(stopped.status == .ok)
            // Asked for after the stop, the sound is refused before any byte, in the request's language.
            let after = try await client.execute(
                uri: "/api/v1/runs/\(id)/audio", method: .get, headers: [.acceptLanguage: "de"], body: nil)
            #expect(after.status == .conflict)
            #expect(after.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(after.errorMessage == "Der Durchlauf wurde beendet: sein Klang ist zu Ende.")

        }
    }

    @Test(arguments: [
        #"{"kind":"breathing","at":"2027-01-15T08:00:00Z"}"#,
        #"{"kind":"workout","plan":{"rounds":2},"at":"2027-01-15T08:00:00Z"}"#,
    ])
    func breathingAndWorkoutRunsStreamTheirTimelines(_ body: String) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let started = try await client.send(.post, "/api/v1/runs", json: body)
            let id = try #require(try started.object["id"] as? String)
            let json = try JSONSerialization.data(withJSONObject: try #require(try started.object["timeline"]))
            let timeline = try JSONDecoder().decode(Timeline.self, from: json)
            let frames = try TimelineRenderer(timeline: timeline, format: .runStream).frameCount
            let head = try await Self.ranged(client, id, "bytes=0-43")
            #expect(head.status == .partialContent)
            #expect(head.headers[.contentRange] == "bytes 0-43/\(Self.header + 2 * frames)")
        }
    }

    @Test func beyondTheStreamsTheServerSendsAtOnceTheAnswerIs503WithRetryAfter() async throws {
        let server = try await RenderTestServer(limits: RenderLimits(concurrentStreams: 0))
        try await server.test { client in
            // This server keeps the real clock: the run starts now.
            let started = try await client.send(.post, "/api/v1/runs", json: #"{"kind":"breathing"}"#)
            let id = try #require(try started.object["id"] as? String)
            let busy = try await client.execute(uri: "/api/v1/runs/\(id)/audio", method: .get, headers: [:], body: nil)
            #expect(busy.status == .serviceUnavailable)
            #expect(busy.headers[.retryAfter] == "30")
            #expect(busy.errorCode == "render_busy")
        }
    }

    @Test func withTheBedOffTheSameTimelineHasItsCuesAloneAtTheSameLength() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let id = try await Self.start(
                client,
                #"{"durationMs":90000,"countdownMs":5000,"intervalGongs":{"mode":"every","minutes":1},"ambientID":"rain","ambientVolume":0.3}"#
            )
            let withBed = try await client.execute(
                uri: "/api/v1/runs/\(id)/audio", method: .get, headers: [:], body: nil)
            let off = try await client.execute(
                uri: "/api/v1/runs/\(id)/audio?bed=off", method: .get, headers: [:], body: nil)
            #expect(off.status == .ok)
            #expect(off.headers[.contentType] == "audio/wav")
            #expect(off.headers[.contentLength] == withBed.headers[.contentLength])
            // The bytes of the same sit without a bed, from the same reader.
            let plan = MeditationPlan(
                duration: .seconds(90), countdown: .seconds(5), intervalGongs: .every(minutes: 1), ambientID: "rain",
                ambientVolume: 0.3)
            var quiet = try plan.timeline()
            quiet.ambient = nil
            var reader = try WAVRangeReader(blocks: TimelineBlocks(timeline: quiet, format: .runStream))
            let bytes = [UInt8](buffer: off.body)
            #expect(bytes == reader.bytes(0..<reader.byteCount))
            // The countdown's second second: rain with the bed, silence without; the start gong is in both.
            let second = "bytes=\(Self.header + 2 * Self.rate)-\(Self.header + 4 * Self.rate - 1)"
            let rain = Self.samples(try await Self.ranged(client, id, second).body)
            let silence = Self.samples(try await Self.ranged(client, id, second, query: "?bed=off").body)
            #expect(rain.contains { abs($0) > 0.001 })
            #expect(silence.allSatisfy { $0 == 0 })
            let gong = "bytes=\(Self.header + 2 * 4 * Self.rate)-\(Self.header + 2 * 6 * Self.rate - 1)"
            let struck = try #require(
                Self.onset(Self.samples(try await Self.ranged(client, id, gong, query: "?bed=off").body)))
            #expect(abs(struck - Self.rate) <= Self.rate / 100)
            // And back: bed=on is the default.
            let on = try await Self.ranged(client, id, second, query: "?bed=on")
            #expect(Self.samples(on.body) == rain)

            let loud = try await client.execute(
                uri: "/api/v1/runs/\(id)/audio?bed=loud", method: .get, headers: [:], body: nil)
            #expect(loud.status == .unprocessableContent)
            #expect(loud.errorMessage == "bed must be on or off, not `loud`.")
        }
    }

    @Test func anOpenEndedSitWithoutItsBedKeepsTheBedsFadeOutSoBothFilesAreAsLong() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let id = try await Self.start(
                client, #"{"countdownMs":0,"isOpenEnded":true,"ambientID":"ocean","ambientVolume":0.2}"#)
            let on = try await Self.ranged(client, id, "bytes=0-43")
            let off = try await Self.ranged(client, id, "bytes=0-43", query: "?bed=off")
            // Ten hours and the bed's 1.5 s fade, in both.
            let size = Self.header + 2 * (10 * 3_600 * Self.rate + Self.rate * 3 / 2)
            #expect(on.headers[.contentRange] == "bytes 0-43/\(size)")
            #expect(off.headers[.contentRange] == "bytes 0-43/\(size)")
            #expect(on.body == off.body)
        }
    }

    @Test func aStreamRunningWhileItsRunIsStoppedEndsShortOfItsContentLength() async throws {
        let server = try await TestServer()
        try await Self.live(server) { client in
            let id = try await Self.start(client, #"{"countdownMs":0,"isOpenEnded":true}"#)
            let port = try #require(client.port)
            let get = try SocketHTTPGet(port: port, path: "/api/v1/runs/\(id)/audio")
            // The headers and the first chunk: the stream is running.
            let first = await get.read { bytes in
                SocketHTTPGet.head(bytes).map { bytes.count - $0.size >= 64 << 10 } ?? false
            }
            let head = try #require(SocketHTTPGet.head(first))
            #expect(head.lines.first == "HTTP/1.1 200 OK")
            let promised = try #require(
                head.lines.first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) })
            #expect(promised == Self.header + 2 * 10 * 3_600 * Self.rate)

            let stopped = try await client.send(
                .post, "/api/v1/runs/\(id)/stop", json: #"{"at":"2027-01-15T08:01:00Z"}"#)
            #expect(stopped.status == .ok)
            // The server sends what it had made and closes the connection: far fewer bytes than promised.
            let rest = await get.read { _ in false }
            let body = first.count - head.size + rest.count
            #expect(body < promised)
            #expect(body < 64 << 20, "\(body) bytes came after the stop")
        }
    }
}

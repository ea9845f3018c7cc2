import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumAudio
import MomentumCore
import Testing

@testable import MomentumServer

@Suite("Rendering keeps the server responsive: turns, length, cache size")
struct RenderLimitsRoutesTests {
    /// A sit of `durationMs` with a countdown of `countdownMs`, at 8 kHz.
    func meditationURI(durationMs: Int, countdownMs: Int = 0) -> String {
        let plan = #"{"durationMs":\#(durationMs),"countdownMs":\#(countdownMs)}"#
        return "/api/v1/render/meditation.wav?rate=8000&plan="
            + (plan.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }

    @Test func aRenderWhileTheOnlyTurnIsTakenIsAnswered503WithRetryAfter() async throws {
        let hold = RenderHold()
        let server = try await RenderTestServer(
            limits: RenderLimits(concurrentRenders: 1, waitingRenders: 0, retryAfter: .seconds(30)),
            rendering: hold.rendering(frameCount: 8_000))
        defer { hold.release() }
        try await server.test { client in
            async let first = client.send(.get, meditationURI(durationMs: 60_000))
            var arrivals = hold.arrivals.makeAsyncIterator()
            await arrivals.next()
            let second = try await client.send(.get, meditationURI(durationMs: 120_000))
            #expect(second.status == .serviceUnavailable)
            #expect(second.headers[.retryAfter] == "30")
            #expect(second.errorCode == "render_busy")
            #expect(second.errorMessage?.contains("30 s") == true)
            hold.release()
            let finished = try await first
            #expect(finished.status == .ok)
            #expect(try WAVFile.decode(Data(buffer: finished.body)).frameCount == 8_000)
            // The turn is free again.
            hold.release()
            #expect(try await client.send(.get, meditationURI(durationMs: 180_000)).status == .ok)
        }
    }

    @Test func aRequestThatWaitedTooLongIsAnswered503() async throws {
        let hold = RenderHold()
        let server = try await RenderTestServer(
            limits: RenderLimits(concurrentRenders: 1, waitingRenders: 1, longestWait: .zero),
            rendering: hold.rendering())
        defer { hold.release() }
        try await server.test { client in
            async let first = client.send(.get, meditationURI(durationMs: 60_000))
            var arrivals = hold.arrivals.makeAsyncIterator()
            await arrivals.next()
            let second = try await client.send(.get, meditationURI(durationMs: 120_000))
            #expect(second.status == .serviceUnavailable)
            #expect(second.headers[.retryAfter] != nil)
            hold.release()
            #expect(try await first.status == .ok)
        }
    }

    @Test func aTimelineOfTenHoursAndOneSecondIsRefusedInThePersonsLanguage() async throws {
        let server = try await RenderTestServer(limits: RenderLimits(), rendering: .quiet(frameCount: 800))
        try await server.test { client in
            let tooLong = meditationURI(durationMs: 36_000_000, countdownMs: 1_000)
            let english = try await client.send(.get, tooLong)
            #expect(english.status == .unprocessableContent)
            #expect(english.errorCode == "render_too_long")
            #expect(
                english.errorMessage?.hasPrefix(
                    "This practice lasts 10:00:01; audio files are rendered for up to 10 h.") == true)
            var german = HTTPFields()
            german[.acceptLanguage] = "de"
            let deutsch = try await client.send(.get, tooLong, headers: german)
            #expect(deutsch.status == .unprocessableContent)
            #expect(deutsch.errorMessage?.hasPrefix("Diese Übung dauert 10:00:01") == true)
            // Exactly ten hours is rendered (here by a quiet stand-in for the renderer).
            #expect(try await client.send(.get, meditationURI(durationMs: 36_000_000)).status == .ok)
        }
        #expect(server.cacheContents().count == 1)
    }

    @Test func theCacheKeepsTheRendersUsedLastWithinItsSize() async throws {
        // Each render: 44 + 8 000 frames × 2 bytes. Room for two and a half.
        let size = 44 + 16_000
        let server = try await RenderTestServer(
            limits: RenderLimits(cacheBytes: Int64(size * 5 / 2)), rendering: .quiet(frameCount: 8_000))
        let (a, b, c) = (
            meditationURI(durationMs: 60_000), meditationURI(durationMs: 120_000), meditationURI(durationMs: 180_000)
        )
        let folder = server.cacheFolder
        let kept = try await server.test { client in
            let first = try await client.send(.get, a)
            let tagA = try #require(first.headers[.eTag]).trimmingCharacters(in: ["\""])
            try Self.markUsed(tagA, in: folder, at: Date(timeIntervalSince1970: 1_600_000_000))
            let second = try await client.send(.get, b)
            let tagB = try #require(second.headers[.eTag]).trimmingCharacters(in: ["\""])
            try Self.markUsed(tagB, in: folder, at: Date(timeIntervalSince1970: 1_700_000_000))
            // Asking for A again is served from the cache and makes it the newest.
            let again = try await client.send(.get, a)
            #expect(again.status == .ok)
            #expect(again.body == first.body)
            let third = try await client.send(.get, c)
            let tagC = try #require(third.headers[.eTag]).trimmingCharacters(in: ["\""])
            return ["\(tagA).wav", "\(tagC).wav"].sorted()
        }
        #expect(server.cacheContents() == kept)
    }

    @Test func aRenderLargerThanTheCacheIsStreamedWithoutBeingKept() async throws {
        let server = try await RenderTestServer(
            limits: RenderLimits(cacheBytes: 1_000), rendering: .quiet(frameCount: 8_000))
        try await server.test { client in
            let response = try await client.send(.get, meditationURI(durationMs: 60_000))
            #expect(response.status == .ok)
            #expect(response.headers[.contentLength] == "16044")
            #expect(try WAVFile.decode(Data(buffer: response.body)).frameCount == 8_000)
        }
        #expect(server.cacheContents().isEmpty)
    }

    /// Sets when the cached render `tag` in `folder` was last used.
    static func markUsed(_ tag: String, in folder: URL, at date: Date) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: date], ofItemAtPath: folder.appendingPathComponent("\(tag).wav").path)
    }
}

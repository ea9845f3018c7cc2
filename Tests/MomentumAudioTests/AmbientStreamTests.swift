import Foundation
import MomentumCore
import Testing

@testable import MomentumAudio

@Suite("A live ambient stream")
struct AmbientStreamTests {
    static let rate = 16_000
    static func stream(_ generator: AmbientGenerator = .rain, volume: Double = 0.5) throws -> AmbientStream {
        try AmbientStream(generator: generator, volume: volume, format: AudioFormat(sampleRate: rate), seed: 3)
    }

    @Test func itIsSilentUntilItFadesIn() throws {
        var stream = try Self.stream()
        #expect(stream.isSilent)
        #expect(stream.render(frames: 4_000).allSatisfy { $0 == 0 })
    }

    @Test func itFadesInOverOneAndAHalfSecondsToItsVolume() throws {
        var stream = try Self.stream()
        stream.fadeIn()
        let samples = stream.render(frames: Self.rate * 4)
        let steady = SignalAnalysis.rms(samples[Self.rate * 2..<Self.rate * 4])
        #expect(abs(steady - 0.5 * Double(AmbientBed.level)) < 0.02)
        // Quiet at first, half way up in the middle of the fade, fully up after it.
        #expect(SignalAnalysis.rms(samples[0..<1_600]) < steady / 10)
        let middle = SignalAnalysis.rms(samples[11_000..<13_000])
        #expect(middle > steady * 0.3 && middle < steady * 0.7)
        #expect(SignalAnalysis.rms(samples[24_000..<32_000]) > steady * 0.9)
    }

    @Test func itFadesOutToExactSilenceAndStaysThere() throws {
        var stream = try Self.stream()
        stream.fadeIn()
        _ = stream.render(frames: Self.rate * 2)
        stream.fadeOut()
        #expect(!stream.isSilent)
        let fading = stream.render(frames: 24_000)
        #expect(stream.isSilent)
        #expect(SignalAnalysis.rms(fading[0..<1_600]) > 0.5 * Double(AmbientBed.level) * 0.8)
        #expect(fading[23_999] == 0)
        #expect(stream.render(frames: 8_000).allSatisfy { $0 == 0 })
    }

    @Test func aFadeReversedHalfWayTurnsBackFromWhereItIs() throws {
        var stream = try Self.stream()
        stream.fadeIn()
        _ = stream.render(frames: 12_000)  // half of the 24 000-frame fade
        #expect(stream.progress == 12_000)
        stream.fadeOut()
        _ = stream.render(frames: 4_000)
        #expect(stream.progress == 8_000)
        stream.fadeIn()
        _ = stream.render(frames: 16_000)
        #expect(stream.progress == 24_000)
        let full = stream.render(frames: 16_000)
        #expect(abs(SignalAnalysis.rms(full[...]) - 0.5 * Double(AmbientBed.level)) < 0.02)
    }

    @Test func pcmIsLittleEndianSixteenBitWithTheSameSamples() throws {
        var stream = try Self.stream(.brown, volume: 1)
        var twin = try Self.stream(.brown, volume: 1)
        stream.fadeIn()
        twin.fadeIn()
        let pcm = stream.renderPCM(frames: 1_000)
        let floats = twin.render(frames: 1_000)
        #expect(pcm.map { Int16(littleEndian: $0) } == floats.map(WAVFile.pcm))
    }

    @Test func stereoStreamsCarryTwoDifferentBeds() throws {
        var stream = AmbientStream(
            generator: .ocean, volume: 1, format: try AudioFormat(sampleRate: Self.rate, channels: 2), seed: 9)
        stream.fadeIn()
        let samples = stream.render(frames: 30_000)
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let right = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
        #expect(left != right)
        #expect(abs(left[0]) < 1e-3 && abs(right[0]) < 1e-3)
    }
}

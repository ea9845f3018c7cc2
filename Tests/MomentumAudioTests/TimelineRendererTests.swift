import Foundation
import MomentumCore
import Testing

@testable import MomentumAudio

@Suite("Rendering a timeline")
struct TimelineRendererTests {
    static func timeline(
        seconds: Int, cues: [(Int, CueSound)], ambient: AmbientChoice? = nil
    ) throws -> Timeline {
        try Timeline(
            practice: .meditation,
            segments: [Segment(kind: .meditation, start: .zero, duration: .seconds(seconds))],
            cues: cues.map { Cue(offset: .seconds($0.0), sound: $0.1) }, ambient: ambient)
    }

    /// A cue's samples as the renderer mixes them: kept as 16-bit samples, scaled back.
    static func asMixed(_ sound: CueSound, sampleRate: Int) -> [Float] {
        let samples = CueSynthesizer(sampleRate: sampleRate).samples(for: sound)
        return TimelineRenderer.compact(samples).map { Float($0) * (1 / 32_767) }
    }

    @Test func aCuePlannedAt300SecondsStartsAtSample300TimesTheRateExactly() throws {
        let format = try AudioFormat(sampleRate: 8_000)
        var renderer = try TimelineRenderer(
            timeline: Self.timeline(seconds: 305, cues: [(300, .intervalGong)]), format: format)
        let samples = renderer.renderAll()
        let gong = Self.asMixed(.intervalGong, sampleRate: 8_000)
        // 16-bit storage: within half a step of the synthesized samples.
        let synthesized = CueSynthesizer(sampleRate: 8_000).samples(for: .intervalGong)
        #expect(zip(gong, synthesized).allSatisfy { abs($0 - $1) <= 0.5 / 32_767 + 1e-7 })
        let start = 300 * 8_000
        #expect(samples[..<start].allSatisfy { $0 == 0 })
        #expect(Array(samples[start..<start + gong.count]) == gong)
        // The gong rings out past the end of the timeline.
        #expect(samples.count == start + gong.count)
    }

    @Test func aCueBetweenSamplesLandsOnTheNearestOne() throws {
        let format = try AudioFormat(sampleRate: 8_000)
        #expect(format.frames(at: .milliseconds(1_000_062.5)) == 8_000_500)
        #expect(format.frames(at: .seconds(300)) == 2_400_000)
        #expect(format.frames(at: .nanoseconds(62_499)) == 0)
        #expect(format.frames(at: .nanoseconds(62_501)) == 1)
    }

    @Test(arguments: AmbientGenerator.allCases.filter { $0 != .silent })
    func everyBedFadesInAndOutWithoutDCAndStaysUnderTheCeiling(_ generator: AmbientGenerator) throws {
        let format = try AudioFormat(sampleRate: 16_000, channels: 2)
        var renderer = try TimelineRenderer(
            timeline: Self.timeline(
                seconds: 20, cues: [(0, .startGong), (5, .intervalGong), (6, .intervalGong), (20, .endGong)],
                ambient: AmbientChoice(id: generator.rawValue, volume: 1)),
            format: format)
        let samples = renderer.renderAll()
        let peak = samples.map { abs($0) }.max() ?? 1
        #expect(peak <= CueSynthesizer.peak)
        #expect(abs(SignalAnalysis.mean(samples[...])) < 0.002)
        // Left and right are two different beds; both start from silence.
        let left = samples.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let right = samples.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        #expect(left != right)
        #expect(abs(left[0]) < 1e-3 && abs(right[0]) < 1e-3)
        // 1.5 s fade out after the end at 20 s; the end gong rings on alone.
        let afterFade = 16_000 * 22
        let gong = Self.asMixed(.endGong, sampleRate: 16_000)
        #expect(left[afterFade..<afterFade + 1000].elementsEqual(gong[32_000..<33_000]))
    }

    @Test func theBedIsAsLoudAsItsVolumeSays() throws {
        let format = try AudioFormat(sampleRate: 16_000)
        var renderer = try TimelineRenderer(
            timeline: Self.timeline(seconds: 12, cues: [], ambient: AmbientChoice(id: "rain", volume: 0.5)),
            format: format)
        let samples = renderer.renderAll()
        let middle = SignalAnalysis.rms(samples[16_000 * 3..<16_000 * 9])
        #expect(abs(middle - 0.5 * Double(AmbientBed.level)) < 0.02)
        #expect(SignalAnalysis.rms(samples[0..<800]) < middle / 10)
        #expect(samples.count == 16_000 * 12 + 24_000)
    }

    @Test func openEndedTimelinesAndUnknownAmbientsAreRefused() throws {
        let open = try Timeline(
            practice: .meditation, segments: [Segment(kind: .meditation, start: .zero, duration: nil)])
        let format = try AudioFormat()
        #expect(throws: RenderError.openEnded) { try TimelineRenderer(timeline: open, format: format) }
        let unknown = try Self.timeline(seconds: 1, cues: [], ambient: AmbientChoice(id: "jungle", volume: 0.2))
        #expect(throws: RenderError.unknownAmbient("jungle")) {
            try TimelineRenderer(timeline: unknown, format: format)
        }
    }

    @Test(arguments: [1000, 7_999, 48_001, 999_999])
    func ratesOutsideEightTo48KilohertzAreRefused(_ rate: Int) {
        #expect(throws: AudioFormatError.unsupportedSampleRate(rate)) { try AudioFormat(sampleRate: rate) }
    }

    @Test func theLimiterHoldsOverlappingCuesUnderMinusOneDecibel() throws {
        let format = try AudioFormat(sampleRate: 8_000)
        var renderer = try TimelineRenderer(
            timeline: Self.timeline(seconds: 2, cues: [(0, .startGong), (0, .endGong), (0, .startGong)]),
            format: format)
        let samples = renderer.renderAll()
        #expect((samples.map { abs($0) }.max() ?? 0) <= CueSynthesizer.peak)
        #expect((samples.map { abs($0) }.max() ?? 0) > CueSynthesizer.peak * 0.95)
    }
}

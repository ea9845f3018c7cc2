import Foundation
import MomentumCore
import Testing

@testable import MomentumAudio

@Suite("Ambient loop: a stretch of bed whose end flows into its start")
struct AmbientLoopTests {
    static let format = (try? AudioFormat(sampleRate: 11_025, channels: 2)) ?? .liveAmbient

    /// The bed itself, as it would have run on: `frames` per channel, from the loop's seed.
    private func bed(_ generator: AmbientGenerator, frames: Int) -> [[Float]] {
        AmbientBed.perChannel(generator, format: Self.format, seed: 1).map { bed in
            var bed = bed
            var samples = [Float](repeating: 0, count: frames)
            samples.withUnsafeMutableBufferPointer { bed.fill($0) }
            return samples
        }
    }

    @Test(arguments: [AmbientGenerator.rain, .ocean, .stream, .brown])
    func theLoopIsTheBedAndItsSeamIsTheBedRunningOn(generator: AmbientGenerator) {
        var loop = AmbientLoop(generator: generator, format: Self.format)
        let rendered = loop.renderAll(blockFrames: 1000)
        let length = Self.format.frames(at: AmbientLoop.length)
        let blend = Self.format.frames(at: AmbientLoop.crossfade)
        #expect(rendered.count == length * 2)
        let raw = bed(generator, frames: length + blend)
        for channel in 0..<2 {
            let out = stride(from: channel, to: rendered.count, by: 2).map { rendered[$0] }
            // Before the blend the loop is the bed, from just after its first `blend` frames.
            #expect(out[0] == raw[channel][blend])
            #expect(out[length - blend - 1] == raw[channel][length - 1])
            // The blend starts where the bed runs on and ends on the sample before the loop's
            // start, so playing it again continues the bed without a jump.
            #expect(abs(out[length - blend] - raw[channel][length]) < 1e-6)
            #expect(abs(out[length - 1] - raw[channel][blend - 1]) < 0.01)
        }
    }

    @Test func theBlendKeepsTheLoudness() {
        var loop = AmbientLoop(generator: .rain, format: Self.format)
        let rendered = loop.renderAll()
        let length = Self.format.frames(at: AmbientLoop.length)
        let blend = Self.format.frames(at: AmbientLoop.crossfade)
        let steady = SignalAnalysis.rms(rendered[0..<(length - blend) * 2])
        let blended = SignalAnalysis.rms(rendered[(length - blend) * 2..<length * 2])
        #expect(abs(SignalAnalysis.decibels(blended / steady)) < 1.0, "\(steady) vs \(blended)")
        #expect(abs(steady - Double(AmbientBed.level)) < 0.05)
    }
}

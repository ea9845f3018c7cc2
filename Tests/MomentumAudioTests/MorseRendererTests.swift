import Foundation
import MomentumCore
import Testing

@testable import MomentumAudio

@Suite("Morse audio, measured from the samples")
struct MorseRendererTests {
    static func render(
        _ text: String, wpm: Double, fwpm: Double, rate: Int = 48_000, tone: MorseTone = .standard
    ) throws -> (samples: [Float], elements: [MorseElement]) {
        let elements = try MorseKeyer(timing: MorseTiming(characterWPM: wpm, effectiveWPM: fwpm)).elements(for: text)
        var renderer = MorseRenderer(elements: elements, tone: tone, format: try AudioFormat(sampleRate: rate))
        return (renderer.renderAll(), elements)
    }

    static let speeds: [(Double, Double)] = [(20, 20), (20, 10), (25, 13), (40, 40)]

    /// Every tone and every gap, measured at half loudness, is within 1 ms of the formulas —
    /// and so is where each one starts, however long the text.
    @Test(arguments: speeds)
    func ditsDahsAndGapsMeasureWithinOneMillisecondOfTheFormulas(wpm: Double, fwpm: Double) throws {
        for rate in [48_000, 44_100] {
            let (samples, elements) = try Self.render("PARIS <SK> 73 CQ ", wpm: wpm, fwpm: fwpm, rate: rate)
            let envelope = SignalAnalysis.envelope(samples, hertz: 600, sampleRate: rate, periods: 2)
            let spans = SignalAnalysis.spans(above: Double(MorseRenderer.level) / 2, in: envelope)
            let marks = elements.enumerated().filter(\.element.isKeyDown)
            try #require(spans.count == marks.count)
            func seconds(_ frames: Int) -> Double { Double(frames) / Double(rate) }
            var expectedStart = [Double]()
            var elapsed = Duration.zero
            for element in elements {
                if element.isKeyDown { expectedStart.append(elapsed.inSeconds) }
                elapsed += element.duration
            }
            // The half-loudness point of a raised-cosine rise lies half the rise after the key-down.
            let halfRise = MorseTone.standard.rise.inSeconds / 2
            for (index, span) in spans.enumerated() {
                let element = marks[index].element
                #expect(abs(seconds(span.end - span.start) - element.duration.inSeconds) < 0.001)
                #expect(abs(seconds(span.start) - halfRise - expectedStart[index]) < 0.001)
                if index + 1 < spans.count {
                    let gap = elements[marks[index].offset + 1]
                    #expect(abs(seconds(spans[index + 1].start - span.end) - gap.duration.inSeconds) < 0.001)
                }
            }
        }
    }

    @Test func parisAt20Over10LastsSixSecondsToTheSample() throws {
        let (samples, _) = try Self.render("PARIS ", wpm: 20, fwpm: 10)
        #expect(samples.count == 6 * 48_000)
        let (once, _) = try Self.render("PARIS PARIS PARIS ", wpm: 20, fwpm: 10)
        #expect(once.count == 18 * 48_000)
    }

    @Test func theGapsOfTheSpecCheckValuesAreWhatTheAudioSays() throws {
        let (samples, _) = try Self.render("E E", wpm: 20, fwpm: 10)
        let envelope = SignalAnalysis.envelope(samples, hertz: 600, sampleRate: 48_000)
        let spans = SignalAnalysis.spans(above: Double(MorseRenderer.level) / 2, in: envelope)
        try #require(spans.count == 2)
        // Word gap 1525.3 ms at 20/10.
        #expect(abs(Double(spans[1].start - spans[0].end) / 48 - 1525.3) < 1)
    }

    /// Inside a tone the sample is level × envelope × sin(ωn); where the sine is large, dividing
    /// it out shows the envelope itself.
    @Test(arguments: [1, 5, 12, 20])
    func elementEdgesFollowTheChosenRiseTime(milliseconds: Int) throws {
        let tone = try MorseTone(hertz: 700, rise: .milliseconds(milliseconds))
        let (samples, _) = try Self.render("T", wpm: 10, fwpm: 10, tone: tone)
        let omega = 2 * Double.pi * 700 / 48_000
        let riseFrames = milliseconds * 48
        var checked = 0
        for frame in 0..<riseFrames + 48 where abs(sin(omega * Double(frame))) > 0.5 {
            let measured = Double(samples[frame]) / Double(MorseRenderer.level) / sin(omega * Double(frame))
            let t = min(1, Double(frame) / Double(riseFrames))
            #expect(abs(measured - (0.5 - 0.5 * cos(Double.pi * t))) < 0.001)
            checked += 1
        }
        #expect(checked > riseFrames / 2)
        // And the fall: it ends exactly one rise time after the key-up (a dah of 360 ms).
        let keyUp = 360 * 48
        #expect(samples.count == keyUp + riseFrames)
        #expect(abs(samples[keyUp + riseFrames - 1]) < 0.01)
    }

    @Test func aDitTrainHasNoKeyClicks() throws {
        // Twenty dits at 20 wpm: the energy more than 300 Hz from the tone is 40 dB below it.
        let (samples, _) = try Self.render(String(repeating: "5", count: 4), wpm: 20, fwpm: 20)
        let spectrum = SignalAnalysis.powerSpectrum(samples)
        let binHertz = 48_000.0 / Double(2 * (spectrum.count - 1))
        var (tone, elsewhere) = (0.0, 0.0)
        for (bin, power) in spectrum.enumerated() {
            if abs(Double(bin) * binHertz - 600) <= 300 { tone += power } else { elsewhere += power }
        }
        let ratio = 10 * log10(tone / elsewhere)
        #expect(ratio >= 40, "only \(ratio) dB")
    }

    @Test func aHardKeyedToneWouldFailTheClickTest() {
        // The measurement itself can fail: square keying splashes far more than 40 dB allows.
        let omega = 2 * Double.pi * 600 / 48_000
        let samples = (0..<48_000).map { n in (n / 2880) % 2 == 0 ? Float(sin(omega * Double(n))) : 0 }
        let spectrum = SignalAnalysis.powerSpectrum(samples)
        let binHertz = 48_000.0 / Double(2 * (spectrum.count - 1))
        var (tone, elsewhere) = (0.0, 0.0)
        for (bin, power) in spectrum.enumerated() {
            if abs(Double(bin) * binHertz - 600) <= 300 { tone += power } else { elsewhere += power }
        }
        #expect(10 * log10(tone / elsewhere) < 40)
    }

    @Test func theToneNeverPassesTheCeilingAndHasNoDC() throws {
        let (samples, _) = try Self.render("CQ CQ DE DL1ABC <KN>", wpm: 25, fwpm: 13)
        #expect((samples.map { abs($0) }.max() ?? 1) <= CueSynthesizer.peak)
        #expect(abs(SignalAnalysis.mean(samples[...])) < 0.001)
    }

    @Test(arguments: [(50.0, 5), (399.9, 5), (1000.1, 5), (600, 0), (600, 21)])
    func toneAndRiseOutsideTheirRangesAreRefused(hertz: Double, milliseconds: Int) {
        #expect(throws: MorseToneError.self) { try MorseTone(hertz: hertz, rise: .milliseconds(milliseconds)) }
    }
}

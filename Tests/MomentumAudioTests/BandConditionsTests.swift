import Foundation
import Testing

@testable import MomentumAudio
@testable import MomentumCore

/// Band conditions measured in the rendered samples: the S/N in 500 Hz around the tone, the fading's
/// depth and period, and the other station at its offset and level.
@Suite("Band conditions: noise at an S/N, fading and another station, measured in the sound")
struct BandConditionsTests {
    static let format = AudioFormat.morseTests
    static let timing = MorseTiming.tenWordsPerMinute

    /// `count` Ts, each followed by a word gap: 360 ms of key-down, 840 ms of silence, at 10 wpm.
    static func keying(_ count: Int) throws -> [MorseElement] {
        try MorseKeyer(timing: timing).elements(for: Array(repeating: "T", count: count).joined(separator: " "))
    }

    /// Frames where the key is down and where it is up, each span shrunk by `margin` at both ends.
    static func spans(_ elements: [MorseElement], margin: Duration) -> (down: [Range<Int>], up: [Range<Int>]) {
        var down: [Range<Int>] = []
        var up: [Range<Int>] = []
        var elapsed = Duration.zero
        for element in elements {
            let start = format.frames(at: elapsed + margin)
            elapsed += element.duration
            let end = format.frames(at: elapsed - margin)
            guard end > start else { continue }
            if element.isKeyDown { down.append(start..<end) } else { up.append(start..<end) }
        }
        return (down, up)
    }

    /// The power in `hertz` ± 250 Hz of 4,096-frame Hann-windowed pieces of each span, averaged.
    static func bandPower(_ samples: [Float], spans: [Range<Int>], hertz: Double) -> Double {
        bandPower(samples, spans: spans, from: hertz - 250, to: hertz + 250)
    }

    /// The power between `from` and `to` Hz of 4,096-frame Hann-windowed pieces of each span,
    /// averaged.
    static func bandPower(_ samples: [Float], spans: [Range<Int>], from: Double, to: Double) -> Double {
        let size = 4096
        let window = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        var total = 0.0
        var pieces = 0
        for span in spans {
            var start = span.lowerBound
            while start + size <= span.upperBound {
                let piece = (0..<size).map { samples[start + $0] * window[$0] }
                let spectrum = SignalAnalysis.powerSpectrum(piece)
                let binWidth = Double(format.sampleRate) / Double(size)
                let low = Int((from / binWidth).rounded(.up))
                let high = Int((to / binWidth).rounded(.down))
                total += spectrum[low...high].reduce(0, +)
                pieces += 1
                start += size
            }
        }
        return total / Double(max(1, pieces))
    }

    @Test(arguments: [
        (0.0, MorseBandConditions.Noise.white, 600.0), (6, .white, 600), (15, .white, 600), (0, .pink, 600),
        (6, .pink, 900), (15, .pink, 450),
    ])
    func theSignalToNoiseRatioOfARenderIsWithinOneDecibelOfTheSetting(
        _ snr: Double, noise: MorseBandConditions.Noise, hertz: Double
    ) throws {
        let elements = try Self.keying(40)
        var renderer = try BandConditionsRenderer(
            elements: elements, timing: Self.timing, tone: try MorseTone(hertz: hertz, rise: .milliseconds(5)),
            conditions: try MorseBandConditions(signalToNoise: snr, noise: noise), format: Self.format, seed: 7)
        let samples = renderer.renderAll()
        let (down, up) = Self.spans(elements, margin: .milliseconds(20))
        let keyDown = Self.bandPower(samples, spans: down, hertz: hertz)
        let noisePower = Self.bandPower(samples, spans: up, hertz: hertz)
        let measured = 10 * log10((keyDown - noisePower) / noisePower)
        #expect(abs(measured - snr) <= 1, "measured \(measured) dB for \(snr) dB of \(noise) noise at \(hertz) Hz")
        // Headroom: nothing passes the ceiling.
        #expect(samples.allSatisfy { abs($0) <= CueSynthesizer.peak })
    }

    /// Pink noise falls 3 dB an octave against white through the same receiver: the octave
    /// 1,000–2,000 Hz over 500–1,000 Hz, pink, is 3 dB below that of white (the passband's own
    /// slopes are the same in both and cancel).
    @Test func pinkNoiseFallsThreeDecibelsAnOctaveAgainstWhite() throws {
        let elements = try Self.keying(40)
        let (_, up) = Self.spans(elements, margin: .milliseconds(20))
        func octaves(_ noise: MorseBandConditions.Noise) throws -> Double {
            var renderer = try BandConditionsRenderer(
                elements: elements, timing: Self.timing, tone: .standard,
                conditions: try MorseBandConditions(signalToNoise: 0, noise: noise), format: Self.format, seed: 3)
            let samples = renderer.renderAll()
            let upper = Self.bandPower(samples, spans: up, from: 1000, to: 2000)
            let lower = Self.bandPower(samples, spans: up, from: 500, to: 1000)
            return 10 * log10(upper / lower)
        }
        let white = try octaves(.white)
        let pink = try octaves(.pink)
        #expect(abs((white - pink) - 3.01) <= 0.5, "white \(white) dB, pink \(pink) dB an octave")
        // The filter itself, across the passband at the rates Momentum renders at.
        for rate in [22_050.0, 44_100, 48_000] {
            for hertz in [300.0, 500, 2000, 2700] {
                let ratio =
                    BandNoise.PinkFilter.responseSquared(at: hertz, sampleRate: rate)
                    / BandNoise.PinkFilter.responseSquared(at: 1000, sampleRate: rate)
                let ideal = -10 * log10(hertz / 1000)
                #expect(abs(10 * log10(ratio) - ideal) < 0.15, "\(hertz) Hz at \(rate) Hz")
            }
        }
    }

    @Test func theSameSeedMakesTheSameHissAndAnotherSeedAnother() throws {
        let elements = try Self.keying(2)
        let conditions = try MorseBandConditions(signalToNoise: 3)
        func render(_ seed: UInt64) throws -> [Float] {
            var renderer = try BandConditionsRenderer(
                elements: elements, timing: Self.timing, tone: .standard, conditions: conditions, format: Self.format,
                seed: seed)
            return renderer.renderAll(blockFrames: 1000)
        }
        #expect(try render(1) == render(1))
        #expect(try render(1) != render(2))
    }

    @Test func fadingFollowsItsDepthAndPeriod() throws {
        let elements = try Self.keying(14)  // 16.8 s
        let fading = try MorseBandConditions.Fading(depth: 12, period: .seconds(4))
        func render(_ conditions: MorseBandConditions) throws -> [Float] {
            var renderer = try BandConditionsRenderer(
                elements: elements, timing: Self.timing, tone: .standard, conditions: conditions, format: Self.format,
                seed: 1)
            return renderer.renderAll()
        }
        // Without noise or another station both renders have the same scale: the ratio is the fade.
        let faded = try render(try MorseBandConditions(fading: fading))
        let steady = try render(try MorseBandConditions(signalToNoise: nil))
        let (down, _) = Self.spans(elements, margin: .milliseconds(150))
        var gains: [Double] = []
        for span in down {
            let gain = SignalAnalysis.decibels(
                SignalAnalysis.rms(faded[span]) / SignalAnalysis.rms(steady[span]))
            let middle = Double(span.lowerBound + span.upperBound) / 2 / Double(Self.format.sampleRate)
            let expected = -12 * (1 - cos(2 * Double.pi * middle / 4)) / 2
            #expect(abs(gain - expected) < 0.3, "at \(middle) s: \(gain) dB, expected \(expected) dB")
            gains.append(gain)
        }
        // Over 16.8 s the dahs come near both the top and the bottom of a fade.
        #expect(try #require(gains.max()) > -0.6)
        #expect(try #require(gains.min()) < -11)
    }

    @Test func theOtherStationKeysItsOwnTextAtItsOffsetAndLevel() throws {
        let elements = try Self.keying(4)
        let interference = try MorseBandConditions.Interference(
            text: try MorseText("TTTT"), offsetHertz: 300, level: -6)
        var renderer = try BandConditionsRenderer(
            elements: elements, timing: Self.timing, tone: .standard,
            conditions: try MorseBandConditions(interference: interference), format: Self.format, seed: 1)
        let samples = renderer.renderAll()
        // In the first dah both stations sound (both start at once): the other at 900 Hz, 6 dB down.
        let middle = Self.format.frames(at: .milliseconds(180))
        let wanted = SignalAnalysis.envelope(samples, hertz: 600, sampleRate: Self.format.sampleRate, periods: 60)
        let other = SignalAnalysis.envelope(samples, hertz: 900, sampleRate: Self.format.sampleRate, periods: 90)
        let level = SignalAnalysis.decibels(other[middle] / wanted[middle])
        #expect(abs(level - -6) < 1, "\(level) dB")
        let strongestAbove = SignalAnalysis.strongestFrequency(
            samples[0..<Self.format.frames(at: .milliseconds(360))], in: 700...1200, step: 5,
            sampleRate: Self.format.sampleRate)
        #expect(abs(strongestAbove - 900) <= 5)
        // Its own text: TTTT (letter gaps) sounds again while the wanted T is in its word gap.
        let otherOnly = Self.format.frames(at: .milliseconds(900))
        #expect(wanted[otherOnly] < 0.01)
        #expect(other[otherOnly] > 0.05)
    }

    @Test func anotherStationOutsideTheReceiversPassbandIsRefused() throws {
        let interference = try MorseBandConditions.Interference(text: try MorseText("T"), offsetHertz: -500)
        #expect(throws: MorseBandConditionsError.interferenceOutsidePassband(100)) {
            try BandConditionsRenderer(
                elements: try Self.keying(1), timing: Self.timing, tone: .standard,
                conditions: try MorseBandConditions(interference: interference), format: Self.format, seed: 1)
        }
    }
}

extension AudioFormat {
    /// 48 kHz mono: 4,096 frames are 85 ms.
    fileprivate static var morseTests: AudioFormat {
        do {
            return try AudioFormat(sampleRate: 48_000)
        } catch {
            preconditionFailure("48 kHz is a sample rate: \(error)")
        }
    }
}

extension MorseTiming {
    fileprivate static var tenWordsPerMinute: MorseTiming {
        do {
            return try MorseTiming(characterWPM: 10, effectiveWPM: 10)
        } catch {
            preconditionFailure("10 wpm is a speed: \(error)")
        }
    }
}

@Suite("A chirp and a human fist, measured in the sound")
struct ChirpAndFistTests {
    /// The phase of the `hertz` component of `samples[range]` against a sine started at frame 0.
    static func phase(_ samples: [Float], _ range: Range<Int>, hertz: Double, rate: Int) -> Double {
        let omega = 2 * Double.pi * hertz / Double(rate)
        var (i, q) = (0.0, 0.0)
        for frame in range {
            i += Double(samples[frame]) * sin(omega * Double(frame))
            q += Double(samples[frame]) * cos(omega * Double(frame))
        }
        return atan2(q, i)
    }

    @Test func aChirpStartsHighAndSettlesOnTheTone() throws {
        let format = AudioFormat.morseTests
        let timing = MorseTiming.tenWordsPerMinute
        let elements = try MorseKeyer(timing: timing).elements(for: "T")
        let clean = try MorseBandConditions(chirp: nil, fist: .steady)
        let chirped = try MorseBandConditions(chirp: 100)
        var plain = MorseRenderer(elements: elements, tone: .standard, format: format)
        var chirping = try BandConditionsRenderer(
            elements: elements, timing: timing, tone: .standard, conditions: chirped, format: format, seed: 1)
        let reference = plain.renderAll()
        let samples = chirping.renderAll()
        #expect(clean.hasCleanSender)
        // Once settled (after 100 ms of the 360 ms dah) the note is the tone's, its phase ahead by
        // the chirp's integral: 2π · 100 Hz · 8 ms · (1 − e^(−t/τ)) ≈ 5.03 rad.
        let late = format.frames(at: .milliseconds(150))..<format.frames(at: .milliseconds(330))
        let ahead =
            Self.phase(samples, late, hertz: 600, rate: format.sampleRate)
            - Self.phase(reference, late, hertz: 600, rate: format.sampleRate)
        let expected = 2 * Double.pi * 100 * 0.008
        let wrapped = remainder(ahead - expected, 2 * Double.pi)
        #expect(abs(wrapped) < 0.05, "phase ahead by \(ahead), expected \(expected)")
        #expect(
            abs(SignalAnalysis.strongestFrequency(samples[late], in: 550...650, sampleRate: format.sampleRate) - 600)
                <= 2)
        // At the start it is well above the tone: the first 4 ms carry less of 600 Hz than the
        // clean note's first 4 ms.
        let early = format.frames(at: .milliseconds(5))..<format.frames(at: .milliseconds(15))
        let startShare =
            SignalAnalysis.power(samples[early], hertz: 690, sampleRate: format.sampleRate)
            / SignalAnalysis.power(reference[early], hertz: 690, sampleRate: format.sampleRate)
        #expect(startShare > 1.5, "\(startShare)")
    }

    @Test func aHeavyFistIsRenderedAsKeyed() throws {
        let format = AudioFormat.morseTests
        let timing = MorseTiming.tenWordsPerMinute
        let elements = try MorseKeyer(timing: timing).elements(for: "TEST")
        let heavy = try MorseBandConditions(fist: MorseFist(jitter: 0, dahWeight: 4, markWeight: 0))
        var renderer = try BandConditionsRenderer(
            elements: elements, timing: timing, tone: .standard, conditions: heavy, format: format, seed: 1)
        let samples = renderer.renderAll()
        let envelope = SignalAnalysis.envelope(samples, hertz: 600, sampleRate: format.sampleRate)
        let marks = SignalAnalysis.spans(above: 0.5 * Double(envelope.max() ?? 0), in: envelope)
        let lengths = marks.map { Double($0.end - $0.start) / Double(format.sampleRate) }
        // T E S T: a 4-dit dah, a dit, three dits, a 4-dit dah (120 ms dits at 10 wpm).
        #expect(lengths.count == 6)
        guard lengths.count == 6 else { return }
        #expect(abs(lengths[0] - 0.48) < 0.01 && abs(lengths[5] - 0.48) < 0.01, "\(lengths)")
        #expect(abs(lengths[1] - 0.12) < 0.01, "\(lengths)")
    }
}

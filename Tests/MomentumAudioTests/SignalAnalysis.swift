import Foundation

/// Measurements of rendered samples: our own analysis, so the tests check the sound itself.
enum SignalAnalysis {
    static func rms(_ samples: ArraySlice<Float>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    static func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }

    static func mean(_ samples: ArraySlice<Float>) -> Double {
        samples.reduce(0.0) { $0 + Double($1) } / Double(max(1, samples.count))
    }

    /// The power of `samples` at `hertz` (Goertzel).
    static func power(_ samples: ArraySlice<Float>, hertz: Double, sampleRate: Int) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * hertz / Double(sampleRate))
        var (previous, beforePrevious) = (0.0, 0.0)
        for sample in samples {
            let current = Double(sample) + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
    }

    /// The strongest frequency of `samples` between `range`, scanned in `step` Hz.
    static func strongestFrequency(
        _ samples: ArraySlice<Float>, in range: ClosedRange<Double>, step: Double = 1, sampleRate: Int
    ) -> Double {
        stride(from: range.lowerBound, through: range.upperBound, by: step)
            .max {
                power(samples, hertz: $0, sampleRate: sampleRate) < power(samples, hertz: $1, sampleRate: sampleRate)
            }
            ?? range.lowerBound
    }

    /// The amplitude envelope of a tone at `hertz`: quadrature demodulation averaged over a
    /// window of whole periods, centred on each sample.
    static func envelope(_ samples: [Float], hertz: Double, sampleRate: Int, periods: Int = 1) -> [Double] {
        let omega = 2 * Double.pi * hertz / Double(sampleRate)
        var inPhase = [Double](repeating: 0, count: samples.count + 1)
        var quadrature = [Double](repeating: 0, count: samples.count + 1)
        for (index, sample) in samples.enumerated() {
            inPhase[index + 1] = inPhase[index] + Double(sample) * cos(omega * Double(index))
            quadrature[index + 1] = quadrature[index] + Double(sample) * sin(omega * Double(index))
        }
        let window = Int((Double(periods * sampleRate) / hertz).rounded())
        let half = window / 2
        return samples.indices.map { index in
            let low = max(0, index - half)
            let high = min(samples.count, low + window)
            let count = Double(high - low)
            let i = (inPhase[high] - inPhase[low]) / count
            let q = (quadrature[high] - quadrature[low]) / count
            return 2 * (i * i + q * q).squareRoot()
        }
    }

    /// Spans where `envelope` is at or above `threshold`, as (first index, index after the last).
    static func spans(above threshold: Double, in envelope: [Double]) -> [(start: Int, end: Int)] {
        var spans: [(start: Int, end: Int)] = []
        var start: Int?
        for (index, value) in envelope.enumerated() {
            if value >= threshold, start == nil { start = index }
            if value < threshold, let begun = start {
                spans.append((begun, index))
                start = nil
            }
        }
        if let start { spans.append((start, envelope.count)) }
        return spans
    }

    /// Magnitude spectrum squared (power per bin) by a radix-2 FFT; `samples` padded with zeros.
    static func powerSpectrum(_ samples: [Float]) -> [Double] {
        var size = 1
        while size < samples.count { size <<= 1 }
        var real = samples.map(Double.init) + [Double](repeating: 0, count: size - samples.count)
        var imaginary = [Double](repeating: 0, count: size)
        var j = 0
        for i in 1..<size {
            var bit = size >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                real.swapAt(i, j)
                imaginary.swapAt(i, j)
            }
        }
        var length = 2
        while length <= size {
            let angle = -2 * Double.pi / Double(length)
            for start in stride(from: 0, to: size, by: length) {
                for k in 0..<length / 2 {
                    let (wr, wi) = (cos(angle * Double(k)), sin(angle * Double(k)))
                    let (a, b) = (start + k, start + k + length / 2)
                    let tr = real[b] * wr - imaginary[b] * wi
                    let ti = real[b] * wi + imaginary[b] * wr
                    real[b] = real[a] - tr
                    imaginary[b] = imaginary[a] - ti
                    real[a] += tr
                    imaginary[a] += ti
                }
            }
            length <<= 1
        }
        return (0...size / 2).map { real[$0] * real[$0] + imaginary[$0] * imaginary[$0] }
    }
}

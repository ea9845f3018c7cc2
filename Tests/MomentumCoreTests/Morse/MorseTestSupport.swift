import MomentumCore

extension MorseKeyer {
    /// The elements of `text` at `wpm` with every element stretched or shrunk by up to ±`jitter`:
    /// a human hand, for the decoder's and the keying report's tests.
    static func jittered(
        _ text: String, wpm: Double, jitter: Double, using random: inout SeededRandomNumberGenerator
    ) throws -> [MorseElement] {
        let keyer = MorseKeyer(timing: try MorseTiming(characterWPM: wpm, effectiveWPM: wpm))
        return try keyer.elements(for: text).map { element in
            let factor = Double.random(in: (1 - jitter)...(1 + jitter), using: &random)
            return MorseElement(kind: element.kind, duration: element.duration * factor)
        }
    }
}

extension Duration {
    /// The duration in milliseconds as a floating-point number, for comparing with tables.
    var inMilliseconds: Double { inSeconds * 1000 }

    /// Whether `self` and `other` differ by at most `tolerance`: durations built from `Double`
    /// seconds are only exact to about a nanosecond.
    func isWithin(_ tolerance: Duration, of other: Duration) -> Bool {
        self - other <= tolerance && other - self <= tolerance
    }
}

/// One stretch of a straight key: held down or left up for a duration.
public enum MorseKeySignal: Sendable, Hashable {
    /// The key was held down (the tone sounded) this long.
    case pressed(Duration)
    /// The key was up (silence) this long.
    case released(Duration)

    /// The signal of a keyed element: a dit or dah is a press, a gap a release.
    public init(_ element: MorseElement) {
        self = element.isKeyDown ? .pressed(element.duration) : .released(element.duration)
    }

    public var duration: Duration {
        switch self {
        case .pressed(let duration), .released(let duration): duration
        }
    }

    var isPressed: Bool {
        if case .pressed = self { true } else { false }
    }
}

/// Text read from keying: symbols, patterns that are no symbol, and word gaps.
public struct MorseDecodedText: Sendable, Hashable {
    public enum Part: Sendable, Hashable {
        case symbol(MorseSymbol)
        /// Dits and dahs that make no symbol of the code table.
        case unknown([MorseMark])
        case wordGap
    }

    public let parts: [Part]

    /// The text as shown: symbols by their display text (`<SK>`), an unknown pattern as `*`, and
    /// one space for each word gap.
    public var text: String {
        parts.map { part in
            switch part {
            case .symbol(let symbol): symbol.displayText
            case .unknown: "*"
            case .wordGap: " "
            }
        }.joined()
    }
}

/// Keying as the decoder read it: the text, and how each stretch was taken.
public struct MorseReading: Sendable, Hashable {
    public struct Stretch: Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            case dit, dah, elementGap, characterGap, wordGap

            public var isPress: Bool { self == .dit || self == .dah }
        }
        public let kind: Kind
        public let seconds: Double
    }

    public let text: MorseDecodedText
    /// The presses and gaps from the first press to the last (neighbours of one kind joined).
    public let stretches: [Stretch]
}

/// Reads straight-key keying (press and gap durations) as text, adapting to the sender's speed.
///
/// A press shorter than 1.8 units is a dit, a longer one a dah; a gap shorter than 1.8 units
/// separates elements, one up to 4.6 units separates characters, a longer one words. These
/// thresholds sit near the geometric means of 1 and 3 and of 3 and 7 units, so an uneven hand
/// (±20 % on every element) still reads right.
///
/// The unit starts from the expected speed, or, on the first keying that holds clearly short and
/// clearly long presses, from those presses. After that every dit, dah (a third of it) and element
/// gap moves the estimate a fifth of the way towards itself, so the decoder follows a sender who
/// speeds up or slows down during a session. Letter and word gaps do not move it: Farnsworth
/// spacing and hesitation between characters stretch them without changing the unit.
///
/// ```swift
/// var decoder = try MorseTimingDecoder(expectedWPM: 20)
/// let keying = try MorseKeyer(timing: .init(characterWPM: 25, effectiveWPM: 25)).keying("CQ DE K1ABC")
/// try decoder.decode(keying.elements.map(MorseKeySignal.init)).text  // "CQ DE K1ABC"
/// ```
public struct MorseTimingDecoder: Sendable, Hashable {
    /// The speeds the decoder reads: 5–60 wpm.
    public static let speedBounds: ClosedRange<Double> = 5...60
    /// How far past ``speedBounds`` a measurement may lie before it is refused (25 %), so the jitter
    /// of a hand keying right at a bound does not trip it.
    public static let speedAllowance = 0.25

    static let markThreshold = 1.8
    static let wordGapThreshold = 4.6
    static let adaptationWeight = 0.2

    /// The current estimate of one unit, in seconds.
    private var unitSeconds: Double
    /// Whether the unit has been measured from the keying rather than assumed.
    private var isCalibrated = false

    /// A decoder that assumes keying at `expectedWPM` until it has measured the sender.
    ///
    /// - Throws: ``MorseDecodingError/expectedSpeedOutOfRange(_:)`` outside ``speedBounds``.
    public init(expectedWPM: Double = 20) throws(MorseDecodingError) {
        guard Self.speedBounds.contains(expectedWPM) else { throw .expectedSpeedOutOfRange(expectedWPM) }
        unitSeconds = 1.2 / expectedWPM
    }

    /// The current estimate of the sender's unit (one dit).
    public var unit: Duration { .nanoseconds(Int64((unitSeconds * 1e9).rounded())) }

    /// The sender's speed as currently estimated, in wpm (1.2 s / unit).
    public var estimatedWPM: Double { 1.2 / unitSeconds }

    /// Reads `signals` (one character, a word or a whole text) and keeps what it learned about the
    /// sender's speed for the next call.
    ///
    /// Gaps before the first and after the last press are ignored, so the end of the signals ends
    /// a character. Two presses (or two gaps) in a row count as one, as a bouncing key would.
    /// Nothing changes when it throws.
    ///
    /// - Throws: ``MorseDecodingError/noKeyPress``, ``MorseDecodingError/nonPositiveDuration(position:)``,
    ///   ``MorseDecodingError/keyingTooFast(wpm:)`` or ``MorseDecodingError/keyingTooSlow(wpm:)``.
    public mutating func decode(_ signals: [MorseKeySignal]) throws(MorseDecodingError) -> MorseDecodedText {
        try read(signals).text
    }

    /// Reads `signals` as ``decode(_:)`` does, and says how each press and gap between the first
    /// and the last press was taken (``MorseReading``), for ``MorseKeyingReport``.
    public mutating func read(_ signals: [MorseKeySignal]) throws(MorseDecodingError) -> MorseReading {
        if let position = signals.firstIndex(where: { $0.duration <= .zero }) {
            throw .nonPositiveDuration(position: position)
        }
        let stretches = Self.merged(signals)
        guard stretches.contains(where: \.isPressed) else { throw .noKeyPress }
        var decoder = self
        if !decoder.isCalibrated { decoder.calibrate(presses: stretches.filter(\.isPressed).map(\.seconds)) }
        var parts: [MorseDecodedText.Part] = []
        var taken: [MorseReading.Stretch] = []
        var marks: [MorseMark] = []
        func endCharacter() {
            guard !marks.isEmpty else { return }
            parts.append(MorseCode.symbol(for: marks).map { .symbol($0) } ?? .unknown(marks))
            marks = []
        }
        for stretch in stretches {
            let units = stretch.seconds / decoder.unitSeconds
            if stretch.isPressed {
                try Self.checkPress(seconds: stretch.seconds)
                let mark: MorseMark = units < Self.markThreshold ? .dit : .dah
                marks.append(mark)
                taken.append(.init(kind: mark == .dit ? .dit : .dah, seconds: stretch.seconds))
                try decoder.adapt(toUnitSample: mark == .dit ? stretch.seconds : stretch.seconds / 3)
            } else if units < Self.markThreshold {
                taken.append(.init(kind: .elementGap, seconds: stretch.seconds))
                try decoder.adapt(toUnitSample: stretch.seconds)
            } else {
                endCharacter()
                let isWordGap = units >= Self.wordGapThreshold
                taken.append(.init(kind: isWordGap ? .wordGap : .characterGap, seconds: stretch.seconds))
                if isWordGap { parts.append(.wordGap) }
            }
        }
        endCharacter()
        self = decoder
        return MorseReading(text: MorseDecodedText(parts: parts), stretches: taken)
    }

    /// The stretches between the first and the last press, with neighbours of one kind joined.
    private static func merged(_ signals: [MorseKeySignal]) -> [(isPressed: Bool, seconds: Double)] {
        var stretches: [(isPressed: Bool, seconds: Double)] = []
        for signal in signals {
            let seconds = signal.duration.inSeconds
            if let last = stretches.last, last.isPressed == signal.isPressed {
                stretches[stretches.count - 1].seconds += seconds
            } else if signal.isPressed || !stretches.isEmpty {
                stretches.append((signal.isPressed, seconds))
            }
        }
        while let last = stretches.last, !last.isPressed { stretches.removeLast() }
        return stretches
    }

    /// Measures the unit from presses that are clearly of two kinds (the longest at least twice
    /// the shortest): those below the geometric mean of the extremes are dits, the rest dahs.
    private mutating func calibrate(presses: [Double]) {
        guard let shortest = presses.min(), let longest = presses.max(), longest >= 2 * shortest else { return }
        let threshold = (shortest * longest).squareRoot()
        let samples = presses.map { $0 < threshold ? $0 : $0 / 3 }
        unitSeconds = samples.reduce(0, +) / Double(samples.count)
        isCalibrated = true
    }

    private mutating func adapt(toUnitSample seconds: Double) throws(MorseDecodingError) {
        unitSeconds += (seconds - unitSeconds) * Self.adaptationWeight
        let wpm = estimatedWPM
        if wpm > Self.speedBounds.upperBound * (1 + Self.speedAllowance) { throw .keyingTooFast(wpm: wpm) }
        if wpm < Self.speedBounds.lowerBound * (1 - Self.speedAllowance) { throw .keyingTooSlow(wpm: wpm) }
    }

    /// A single press shorter than a dit at the top speed, or longer than a dah at the lowest, is
    /// refused whatever the estimate says (both with the allowance).
    private static func checkPress(seconds: Double) throws(MorseDecodingError) {
        let shortestDit = 1.2 / speedBounds.upperBound * (1 - speedAllowance)
        let longestDah = 3 * 1.2 / speedBounds.lowerBound * (1 + speedAllowance)
        if seconds < shortestDit { throw .keyingTooFast(wpm: 1.2 / seconds) }
        if seconds > longestDah { throw .keyingTooSlow(wpm: 3.6 / seconds) }
    }
}

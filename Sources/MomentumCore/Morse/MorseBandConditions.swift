/// What the band does to a signal, G4FON style: noise at a signal-to-noise ratio, fading (QSB) and
/// a second station nearby (QRM). The renderer (`MomentumAudio.BandConditionsRenderer`) makes the
/// sound; the rules and bounds are here.
///
/// - **S/N** is the tone's power while the key is down over the noise's power, both measured in a
///   500 Hz band centred on the tone (the width of a CW filter). The noise is white (a receiver's
///   own hiss) or pink (falling 3 dB an octave, the rumble of atmospheric noise), heard through a
///   300–2,700 Hz passband.
/// - **Fading** moves the wanted station's level smoothly between 0 dB and −depth, once per period:
///   gain(t) = −depth · (1 − cos 2πt/T) / 2 dB. The noise does not fade.
/// - **QRM** is another station keying its own text at an offset from the tone, at a level
///   relative to the wanted station and at its speed.
///
/// ```swift
/// let conditions = try MorseBandConditions(signalToNoise: 6, fading: .init(depth: 10, period: .seconds(8)))
/// MorseBandConditions.preset(.weakDX).signalToNoise  // 0
/// ```
public struct MorseBandConditions: Sendable, Hashable {
    public struct Fading: Sendable, Hashable {
        /// The dB the signal falls at the bottom of a fade, 1–40 dB.
        public let depth: Double
        /// From one fade to the next, 1–120 s.
        public let period: Duration

        public static let depthBounds: ClosedRange<Double> = 1...40
        public static let periodBounds: ClosedRange<Duration> = .seconds(1) ... .seconds(120)

        public init(depth: Double, period: Duration) throws(MorseBandConditionsError) {
            guard Self.depthBounds.contains(depth) else { throw .fadingDepthOutOfRange(depth) }
            guard Self.periodBounds.contains(period) else { throw .fadingPeriodOutOfRange(period) }
            self.depth = depth
            self.period = period
        }
    }

    public struct Interference: Sendable, Hashable {
        /// What the other station sends (repeated until the wanted text ends).
        public let text: MorseText
        /// Its tone's distance from the wanted tone, 50–1,000 Hz either way.
        public let offsetHertz: Double
        /// Its level against the wanted station, −30 … +10 dB.
        public let level: Double

        public static let offsetBounds: ClosedRange<Double> = 50...1000
        public static let levelBounds: ClosedRange<Double> = -30...10

        public init(text: MorseText, offsetHertz: Double, level: Double = -6) throws(MorseBandConditionsError) {
            guard Self.offsetBounds.contains(abs(offsetHertz)) else { throw .interferenceOffsetOutOfRange(offsetHertz) }
            guard Self.levelBounds.contains(level) else { throw .interferenceLevelOutOfRange(level) }
            self.text = text
            self.offsetHertz = offsetHertz
            self.level = level
        }
    }

    /// What the noise sounds like: the same power in every hertz (white) or in every octave (pink).
    public enum Noise: String, Sendable, Hashable, CaseIterable, Codable {
        case white
        case pink

        /// A colour by its name (`pink`), for `--noise`.
        public init(named name: String) throws(MorseBandConditionsError) {
            guard let noise = Self(rawValue: name.lowercased()) else { throw .unknownNoise(name) }
            self = noise
        }
    }

    /// Conditions by name, for `--conditions` and the web.
    public enum Preset: String, Sendable, Hashable, CaseIterable, Codable {
        case clean
        case averageEvening = "average-evening"
        case contest
        case weakDX = "weak-dx"
    }

    /// The S/N in dB, −10 … 40; `nil` for no noise.
    public let signalToNoise: Double?
    /// The noise's colour (at `signalToNoise` in the tone's band either way).
    public let noise: Noise
    public let fading: Fading?
    public let interference: Interference?
    /// How far above its tone the sender's transmitter starts each element, settling within a
    /// few milliseconds (an old rig's chirp), 5–200 Hz; `nil` for a clean note.
    public let chirp: Double?
    /// How the sender keys.
    public private(set) var fist: MorseFist

    public static let chirpBounds: ClosedRange<Double> = 5...200
    /// How fast a chirp settles: its offset falls to 1/e in this time.
    public static let chirpSettling = Duration.milliseconds(8)

    public static let signalToNoiseBounds: ClosedRange<Double> = -10...40
    /// The band the S/N is measured in, centred on the tone.
    public static let measurementBandwidth = 500.0
    /// The receiver's passband the noise is heard through.
    public static let passband: ClosedRange<Double> = 300...2700

    public init(
        signalToNoise: Double? = nil, noise: Noise = .white, fading: Fading? = nil, interference: Interference? = nil,
        chirp: Double? = nil, fist: MorseFist = .steady
    ) throws(MorseBandConditionsError) {
        if let signalToNoise, !Self.signalToNoiseBounds.contains(signalToNoise) {
            throw .signalToNoiseOutOfRange(signalToNoise)
        }
        if let chirp, !Self.chirpBounds.contains(chirp) { throw .chirpOutOfRange(chirp) }
        self.signalToNoise = signalToNoise
        self.noise = noise
        self.fading = fading
        self.interference = interference
        self.chirp = chirp
        self.fist = fist
    }

    /// A quiet band: no noise, no fading, nobody else.
    public static let clean = MorseBandConditions(unchecked: nil, nil, nil)

    /// These conditions with a steady hand: for elements already keyed by this band's hand.
    public var withSteadyHand: MorseBandConditions {
        var steady = self
        steady.fist = .steady
        return steady
    }

    /// Whether nothing but the noise, fading and the other station is asked for: a sender keying
    /// like a machine on a clean note.
    public var hasCleanSender: Bool { chirp == nil && fist == .steady }

    /// The named conditions.
    public static func preset(_ preset: Preset) -> MorseBandConditions {
        switch preset {
        case .clean: clean
        // A busy evening: a clear signal over some noise, slow shallow fading, a human hand.
        case .averageEvening:
            MorseBandConditions(unchecked: 15, .init(unchecked: 6, .seconds(12)), nil, fist: .preset(.human))
        // A contest: a strong signal with a caller close by.
        case .contest:
            MorseBandConditions(
                unchecked: 20, nil,
                .init(unchecked: MorseText(unchecked: "TEST DL1ABC"), 250, -3))
        // A weak DX station: as loud as the noise, fading deep and fast, an old rig's chirp and a
        // heavy fist.
        case .weakDX:
            MorseBandConditions(
                unchecked: 0, .init(unchecked: 15, .seconds(6)), nil, chirp: 30, fist: .preset(.heavy))
        }
    }

    private init(
        unchecked signalToNoise: Double?, _ fading: Fading?, _ interference: Interference?, chirp: Double? = nil,
        fist: MorseFist = .steady
    ) {
        self.signalToNoise = signalToNoise
        noise = .white
        self.fading = fading
        self.interference = interference
        self.chirp = chirp
        self.fist = fist
    }
}

extension MorseBandConditions.Fading {
    fileprivate init(unchecked depth: Double, _ period: Duration) {
        self.depth = depth
        self.period = period
    }
}

extension MorseBandConditions.Interference {
    fileprivate init(unchecked text: MorseText, _ offsetHertz: Double, _ level: Double) {
        self.text = text
        self.offsetHertz = offsetHertz
        self.level = level
    }
}

extension MorseText {
    /// Text known to encode (the presets' own).
    fileprivate init(unchecked text: String) {
        do {
            try self.init(text)
        } catch {
            preconditionFailure("a preset's text does not encode: \(text)")
        }
    }
}

/// A band condition out of its bounds.
public enum MorseBandConditionsError: Error, Equatable, Sendable {
    case signalToNoiseOutOfRange(Double)
    case fadingDepthOutOfRange(Double)
    case fadingPeriodOutOfRange(Duration)
    case interferenceOffsetOutOfRange(Double)
    case interferenceLevelOutOfRange(Double)
    /// The other station's tone (the wanted tone plus the offset) outside the receiver's passband.
    case interferenceOutsidePassband(Double)
    /// `--qsb` not written DEPTH/PERIOD, `--qrm` not TEXT@OFFSET.
    case unreadable(String)
    case unknownPreset(String)
    case chirpOutOfRange(Double)
    /// A fist's jitter, dah weight or mark weight out of bounds.
    case fistOutOfRange
    /// `--fist` names no sender (steady, human, heavy).
    case unknownFist(String)
    /// `--noise` names no colour (white, pink).
    case unknownNoise(String)
    /// A colour of noise asked for with no noise to colour (no S/N).
    case noiseWithoutLevel
    /// The other station's text does not encode.
    case text(MorseError)
}

extension MorseBandConditions.Fading {
    /// `DEPTH_DB/PERIOD_S`, as `--qsb 10/8` writes it.
    public init(parsing text: String) throws(MorseBandConditionsError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let depth = Double(parts[0]), let seconds = Double(parts[1]), seconds.isFinite
        else { throw .unreadable(text) }
        guard depth.isFinite else { throw .fadingDepthOutOfRange(depth) }
        // Bounds first: a period of 1e300 s is no Duration.
        guard (1...120).contains(seconds) else { throw .fadingPeriodOutOfRange(.seconds(seconds.clamped(to: 0...1e6))) }
        try self.init(depth: depth, period: .milliseconds((seconds * 1000).rounded()))
    }
}

extension MorseBandConditions.Interference {
    /// `TEXT@OFFSET_HZ` with an optional `/LEVEL_DB`, as `--qrm "CQ TEST@+300"` or
    /// `--qrm "CQ TEST@-250/-3"` writes it.
    public init(parsing text: String) throws(MorseBandConditionsError) {
        guard let at = text.lastIndex(of: "@") else { throw .unreadable(text) }
        let words = String(text[..<at])
        let numbers = text[text.index(after: at)...].split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(numbers.count), let offset = Double(numbers[0]), offset.isFinite else {
            throw .unreadable(text)
        }
        let level: Double
        if numbers.count == 2 {
            guard let written = Double(numbers[1]), written.isFinite else { throw .unreadable(text) }
            level = written
        } else {
            level = -6
        }
        let sent: MorseText
        do {
            sent = try MorseText(words)
        } catch {
            throw .text(error)
        }
        try self.init(text: sent, offsetHertz: offset, level: level)
    }
}

extension MorseBandConditions.Preset {
    /// A preset by its name (`weak-dx`).
    public init(named name: String) throws(MorseBandConditionsError) {
        guard let preset = Self(rawValue: name.lowercased()) else { throw .unknownPreset(name) }
        self = preset
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}

extension MorseFist.Preset {
    /// A sender by its name (`heavy`).
    public init(named name: String) throws(MorseBandConditionsError) {
        guard let preset = Self(rawValue: name.lowercased()) else { throw .unknownFist(name) }
        self = preset
    }
}

/// How Morse sounds: the tone's pitch and how softly each element starts and stops.
///
/// Every element rises and falls along a raised cosine of ``rise``, so the audio has no key
/// clicks. The rise starts where the element starts and the fall where it ends, so the
/// half-loudness points sit exactly on the timing formulas.
///
/// ```swift
/// let tone = try MorseTone(hertz: 700, rise: .milliseconds(8))
/// ```
public struct MorseTone: Sendable, Equatable, Codable {
    public static let hertzBounds = 400.0...1000.0
    /// How far a form's arrows move the pitch; the tone itself plays any pitch within bounds.
    public static let hertzStep = 10.0
    public static let riseBounds = Duration.milliseconds(1)...Duration.milliseconds(20)
    public static let standard = MorseTone(unchecked: 600, rise: .milliseconds(5))

    public let hertz: Double
    public let rise: Duration

    public init(hertz: Double = 600, rise: Duration = .milliseconds(5)) throws(MorseToneError) {
        guard Self.hertzBounds.contains(hertz) else { throw .toneOutOfRange(hertz) }
        guard Self.riseBounds.contains(rise) else { throw .riseOutOfRange(rise) }
        self.hertz = hertz
        self.rise = rise
    }

    private init(unchecked hertz: Double, rise: Duration) {
        self.hertz = hertz
        self.rise = rise
    }

    private enum CodingKeys: String, CodingKey { case hertz, riseMs }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let rise = try Duration(
            checkingMilliseconds: container.decode(Double.self, forKey: .riseMs), field: CodingKeys.riseMs.stringValue)
        try self.init(hertz: container.decode(Double.self, forKey: .hertz), rise: rise)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hertz, forKey: .hertz)
        try container.encode(rise.inSeconds * 1000, forKey: .riseMs)
    }
}

/// Why a Morse tone cannot be used.
public enum MorseToneError: Error, Equatable, Sendable {
    /// Outside 400–1000 Hz.
    case toneOutOfRange(Double)
    /// Outside 1–20 ms.
    case riseOutOfRange(Duration)
}

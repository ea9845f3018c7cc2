/// How the course sounds and runs: speeds, tone, Koch order and session length.
///
/// Every value is checked by the type that uses it (``MorseTiming``, ``MorseTone``), so settings
/// that exist can always be played. Decoding checks the same bounds.
///
/// ```swift
/// let settings = try MorseCourseSettings(characterWPM: 25, effectiveWPM: 15)
/// settings.timing.letterGap  // Farnsworth-stretched
/// ```
public struct MorseCourseSettings: Sendable, Equatable {
    /// Character and effective speed (defaults 20 and 13 wpm).
    public let timing: MorseTiming
    /// Pitch (400–1000 Hz, default 600) and rise time (1–20 ms, default 5).
    public let tone: MorseTone
    public let order: KochOrder
    /// Training time of a session (1–60 min, default 5).
    public let sessionLength: Duration

    /// Settings with the defaults of SPEC §7 for every value not given.
    ///
    /// - Throws: ``MorseCourseSettingsError``, naming the first value out of bounds.
    public init(
        characterWPM: Double = 20, effectiveWPM: Double = 13, toneHertz: Double = 600,
        riseTime: Duration = .milliseconds(5), order: KochOrder = .standard,
        sessionLength: Duration = MorseSession.defaultLength
    ) throws(MorseCourseSettingsError) {
        do {
            timing = try MorseTiming(characterWPM: characterWPM, effectiveWPM: effectiveWPM)
        } catch {
            throw .timing(error)
        }
        do {
            tone = try MorseTone(hertz: toneHertz, rise: riseTime)
        } catch {
            throw .tone(error)
        }
        guard MorseSession.lengthBounds.contains(sessionLength) else { throw .sessionLengthOutOfRange(sessionLength) }
        self.order = order
        self.sessionLength = sessionLength
    }

    /// The keyer for these speeds.
    public var keyer: MorseKeyer { MorseKeyer(timing: timing) }
}

/// Why course settings cannot be used: the value out of bounds.
public enum MorseCourseSettingsError: Error, Equatable, Sendable {
    /// A speed out of bounds (see ``MorseTiming``).
    case timing(MorseError)
    /// The tone's pitch or rise time out of bounds.
    case tone(MorseToneError)
    /// Outside ``MorseSession/lengthBounds``.
    case sessionLengthOutOfRange(Duration)
}

extension MorseCourseSettings: Codable {
    private enum CodingKeys: String, CodingKey {
        case characterWPM, effectiveWPM, toneHertz, riseMilliseconds, order, sessionSeconds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let characterWPM = try container.decode(Double.self, forKey: .characterWPM)
        let effectiveWPM = try container.decode(Double.self, forKey: .effectiveWPM)
        let hertz = try container.decode(Double.self, forKey: .toneHertz)
        let rise = try container.decode(Double.self, forKey: .riseMilliseconds)
        let order = try container.decode(KochOrder.self, forKey: .order)
        let seconds = try container.decode(Int64.self, forKey: .sessionSeconds)
        do {
            // A number like 1e300 is refused here: `.milliseconds(_:)` of it would stop the process.
            let riseTime = try Duration(checkingMilliseconds: rise, field: CodingKeys.riseMilliseconds.stringValue)
            try self.init(
                characterWPM: characterWPM, effectiveWPM: effectiveWPM, toneHertz: hertz,
                riseTime: riseTime, order: order, sessionLength: .seconds(seconds))
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\(error)", underlyingError: error))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(timing.characterWPM, forKey: .characterWPM)
        try container.encode(timing.effectiveWPM, forKey: .effectiveWPM)
        try container.encode(tone.hertz, forKey: .toneHertz)
        try container.encode(tone.rise.inSeconds * 1000, forKey: .riseMilliseconds)
        try container.encode(order, forKey: .order)
        try container.encode(sessionLength.wholeSeconds, forKey: .sessionSeconds)
    }
}

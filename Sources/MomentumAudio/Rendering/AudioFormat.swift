/// How rendered audio is laid out: samples per second and channels (interleaved when stereo).
///
/// ```swift
/// let format = try AudioFormat(sampleRate: 44_100, channels: 2)
/// format.frames(at: .seconds(300))  // 13_230_000
/// ```
public struct AudioFormat: Sendable, Equatable {
    /// The rates Momentum writes: telephone quality up to studio quality.
    public static let sampleRates = 8_000...48_000

    public let sampleRate: Int
    public let channels: Int

    /// CD quality, stereo: how a live ambient bed is streamed to a player.
    public static let liveAmbient = AudioFormat(checkedRate: 44_100, channels: 2)

    /// 22.05 kHz mono: how a run's whole timeline is streamed to a browser (`/api/v1/runs/{id}/audio`).
    ///
    /// The highest partial of any cue is the hold tap's fifth (523.3 Hz × 12.5 ≈ 6.5 kHz; the
    /// meditation gongs' reach 2.2–3.3 kHz, the breathing bowls' 3.7–4.9 kHz, the workout chimes'
    /// 3.1 kHz) and the beds hold nothing above about 5 kHz: 22.05 kHz keeps everything below its 11 kHz limit, at half the bytes of CD quality
    /// (2.6 MB a minute). Every browser plays it. The cues are mono, and so is the stream.
    public static let runStream = AudioFormat(checkedRate: 22_050, channels: 1)

    private init(checkedRate: Int, channels: Int) {
        sampleRate = checkedRate
        self.channels = channels
    }

    public init(sampleRate: Int = 44_100, channels: Int = 1) throws(AudioFormatError) {
        guard Self.sampleRates.contains(sampleRate) else { throw .unsupportedSampleRate(sampleRate) }
        guard channels == 1 || channels == 2 else { throw .unsupportedChannelCount(channels) }
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// The frame at `offset` from the start, rounded to the nearest. Exact for whole seconds and
    /// for any offset that falls on a sample, so a cue planned at 300 s starts at frame 300 × rate.
    public func frames(at offset: Duration) -> Int {
        let (seconds, attoseconds) = offset.components
        let fraction = (Double(attoseconds) * Double(sampleRate) / 1e18).rounded()
        return Int(seconds) * sampleRate + Int(fraction)
    }
}

/// Why audio cannot be laid out as asked.
public enum AudioFormatError: Error, Equatable, Sendable {
    case unsupportedSampleRate(Int)
    case unsupportedChannelCount(Int)
}

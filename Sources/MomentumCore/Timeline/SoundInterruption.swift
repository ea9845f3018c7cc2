/// A moment the sound of a practice stopped while it played (the stream stalled): where in the
/// practice, and for how long the person heard nothing.
///
/// The browser measures them and reports them with the stop; the rule of which are worth telling
/// is here, once:
///
/// ```swift
/// let reported = try SoundInterruption.reported(milliseconds: [(751_000, 500), (751_000, 4000)])
/// let told = SoundInterruption.worthTelling(reported)  // one: 4.5 s at 12:31
/// ```
public struct SoundInterruption: Sendable, Equatable, Hashable {
    /// Where in the practice the sound stopped: the offset into its timeline.
    public let offset: Duration
    /// How long the sound stayed away.
    public let length: Duration

    /// An interruption at `offset` lasting `length`; both lie between zero and
    /// ``Timeline/longestRender``, the longest practice played as sound.
    public init(offset: Duration, length: Duration) throws(SoundInterruptionError) {
        guard offset >= .zero, offset <= Timeline.longestRender else { throw .offsetOutOfRange }
        guard length >= .zero, length <= Self.longestLength else { throw .lengthOutOfRange }
        self.offset = offset
        self.length = length
    }

    /// An interruption as the wire and the log carry it: whole milliseconds.
    public init(offsetMilliseconds: Int64, lengthMilliseconds: Int64) throws(SoundInterruptionError) {
        // Checked before any `Duration` is made of them: a hostile number must not overflow it.
        guard (0...Timeline.longestRender.wholeMilliseconds).contains(offsetMilliseconds) else {
            throw .offsetOutOfRange
        }
        guard (0...Self.longestLength.wholeMilliseconds).contains(lengthMilliseconds) else {
            throw .lengthOutOfRange
        }
        try self.init(offset: .milliseconds(offsetMilliseconds), length: .milliseconds(lengthMilliseconds))
    }

    /// The longest interruption taken: as long as the longest practice.
    public static let longestLength: Duration = Timeline.longestRender

    /// Only an interruption longer than this is worth telling: a shorter gap is barely heard.
    public static let shortestTold: Duration = .seconds(1)

    /// The most interruptions one stop may report; more is not a browser measuring a practice.
    public static let mostReported = 500

    /// The most interruptions kept and told for one practice: the first ones, in order.
    public static let mostKept = 20

    /// Whether the person should be told about this one (longer than ``shortestTold``).
    public var isWorthTelling: Bool { length > Self.shortestTold }

    /// The interruptions of `reported` worth telling, in order of offset and at most
    /// ``mostKept``.
    ///
    /// Interruptions within ``shortestTold`` of practice after a first one are one with it: the
    /// sound hardly moved on between them, so they are told once, at the first one's offset,
    /// lasting as long as they did together (three stalls of 600 ms in a row are one of 1.8 s).
    ///
    /// - Complexity: O(*n* log *n*) for *n* reported interruptions.
    public static func worthTelling(_ reported: [SoundInterruption]) -> [SoundInterruption] {
        var merged: [SoundInterruption] = []
        for next in reported.sorted(by: { ($0.offset, $0.length) < ($1.offset, $1.length) }) {
            if let last = merged.last, next.offset - last.offset < shortestTold {
                // Each length is at most ten hours: the sum cannot overflow, and is kept to the limit.
                merged[merged.count - 1] = SoundInterruption(
                    uncheckedOffset: last.offset, length: min(last.length + next.length, longestLength))
            } else {
                merged.append(next)
            }
        }
        return Array(merged.filter(\.isWorthTelling).prefix(mostKept))
    }

    /// Interruptions as a browser reports them, offset and length in whole milliseconds, each
    /// checked; at most ``mostReported``.
    public static func reported(milliseconds pairs: [(offset: Int64, length: Int64)]) throws(SoundInterruptionError)
        -> [SoundInterruption]
    {
        guard pairs.count <= mostReported else { throw .tooMany(count: pairs.count, maximum: mostReported) }
        var interruptions: [SoundInterruption] = []
        for (offset, length) in pairs {
            interruptions.append(try SoundInterruption(offsetMilliseconds: offset, lengthMilliseconds: length))
        }
        return interruptions
    }

    private init(uncheckedOffset offset: Duration, length: Duration) {
        self.offset = offset
        self.length = length
    }
}

/// Why reported sound interruptions are refused. Nothing is logged or stopped then.
public enum SoundInterruptionError: Error, Equatable, Sendable {
    /// An offset below zero or past ``Timeline/longestRender``.
    case offsetOutOfRange
    /// A length below zero or over ``SoundInterruption/longestLength``.
    case lengthOutOfRange
    /// More than ``SoundInterruption/mostReported`` at once.
    case tooMany(count: Int, maximum: Int)
}

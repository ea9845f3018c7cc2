/// One stretch of a timeline: a countdown, the meditation itself, an inhale, a work interval …
public struct Segment: Sendable, Equatable {
    /// What happens in this segment.
    public var kind: SegmentKind
    /// Offset of the segment's start from the start of the timeline.
    public var start: Duration
    /// How long it lasts; `nil` when it runs until the person stops (only the last segment).
    public var duration: Duration?

    public init(kind: SegmentKind, start: Duration, duration: Duration?) {
        self.kind = kind
        self.start = start
        self.duration = duration
    }

    /// Where the segment ends, or `nil` when it is open-ended.
    public var end: Duration? { duration.map { start + $0 } }
}

/// The kinds of segment every practice is built from.
public enum SegmentKind: String, Sendable, Codable, CaseIterable {
    case countdown
    case meditation
    case reflection
    case inhale
    case holdAfterInhale
    case exhale
    case holdAfterExhale
    case getReady
    case warmUp
    case work
    case rest
    case setRest
    case coolDown
    case focus
}

/// A sound and/or a text at an exact offset of a timeline.
public struct Cue: Sendable, Equatable {
    public var offset: Duration
    public var sound: CueSound?
    /// A catalog key for a spoken or shown text, with its arguments.
    public var text: LocalizedText?

    public init(offset: Duration, sound: CueSound?, text: LocalizedText? = nil) {
        self.offset = offset
        self.sound = sound
        self.text = text
    }
}

/// The sounds a cue can make. The audio module turns each into samples.
public enum CueSound: String, Sendable, Codable, CaseIterable {
    case startGong
    case intervalGong
    /// Three strikes marking the start of the reflection phase.
    case phaseGong
    case endGong
    /// Breathing: the start of an inhale, an exhale, and of either hold.
    case inhale
    case exhale
    case hold
}

/// A cue that sounds every `interval`, starting at `first`, while its timeline lasts.
///
/// Open-ended meditations use it for interval gongs that go on until the person stops.
public struct RepeatingCue: Sendable, Equatable {
    public var first: Duration
    public var interval: Duration
    /// Occurrences at or after this offset are dropped; `nil` means the timeline's end.
    public var until: Duration?
    public var sound: CueSound?

    public init(first: Duration, interval: Duration, until: Duration?, sound: CueSound?) {
        self.first = first
        self.interval = interval
        self.until = until
        self.sound = sound
    }

    /// The occurrences with offsets in `lower...upper`, none at or past `until` or `end`.
    func occurrences(from lower: Duration, through upper: Duration, endingBefore end: Duration?) -> [Cue] {
        let limits = [until, end].compactMap { $0 }
        let limit = limits.min()
        var index: Int64 = 0
        if lower > first {
            index = Int64((lower - first) / interval)
        }
        var found: [Cue] = []
        while true {
            let offset = first + interval * index
            if offset > upper { break }
            if let limit, offset >= limit { break }
            if offset >= lower { found.append(Cue(offset: offset, sound: sound)) }
            index += 1
        }
        return found
    }
}

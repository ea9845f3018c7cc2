/// One stretch of a timeline: a countdown, the meditation itself, an inhale, a work interval …
public struct Segment: Sendable, Equatable {
    /// What happens in this segment.
    public var kind: SegmentKind
    /// Offset of the segment's start from the start of the timeline.
    public var start: Duration
    /// How long it lasts; `nil` when it runs until the person stops (only the last segment).
    public var duration: Duration?
    /// Where in a workout the segment belongs (round, set, exercise); `nil` for other practices.
    public var detail: SegmentDetail?

    public init(kind: SegmentKind, start: Duration, duration: Duration?, detail: SegmentDetail? = nil) {
        self.kind = kind
        self.start = start
        self.duration = duration
        self.detail = detail
    }

    /// Where the segment ends, or `nil` when it is open-ended.
    public var end: Duration? { duration.map { start + $0 } }
}

/// Which round of which set a workout segment belongs to, and the exercise done in that round.
///
/// Rounds count from 1 within their set. A rest belongs to the round just finished, a rest
/// between sets to the last round of the set just finished.
public struct SegmentDetail: Sendable, Equatable, Hashable, Codable {
    public var round: Int
    public var rounds: Int
    public var set: Int
    public var sets: Int
    /// The exercise's name, when the plan names its rounds.
    public var exercise: String?

    public init(round: Int, rounds: Int, set: Int, sets: Int, exercise: String? = nil) {
        self.round = round
        self.rounds = rounds
        self.set = set
        self.sets = sets
        self.exercise = exercise
    }
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
    /// Workouts: before the first work interval.
    case leadIn
    /// Workouts: each of the last three seconds before a change into or out of work.
    case shortBeep
    /// Workouts: the change into or out of work itself.
    case longBeep
    /// Workouts: halfway through a work interval of 20 s or more.
    case halfway
    /// Workouts: the very end.
    case finish
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

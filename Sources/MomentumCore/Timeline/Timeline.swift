/// What a practice plan compiles to: segments one after another, and cues at exact offsets.
///
/// Every player — the terminal, the browser, the audio renderer — plays a timeline; no practice
/// rule is computed anywhere else.
///
/// ```swift
/// let timeline = try MeditationPlan(duration: .seconds(600)).timeline()
/// timeline.totalDuration  // 615 s: 15 s countdown + 10 min
/// ```
public struct Timeline: Sendable, Equatable {
    /// The practice this timeline belongs to, e.g. `meditation`.
    public var practice: PracticeKind
    /// Segments in order; each starts where the previous one ends. Only the last may be open-ended.
    public private(set) var segments: [Segment]
    /// Cues at fixed offsets from the start of the timeline, sorted by offset.
    public private(set) var cues: [Cue]
    /// Cues that repeat until the timeline ends (or forever in an open-ended segment).
    public private(set) var repeatingCues: [RepeatingCue]
    /// The ambient bed that plays under the whole timeline, if any.
    public var ambient: AmbientChoice?

    /// Creates a timeline from segments in order. Cues are sorted by offset (stable).
    public init(
        practice: PracticeKind,
        segments: [Segment],
        cues: [Cue] = [],
        repeatingCues: [RepeatingCue] = [],
        ambient: AmbientChoice? = nil
    ) throws(TimelineError) {
        guard !segments.isEmpty else { throw .noSegments }
        var expectedStart = Duration.zero
        for (index, segment) in segments.enumerated() {
            guard segment.start == expectedStart else { throw .segmentsNotContiguous(index: index) }
            guard let duration = segment.duration else {
                guard index == segments.count - 1 else { throw .openEndedSegmentNotLast(index: index) }
                break
            }
            guard duration >= .zero else { throw .negativeDuration(index: index) }
            expectedStart += duration
        }
        for cue in cues where cue.offset < .zero { throw .cueBeforeStart }
        for cue in repeatingCues where cue.interval <= .zero || cue.first < .zero {
            throw .invalidRepeatingCue
        }
        self.practice = practice
        self.segments = segments
        self.cues = cues.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)
        self.repeatingCues = repeatingCues
        self.ambient = ambient
    }

    /// The length of the whole timeline, or `nil` when its last segment is open-ended.
    public var totalDuration: Duration? {
        guard let last = segments.last, let duration = last.duration else { return nil }
        return last.start + duration
    }

    /// The countdown a timeline opens with (a sit's, breathing's get-ready): before the practice,
    /// not part of it; zero when it opens with the practice itself.
    public var leadIn: Duration {
        guard let first = segments.first, first.kind == .countdown else { return .zero }
        return first.duration ?? .zero
    }

    /// What ending a practice of set length after `elapsed` amounts to: the time after the
    /// lead-in, out of the time after it.
    public func outcome(elapsed: Duration) -> PracticeOutcome {
        PracticeOutcome(done: max(.zero, elapsed - leadIn), of: (totalDuration ?? .zero) - leadIn)
    }

    /// Whether the timeline runs until it is stopped.
    public var isOpenEnded: Bool { totalDuration == nil }

    /// The index of the segment playing at `offset` from the start. At a boundary the later
    /// segment is current; at or past the end, the last segment.
    public func segmentIndex(at offset: Duration) -> Int {
        var low = 0
        var high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].start <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Every cue whose offset lies in `lower..<upper` or `lower...upper` as asked, in order,
    /// repeating cues included.
    ///
    /// - Parameters:
    ///   - lower: offsets must be greater than this, or equal to it when `includingLower` is set.
    ///   - upper: offsets must be at most this.
    public func cues(after lower: Duration, includingLower: Bool, through upper: Duration) -> [Cue] {
        guard upper >= lower else { return [] }
        func isInside(_ offset: Duration) -> Bool {
            (offset > lower || (includingLower && offset == lower)) && offset <= upper
        }
        var found = cues.filter { isInside($0.offset) }
        for repeating in repeatingCues {
            found += repeating.occurrences(from: lower, through: upper, endingBefore: totalDuration)
                .filter { isInside($0.offset) }
        }
        return found.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)
    }
}

extension Timeline {
    /// The first offset after `offset` where a cue is due or a segment starts or ends.
    public func nextEventOffset(after offset: Duration) -> Duration? {
        var candidates: [Duration] = []
        if let cue = cues.first(where: { $0.offset > offset }) { candidates.append(cue.offset) }
        if let boundary = segments.lazy.compactMap(\.end).first(where: { $0 > offset }) { candidates.append(boundary) }
        for repeating in repeatingCues {
            var index: Int64 = 0
            if offset >= repeating.first {
                index = Int64(((offset - repeating.first) / repeating.interval).rounded(.down)) + 1
            }
            var next = repeating.first + repeating.interval * index
            // Guard against rounding at exact multiples.
            while next <= offset { next += repeating.interval }
            let limit = [repeating.until, totalDuration].compactMap { $0 }.min()
            if limit.map({ next < $0 }) ?? true { candidates.append(next) }
        }
        return candidates.min()
    }
}

/// Why a set of segments and cues is not a timeline.
public enum TimelineError: Error, Equatable, Sendable {
    case noSegments
    case segmentsNotContiguous(index: Int)
    case openEndedSegmentNotLast(index: Int)
    case negativeDuration(index: Int)
    case cueBeforeStart
    case invalidRepeatingCue
}

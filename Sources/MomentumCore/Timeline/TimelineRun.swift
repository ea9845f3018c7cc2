/// A run of a timeline: a value driven by instants from an injected clock.
///
/// The run never counts ticks. It stores the instants of the person's actions and computes
/// everything else from them, so it cannot drift: paused and resumed a thousand times, it still
/// ends exactly at start + duration + time paused.
///
/// ```swift
/// var run = TimelineRun<ContinuousClock.Instant>(timeline: timeline)
/// try run.start(at: clock.now)
/// let state = run.state(at: clock.now)
/// let due = run.cues(after: lastCheck, through: clock.now)
/// ```
public struct TimelineRun<Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration, Instant: Sendable {
    public let timeline: Timeline
    public private(set) var startedAt: Instant?
    /// Every pause in order; only the last may still be open.
    public private(set) var pauses: [Pause] = []
    /// `pausedBefore[i]` is the total length of pauses `0..<i`, so any instant's paused time
    /// is found by binary search, however many pauses there were.
    private var pausedBefore: [Duration] = [.zero]
    public private(set) var stoppedAt: Instant?

    /// One pause: from `start` until `end` (`nil` while it lasts).
    public struct Pause: Sendable, Equatable {
        public var start: Instant
        public var end: Instant?
    }

    /// The instant the current pause began, `nil` when not paused.
    public var pausedSince: Instant? {
        guard let last = pauses.last, last.end == nil else { return nil }
        return last.start
    }

    /// Time spent in pauses that have ended.
    public var pausedTotal: Duration { pausedBefore[pausedBefore.count - 1] }

    public init(timeline: Timeline) {
        self.timeline = timeline
    }

    // MARK: - The person's actions

    /// Starts the run. A run starts once.
    public mutating func start(at instant: Instant) throws(TimelineRunError) {
        guard startedAt == nil else { throw .alreadyStarted }
        startedAt = instant
    }

    /// Pauses a running run; pausing a paused run is an error so the caller's intent stays clear.
    public mutating func pause(at instant: Instant) throws(TimelineRunError) {
        try requireActive(at: instant)
        guard pausedSince == nil else { throw .alreadyPaused }
        pauses.append(Pause(start: instant, end: nil))
    }

    /// Resumes a paused run.
    public mutating func resume(at instant: Instant) throws(TimelineRunError) {
        try requireActive(at: instant)
        guard let pausedSince else { throw .notPaused }
        pauses[pauses.count - 1].end = instant
        pausedBefore.append(pausedTotal + pausedSince.duration(to: instant))
    }

    /// Stops the run before (or at) its end. Elapsed time freezes at this instant.
    public mutating func stop(at instant: Instant) throws(TimelineRunError) {
        guard let startedAt else { throw .notStarted }
        guard stoppedAt == nil else { throw .alreadyStopped }
        guard instant >= startedAt else { throw .instantBeforeStart }
        if let end = endInstant, instant > end {
            stoppedAt = end
        } else {
            stoppedAt = instant
        }
    }

    private func requireActive(at instant: Instant) throws(TimelineRunError) {
        guard let startedAt else { throw .notStarted }
        guard stoppedAt == nil else { throw .alreadyStopped }
        let lastAction = pauses.last.map { $0.end ?? $0.start } ?? startedAt
        guard instant >= lastAction else { throw .instantBeforeStart }
        if isCompleted(at: instant) { throw .alreadyCompleted }
    }

    // MARK: - Reading the run

    /// The instant the run ends if it is not paused again: start + duration + time paused so far.
    /// `nil` for open-ended timelines, runs that have not started, and paused runs.
    public var endInstant: Instant? {
        guard let startedAt, let total = timeline.totalDuration, pausedSince == nil else { return nil }
        return startedAt.advanced(by: total + pausedTotal)
    }

    /// Time the timeline has played at `instant`: never negative, never past its total.
    public func elapsed(at instant: Instant) -> Duration {
        guard let startedAt else { return .zero }
        var until = instant
        if let stoppedAt, stoppedAt < until { until = stoppedAt }
        var played = startedAt.duration(to: until) - pausedTime(before: until)
        if played < .zero { played = .zero }
        if let total = timeline.totalDuration, played > total { played = total }
        return played
    }

    /// Time spent paused between the start and `instant`, for any instant — past ones included,
    /// so a caller may ask about an instant before later pauses and resumes.
    private func pausedTime(before instant: Instant) -> Duration {
        // The number of pauses that began before `instant`.
        var low = 0
        var high = pauses.count
        while low < high {
            let middle = (low + high) / 2
            if pauses[middle].start < instant { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return .zero }
        let last = pauses[low - 1]
        let lastEnd = last.end.map { min($0, instant) } ?? instant
        return pausedBefore[low - 1] + last.start.duration(to: lastEnd)
    }

    /// Whether the timeline has played to its end by `instant` (open-ended ones never do).
    public func isCompleted(at instant: Instant) -> Bool {
        guard startedAt != nil, let total = timeline.totalDuration else { return false }
        return elapsed(at: instant) >= total
    }

    /// The next instant after `instant` at which a cue is due or a segment begins or ends —
    /// when a player has something to do. `nil` when the run is not playing or nothing is left.
    public func nextEventInstant(after instant: Instant) -> Instant? {
        guard startedAt != nil, stoppedAt == nil, pausedSince == nil, !isCompleted(at: instant) else { return nil }
        let played = elapsed(at: instant)
        guard let next = timeline.nextEventOffset(after: played) else { return nil }
        return instant.advanced(by: next - played)
    }

    /// Everything a player shows at `instant`.
    public func state(at instant: Instant) -> RunState {
        let played = elapsed(at: instant)
        let index = timeline.segmentIndex(at: played)
        let segment = timeline.segments[index]
        let status: RunStatus
        if startedAt == nil {
            status = .idle
        } else if isCompleted(at: instant) {
            status = .completed
        } else if let stoppedAt, stoppedAt <= instant {
            status = .stopped
        } else if let pausedSince, pausedSince <= instant {
            status = .paused
        } else {
            status = .running
        }
        return RunState(
            status: status,
            segmentIndex: index,
            segment: segment,
            elapsed: played,
            elapsedInSegment: played - segment.start,
            totalDuration: timeline.totalDuration
        )
    }

    /// The cues due after `earlier` up to and including `later`, in order.
    ///
    /// Pass `nil` for `earlier` on the first call: cues at offset 0 (a start gong without a
    /// countdown) are due then. Calling with consecutive instants delivers every cue exactly once,
    /// whatever the tick rate.
    public func cues(after earlier: Instant?, through later: Instant) -> [Cue] {
        guard startedAt != nil else { return [] }
        let lower = earlier.map { elapsed(at: $0) } ?? .zero
        let upper = elapsed(at: later)
        return timeline.cues(after: lower, includingLower: earlier == nil, through: upper)
    }
}

/// What a run shows at one instant.
public struct RunState: Sendable, Equatable {
    public var status: RunStatus
    public var segmentIndex: Int
    public var segment: Segment
    /// Time played since the start (pauses excluded).
    public var elapsed: Duration
    public var elapsedInSegment: Duration
    /// The whole timeline's length, `nil` when open-ended.
    public var totalDuration: Duration?

    /// Time left in the current segment, `nil` when it is open-ended.
    public var remainingInSegment: Duration? {
        segment.duration.map { max(.zero, $0 - elapsedInSegment) }
    }

    /// Time left in the whole timeline, `nil` when open-ended.
    public var remaining: Duration? {
        totalDuration.map { max(.zero, $0 - elapsed) }
    }

    /// How far through the current segment, 0 … 1 (0 for open-ended segments).
    public var segmentProgress: Double {
        guard let duration = segment.duration, duration > .zero else { return segment.duration == nil ? 0 : 1 }
        return min(1, max(0, elapsedInSegment / duration))
    }
}

/// Where a run is in its life.
public enum RunStatus: String, Sendable, Codable {
    case idle, running, paused, stopped, completed
}

/// An action that does not fit the run's state.
public enum TimelineRunError: Error, Equatable, Sendable {
    case alreadyStarted
    case notStarted
    case alreadyPaused
    case notPaused
    case alreadyStopped
    case alreadyCompleted
    /// The instant is before the start or before the last pause or resume.
    case instantBeforeStart
}

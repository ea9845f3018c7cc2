import Foundation

/// Where a focus timer's countdown stands, as instants. Running-and-paused, or running with no
/// start, cannot be written down; elapsed time is checked to lie within the timer's duration.
public enum FocusRun: Sendable, Equatable {
    case idle
    /// Counting down since `resumedAt`, with `elapsedBefore` done before that (earlier stretches).
    case running(startedAt: Date, resumedAt: Date, elapsedBefore: Duration)
    case paused(startedAt: Date, pausedAt: Date, elapsed: Duration)
    case completed(startedAt: Date, completedAt: Date, elapsed: Duration)

    /// What the run is doing, as a word for storage and JSON.
    public enum Status: String, Sendable, Codable, CaseIterable {
        case idle, running, paused, completed
    }

    public var status: Status {
        switch self {
        case .idle: .idle
        case .running: .running
        case .paused: .paused
        case .completed: .completed
        }
    }

    /// When the first stretch began, unless idle.
    public var startedAt: Date? {
        switch self {
        case .idle: nil
        case .running(let start, _, _), .paused(let start, _, _), .completed(let start, _, _): start
        }
    }

    func validate(duration: Duration) throws(FocusTimerError) {
        let elapsed: Duration
        switch self {
        case .idle: return
        case .running(_, _, let before): elapsed = before
        case .paused(_, _, let done), .completed(_, _, let done): elapsed = done
        }
        guard elapsed >= .zero, elapsed <= duration else { throw .invalidRun }
    }
}

extension FocusTimer {
    /// Time counted down by `now` (never below zero nor past the duration).
    public func elapsed(at now: Date) -> Duration {
        switch run {
        case .idle: return .zero
        case .running(_, let resumedAt, let before):
            let stretch = Duration.milliseconds(Int64((now.timeIntervalSince(resumedAt) * 1000).rounded()))
            return min(duration, max(.zero, before + max(.zero, stretch)))
        case .paused(_, _, let done), .completed(_, _, let done): return done
        }
    }

    /// Time left at `now`.
    public func remaining(at now: Date) -> Duration { duration - elapsed(at: now) }

    /// The status at `now`: a running timer whose time is up is completed, even before it is
    /// settled in the store.
    public func status(at now: Date) -> FocusRun.Status {
        if case .running = run, elapsed(at: now) >= duration { return .completed }
        return run.status
    }

    /// When a running timer's time is (or will be) up.
    public var dueAt: Date? {
        guard case .running(_, let resumedAt, let before) = run else { return nil }
        return resumedAt.addingTimeInterval((duration - before).inSeconds)
    }

    /// Starts the countdown afresh (idle or completed), or resumes it (paused).
    public mutating func start(at now: Date) throws(FocusTimerError) {
        switch run {
        case .idle, .completed: run = .running(startedAt: now, resumedAt: now, elapsedBefore: .zero)
        case .paused: try resume(at: now)
        case .running: throw .alreadyRunning(name)
        }
        updatedAt = now
    }

    public mutating func pause(at now: Date) throws(FocusTimerError) {
        guard case .running(let start, _, _) = run, status(at: now) == .running else { throw .notRunning(name) }
        run = .paused(startedAt: start, pausedAt: now, elapsed: elapsed(at: now))
        updatedAt = now
    }

    public mutating func resume(at now: Date) throws(FocusTimerError) {
        guard case .paused(let start, _, let done) = run else { throw .notPaused(name) }
        run = .running(startedAt: start, resumedAt: now, elapsedBefore: done)
        updatedAt = now
    }

    /// Back to the full duration, not running; the checklist is kept as it is.
    public mutating func reset(at now: Date) {
        run = .idle
        updatedAt = now
    }

    /// Marks the timer done now, with the time counted so far.
    public mutating func complete(at now: Date) throws(FocusTimerError) {
        guard let start = run.startedAt else { throw .notStarted(name) }
        if case .completed = run { return }
        run = .completed(startedAt: start, completedAt: now, elapsed: elapsed(at: now))
        updatedAt = now
    }

    /// If the timer ran out by `now`, records it completed at the instant its time was up and
    /// returns `true`: the one moment its completion is logged.
    public mutating func settle(at now: Date) -> Bool {
        guard case .running(let start, _, _) = run, let due = dueAt, due <= now else { return false }
        run = .completed(startedAt: start, completedAt: due, elapsed: duration)
        updatedAt = due
        return true
    }

    /// The practice-log record of a completed run (kind focus), by the rule every kind follows
    /// (``PracticeOutcome``): a timer that ran out is logged; one marked done early is logged
    /// (as stopped early) after a minute or more of counting; otherwise, or with no run, `nil`.
    public func completionRecord(id: UUID, device: String) -> PracticeRecord? {
        guard case .completed(let start, let completedAt, let elapsed) = run else { return nil }
        let end = max(start, completedAt)
        // Counted time never exceeds the stretch it lies in, even if the wall clock was moved.
        let stretch = Duration.milliseconds(Int64((end.timeIntervalSince(start) * 1000).rounded(.down)))
        let outcome = PracticeOutcome(done: min(elapsed, stretch), of: duration)
        do {
            // `nil` when the run is too short to log: the one case without a record.
            return try outcome.record(
                id: id, kind: .focus, start: start, end: end, details: ["timer": name], device: device)
        } catch {
            // None of PracticeRecord's refusals can happen: an end before the start (`end` is at
            // least `start`); counted time below zero (a logged outcome counts a minute or more,
            // or the whole duration, at least a second) or more than a second past the stretch
            // (it counts at most `stretch`, rounded to the second); energy out of bounds (none).
            preconditionFailure("a focus run that makes no valid record: \(error)")
        }
    }
}

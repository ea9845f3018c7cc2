/// A practice several people of a household sit together (issue 45): one timeline, one run the
/// host steers, started at an instant fixed a few seconds ahead so that every phone can be ready,
/// and the people in it with when each joined and left.
///
/// Every phone plays the run's one audio stream from ``position(at:)``; a phone that joins late
/// starts there too. Each person's own practice is their stretch of the run — from joining (or
/// the start) to leaving (or the end), pauses left out — logged by the one rule of practice of set
/// length (``PracticeOutcome``): present at the end, it is completed; gone before, stopped early
/// (or too short to log).
///
/// ```swift
/// var together = try TogetherSession(timeline: sit, host: ada, createdAt: now)
/// try together.join(grace, at: now + .seconds(2))
/// together.position(at: together.startsAt + .seconds(30))   // 30 s
/// try together.leave(grace, at: together.startsAt + .minutes(2))
/// together.outcome(for: grace, at: end)                      // .stoppedEarly(2 min)
/// ```
public struct TogetherSession<Person: Hashable & Sendable, Instant: InstantProtocol & Sendable>: Sendable
where Instant.Duration == Duration {
    /// One person's time in the session.
    public struct Presence: Sendable, Equatable {
        public let person: Person
        public let joinedAt: Instant
        public fileprivate(set) var leftAt: Instant?
    }

    /// How far ahead of its making the session starts: time for every phone to load the stream
    /// and measure its clock.
    public static var startLead: Duration { .seconds(5) }
    /// The most people one session holds.
    public static var capacity: Int { 12 }

    public let host: Person
    public let startsAt: Instant
    public private(set) var run: TimelineRun<Instant>
    /// Everyone who joined, the host first, in the order they came.
    public private(set) var presences: [Presence]

    /// A session of `timeline` hosted by `host`, starting ``startLead`` after `createdAt`.
    public init(timeline: Timeline, host: Person, createdAt: Instant) throws(TogetherError) {
        guard !timeline.isOpenEnded else { throw .openEnded }
        self.host = host
        startsAt = createdAt.advanced(by: Self.startLead)
        run = TimelineRun(timeline: timeline)
        do { try run.start(at: startsAt) } catch { throw .run(error) }
        presences = [Presence(person: host, joinedAt: createdAt, leftAt: nil)]
    }

    /// The timeline's position every phone plays at `instant`: zero before the start, frozen
    /// while paused and after the end.
    public func position(at instant: Instant) -> Duration { run.elapsed(at: instant) }

    /// Whether the session has ended (run to its end, or stopped by the host) by `instant`.
    public func isOver(at instant: Instant) -> Bool { run.stoppedAt != nil || run.isCompleted(at: instant) }

    /// The people in the session at `instant` (joined, not left).
    public func present(at instant: Instant) -> [Person] {
        presences.filter { $0.joinedAt <= instant && ($0.leftAt.map { $0 > instant } ?? true) }.map(\.person)
    }

    /// `person` joins at `instant` (again, after leaving: their earlier stretch is kept).
    public mutating func join(_ person: Person, at instant: Instant) throws(TogetherError) {
        guard !isOver(at: instant) else { throw .over }
        guard !present(at: instant).contains(person) else { return }
        guard Set(presences.map(\.person)).count < Self.capacity || presences.contains(where: { $0.person == person })
        else { throw .full }
        presences.append(Presence(person: person, joinedAt: instant, leftAt: nil))
    }

    /// `person` leaves at `instant`. The host leaving stops the session for everyone.
    public mutating func leave(_ person: Person, at instant: Instant) throws(TogetherError) {
        guard let index = presences.lastIndex(where: { $0.person == person && $0.leftAt == nil }) else {
            throw .notPresent
        }
        if person == host, !isOver(at: instant) {
            try stop(by: host, at: instant)
            return
        }
        presences[index].leftAt = max(instant, presences[index].joinedAt)
    }

    /// The host pauses everyone.
    public mutating func pause(by person: Person, at instant: Instant) throws(TogetherError) {
        guard person == host else { throw .notHost }
        do { try run.pause(at: instant) } catch { throw .run(error) }
    }

    /// The host goes on for everyone.
    public mutating func resume(by person: Person, at instant: Instant) throws(TogetherError) {
        guard person == host else { throw .notHost }
        do { try run.resume(at: instant) } catch { throw .run(error) }
    }

    /// The host stops the session for everyone: whoever is present leaves then.
    public mutating func stop(by person: Person, at instant: Instant) throws(TogetherError) {
        guard person == host else { throw .notHost }
        let at = max(instant, startsAt)
        do { try run.stop(at: at) } catch { throw .run(error) }
        let stoppedAt = run.stoppedAt ?? at
        for index in presences.indices where presences[index].leftAt == nil {
            presences[index].leftAt = max(stoppedAt, presences[index].joinedAt)
        }
    }

    /// What `person`'s practice comes to once the session is over at `end` (or they left): the
    /// timeline they were present for, pauses left out, after the timeline's lead-in. Present when
    /// it ran to its end: completed; gone before (or stopped by the host): by the rule of an
    /// early stop. `nil` for someone who never joined.
    public func outcome(for person: Person, at end: Instant) -> PracticeOutcome? {
        let stretches = presences.filter { $0.person == person }
        guard !stretches.isEmpty else { return nil }
        let leadIn = run.timeline.leadIn
        let total = (run.timeline.totalDuration ?? .zero) - leadIn
        var done = Duration.zero
        var stayedToTheEnd = false
        for stretch in stretches {
            let until = stretch.leftAt.map { min($0, end) } ?? end
            let from = max(position(at: stretch.joinedAt), leadIn)
            let to = max(position(at: until), leadIn)
            if to > from { done += to - from }
            // Still there when the timeline ran out (a stop by the host freezes it short of that).
            if run.isCompleted(at: until) { stayedToTheEnd = true }
        }
        if stayedToTheEnd { return .completed(min(done, total)) }
        return PracticeOutcome(done: done, of: total).clampedToEarly
    }
}

extension PracticeOutcome {
    /// This outcome, never counted as complete: a stretch that left before the end is an early
    /// stop even when the minutes reached the total.
    fileprivate var clampedToEarly: PracticeOutcome {
        if case .completed(let time) = self { return .stoppedEarly(time) }
        return self
    }
}

/// A step of a sit together that cannot be taken.
public enum TogetherError: Error, Equatable, Sendable {
    /// An open-ended practice has no end to sit to together.
    case openEnded
    /// Only the host pauses, resumes and stops.
    case notHost
    /// The session has ended.
    case over
    /// Twelve people are in it already.
    case full
    /// Leaving a session one is not in.
    case notPresent
    case run(TimelineRunError)
}

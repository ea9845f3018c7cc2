/// What a workout board shows at one moment: the segment, round and set, the exercise, the
/// time left, and what comes next.
///
/// The terminal and the browser both show this; it is computed from the timeline's segments and
/// a run's state only, so no front end repeats a workout rule.
///
/// ```swift
/// let board = WorkoutBoard(timeline: timeline, state: run.state(at: clock.now))
/// board.lines(.shared(for: .english)).round  // "Round 3 of 8"
/// ```
public struct WorkoutBoard: Sendable, Equatable {
    /// What follows the current segment.
    public enum NextUp: Sendable, Equatable, Hashable {
        /// Another segment, with its exercise when it is a named work interval.
        case segment(SegmentKind, exercise: String?)
        /// The end of the workout.
        case finish
    }

    /// The kind of the current segment (the last one once the workout is done).
    public var segmentKind: SegmentKind
    /// Round, set and exercise of the current segment; `nil` for get ready, warm-up, cool-down.
    public var detail: SegmentDetail?
    public var remainingInSegment: Duration
    public var remaining: Duration
    /// What comes next; `nil` once the workout is done.
    public var nextUp: NextUp?
    /// Whether the whole timeline has played.
    public var isDone: Bool

    /// The board for `state`, a state of a run of `timeline`.
    public init(timeline: Timeline, state: RunState) {
        let total = timeline.totalDuration ?? state.elapsed
        isDone = state.status == .completed || state.elapsed >= total
        segmentKind = state.segment.kind
        detail = isDone ? nil : state.segment.detail
        remainingInSegment = isDone ? .zero : state.remainingInSegment ?? .zero
        remaining = isDone ? .zero : max(.zero, total - state.elapsed)
        if isDone {
            nextUp = nil
        } else if state.segmentIndex + 1 < timeline.segments.count {
            let next = timeline.segments[state.segmentIndex + 1]
            nextUp = .segment(next.kind, exercise: next.kind == .work ? next.detail?.exercise : nil)
        } else {
            nextUp = .finish
        }
    }

    /// The board at the start of each segment of `timeline`, in order, and the board once the
    /// workout is done: everything a player that keeps its own clock needs to show the board
    /// (only the times change within a segment, and those are the segment's and the timeline's).
    public static func boards(for timeline: Timeline) -> (segments: [WorkoutBoard], done: WorkoutBoard) {
        let total = timeline.totalDuration
        let segments = timeline.segments.enumerated().map { index, segment in
            WorkoutBoard(
                timeline: timeline,
                state: RunState(
                    status: .running, segmentIndex: index, segment: segment, elapsed: segment.start,
                    elapsedInSegment: .zero, totalDuration: total))
        }
        let lastIndex = max(0, timeline.segments.count - 1)
        let end = total ?? timeline.segments.last.map { $0.start + ($0.duration ?? .zero) } ?? .zero
        let done = WorkoutBoard(
            timeline: timeline,
            state: RunState(
                status: .completed, segmentIndex: lastIndex, segment: timeline.segments[lastIndex], elapsed: end,
                elapsedInSegment: timeline.segments[lastIndex].duration ?? .zero, totalDuration: total))
        return (segments, done)
    }

    /// The exercise being done: the current work interval's, if rounds are named. A rest shows
    /// none; what comes next is in ``nextUp``.
    public var exercise: String? { segmentKind == .work ? detail?.exercise : nil }

    /// The current segment's name ("Work", "Rest between sets"), or "Done" at the end.
    public var title: LocalizedText {
        LocalizedText(isDone ? .workoutBoardDone : segmentKind.workoutNameKey)
    }

    /// "Round 3 of 8", when the segment belongs to a round.
    public var roundText: LocalizedText? {
        detail.map { LocalizedText(.workoutBoardRound, $0.arguments) }
    }

    /// "Set 2 of 3", when the segment belongs to a round and there is more than one set.
    public var setText: LocalizedText? {
        detail.flatMap { $0.sets > 1 ? LocalizedText(.workoutBoardSet, $0.arguments) : nil }
    }

    /// The board's texts in one language, times as on a clock face.
    public func lines(_ catalog: StringCatalog) -> Lines {
        let next: String? = nextUp.map { nextUp in
            let name =
                switch nextUp {
                case .segment(let kind, let exercise): exercise ?? catalog[kind.workoutNameKey]
                case .finish: catalog[.workoutBoardFinish]
                }
            return catalog.format(.workoutBoardNext, ["next": name])
        }
        return Lines(
            title: catalog.text(title),
            round: roundText.map(catalog.text),
            set: setText.map(catalog.text),
            exercise: exercise,
            next: next,
            remainingInSegment: DurationFormatting.clock(remainingInSegment),
            remaining: DurationFormatting.clock(remaining)
        )
    }

    /// A board as text: what a terminal prints and a browser shows.
    public struct Lines: Sendable, Equatable, Codable {
        public var title: String
        public var round: String?
        public var set: String?
        public var exercise: String?
        /// "Next: Rest", "Next: Plank", "Next: Finish"; `nil` once done.
        public var next: String?
        public var remainingInSegment: String
        public var remaining: String
    }
}

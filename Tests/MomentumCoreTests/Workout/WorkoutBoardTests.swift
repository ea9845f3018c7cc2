import Testing

@testable import MomentumCore

@Suite("Workout board")
struct WorkoutBoardTests {
    /// Get ready 10, then two sets of Plank 20 / rest 10 / Squats 20 with 30 s between: 140 s.
    private let plan = WorkoutPlan(
        getReady: .seconds(10), work: .seconds(20), rest: .seconds(10), rounds: 2, sets: 2, setRest: .seconds(30),
        exerciseNames: ["Plank", "Squats"])

    private func board(at seconds: Int, language: Language = .english) throws -> WorkoutBoard.Lines {
        let timeline = try plan.timeline()
        var run = TimelineRun<TestInstant>(timeline: timeline)
        try run.start(at: .origin)
        return WorkoutBoard(timeline: timeline, state: run.state(at: .at(.seconds(seconds))))
            .lines(.shared(for: language))
    }

    private func lines(
        _ title: String, _ round: String?, _ set: String?, _ exercise: String?, _ next: String?, _ inSegment: String,
        _ remaining: String
    ) -> WorkoutBoard.Lines {
        WorkoutBoard.Lines(
            title: title, round: round, set: set, exercise: exercise, next: next, remainingInSegment: inSegment,
            remaining: remaining)
    }

    @Test func theBoardFollowsTheWorkoutFromGetReadyToDone() throws {
        #expect(try board(at: 0) == lines("Get ready", nil, nil, nil, "Next: Plank", "00:10", "02:20"))
        #expect(
            try board(at: 10) == lines("Work", "Round 1 of 2", "Set 1 of 2", "Plank", "Next: Rest", "00:20", "02:10"))
        #expect(
            try board(at: 15) == lines("Work", "Round 1 of 2", "Set 1 of 2", "Plank", "Next: Rest", "00:15", "02:05"))
        #expect(try board(at: 35) == lines("Rest", "Round 1 of 2", "Set 1 of 2", nil, "Next: Squats", "00:05", "01:45"))
        #expect(
            try board(at: 65)
                == lines("Rest between sets", "Round 2 of 2", "Set 1 of 2", nil, "Next: Plank", "00:25", "01:15"))
        #expect(
            try board(at: 95) == lines("Work", "Round 1 of 2", "Set 2 of 2", "Plank", "Next: Rest", "00:15", "00:45"))
        #expect(
            try board(at: 130)
                == lines("Work", "Round 2 of 2", "Set 2 of 2", "Squats", "Next: Finish", "00:10", "00:10"))
        #expect(try board(at: 140) == lines("Done", nil, nil, nil, nil, "00:00", "00:00"))
        #expect(try board(at: 500) == lines("Done", nil, nil, nil, nil, "00:00", "00:00"))
    }

    @Test func theBoardSpeaksGerman() throws {
        #expect(
            try board(at: 65, language: .german)
                == lines(
                    "Pause zwischen den Sätzen", "Runde 2 von 2", "Satz 1 von 2", nil, "Als Nächstes: Plank", "00:25",
                    "01:15"))
    }

    @Test func theBoardsValuesNameKindsAndNextUp() throws {
        let timeline = try plan.timeline()
        var run = TimelineRun<TestInstant>(timeline: timeline)
        try run.start(at: .origin)
        let rest = WorkoutBoard(timeline: timeline, state: run.state(at: .at(.seconds(31))))
        #expect(rest.segmentKind == .rest)
        #expect(rest.detail?.round == 1)
        #expect(rest.nextUp == .segment(.work, exercise: "Squats"))
        #expect(rest.remainingInSegment == .seconds(9))
        #expect(rest.remaining == .seconds(109))
        #expect(!rest.isDone)
        let work = WorkoutBoard(timeline: timeline, state: run.state(at: .at(.seconds(41))))
        #expect(work.nextUp == .segment(.setRest, exercise: nil))
        let last = WorkoutBoard(timeline: timeline, state: run.state(at: .at(.seconds(139))))
        #expect(last.nextUp == .finish)
        let done = WorkoutBoard(timeline: timeline, state: run.state(at: .at(.seconds(140))))
        #expect(done.isDone)
        #expect(done.nextUp == nil)
    }

    @Test func oneSetShowsNoSetLineAndAPausedBoardStandsStill() throws {
        let timeline = try WorkoutPlan(getReady: .zero, work: .seconds(30), rounds: 3).timeline()
        var run = TimelineRun<TestInstant>(timeline: timeline)
        try run.start(at: .origin)
        try run.pause(at: .at(.seconds(12)))
        let catalog = StringCatalog.shared(for: .english)
        let paused = WorkoutBoard(timeline: timeline, state: run.state(at: .at(.seconds(50)))).lines(catalog)
        #expect(paused == lines("Work", "Round 1 of 3", nil, nil, "Next: Rest", "00:18", "01:38"))
        let idle = WorkoutBoard(
            timeline: timeline, state: TimelineRun<TestInstant>(timeline: timeline).state(at: .origin))
        #expect(idle.lines(catalog).remaining == "01:50")
    }
}

@Suite("Workout board per segment")
struct WorkoutBoardPerSegmentTests {
    /// The board a player shows from each segment's start equals the board of a run there.
    @Test func eachSegmentsBoardIsTheRunsBoardAtItsStart() throws {
        let plan = WorkoutPlan(
            getReady: .seconds(10), work: .seconds(20), rest: .seconds(10), rounds: 2, sets: 2,
            setRest: .seconds(30), exerciseNames: ["Plank", "Squats"])
        let timeline = try plan.timeline()
        var run = TimelineRun<TestInstant>(timeline: timeline)
        try run.start(at: .origin)
        let boards = WorkoutBoard.boards(for: timeline)
        #expect(boards.segments.count == timeline.segments.count)
        for (segment, board) in zip(timeline.segments, boards.segments) {
            let live = WorkoutBoard(timeline: timeline, state: run.state(at: .at(segment.start)))
            #expect(board.lines(.shared(for: .english)).title == live.lines(.shared(for: .english)).title)
            #expect(board.nextUp == live.nextUp)
            #expect(board.detail == live.detail)
        }
        let end = try #require(timeline.totalDuration)
        #expect(boards.done == WorkoutBoard(timeline: timeline, state: run.state(at: .at(end))))
    }
}

import Foundation

/// An interval workout: work and rest in rounds, rounds in sets, with optional get-ready,
/// warm-up, rest between sets and cool-down, all in whole seconds.
///
/// ```swift
/// let tabata = WorkoutPlan(work: .seconds(20), rest: .seconds(10), rounds: 8)
/// tabata.totalDuration  // 240 s: 10 s get ready + 8 × 20 s + 7 × 10 s
/// ```
public struct WorkoutPlan: Sendable, Equatable, Hashable {
    public var getReady: Duration
    public var warmUp: Duration
    public var work: Duration
    public var rest: Duration
    /// Rounds in each set.
    public var rounds: Int
    public var sets: Int
    public var setRest: Duration
    public var coolDown: Duration
    /// One name per round, repeating when there are fewer names than rounds; may be empty.
    public var exerciseNames: [String]
    public var activity: WorkoutActivity
    /// The program it came from, kept in the log's details.
    public var programName: String?
    /// The id of the program it came from (`tabata`), kept in the log's details: the home-screen
    /// shortcuts count the person's most used programs by it (``PracticeShortcuts``).
    public var programID: String?

    public static let getReadyBounds: ClosedRange<Duration> = .zero ... .seconds(60)
    public static let warmUpBounds: ClosedRange<Duration> = .zero ... .minutes(30)
    public static let workBounds: ClosedRange<Duration> = .seconds(1) ... .seconds(600)
    public static let restBounds: ClosedRange<Duration> = .zero ... .seconds(600)
    public static let roundBounds = 1...200
    public static let setBounds = 1...20
    public static let setRestBounds: ClosedRange<Duration> = .zero ... .seconds(600)
    public static let coolDownBounds: ClosedRange<Duration> = .zero ... .minutes(30)
    public static let maximumExerciseNameLength = 60
    public static let maximumExerciseNames = 200

    /// A plan with the defaults of SPEC §5 for every field not given.
    public init(
        getReady: Duration = .seconds(10),
        warmUp: Duration = .zero,
        work: Duration = .seconds(30),
        rest: Duration = .seconds(10),
        rounds: Int = 10,
        sets: Int = 1,
        setRest: Duration = .seconds(60),
        coolDown: Duration = .zero,
        exerciseNames: [String] = [],
        activity: WorkoutActivity = .hiit,
        programName: String? = nil
    ) {
        self.getReady = getReady
        self.warmUp = warmUp
        self.work = work
        self.rest = rest
        self.rounds = rounds
        self.sets = sets
        self.setRest = setRest
        self.coolDown = coolDown
        self.exerciseNames = exerciseNames
        self.activity = activity
        self.programName = programName
    }

    /// Checks every field against its bounds, in the order of SPEC §5's table.
    public func validate() throws(WorkoutError) {
        guard Self.getReadyBounds.contains(getReady) else { throw .getReadyOutOfRange }
        guard Self.warmUpBounds.contains(warmUp) else { throw .warmUpOutOfRange }
        guard Self.workBounds.contains(work) else { throw .workOutOfRange }
        guard Self.restBounds.contains(rest) else { throw .restOutOfRange }
        guard Self.roundBounds.contains(rounds) else { throw .roundsOutOfRange }
        guard Self.setBounds.contains(sets) else { throw .setsOutOfRange }
        guard Self.setRestBounds.contains(setRest) else { throw .setRestOutOfRange }
        guard Self.coolDownBounds.contains(coolDown) else { throw .coolDownOutOfRange }
        for duration in [getReady, warmUp, work, rest, setRest, coolDown] where duration.components.attoseconds != 0 {
            throw .notWholeSeconds
        }
        guard exerciseNames.count <= Self.maximumExerciseNames else { throw .tooManyExerciseNames }
        for name in exerciseNames.map(Self.trimmed) {
            guard !name.isEmpty else { throw .blankExerciseName }
            guard name.count <= Self.maximumExerciseNameLength else { throw .exerciseNameTooLong }
            do { try TextInput.check(name, field: "exerciseNames") } catch { throw .text(error) }
        }
    }

    /// get ready + warm-up + sets × (rounds × work + (rounds − 1) × rest) + (sets − 1) × set rest
    /// + cool-down: no rest follows the last round of a set.
    public var totalDuration: Duration {
        let oneSet = work * rounds + rest * (rounds - 1)
        return getReady + warmUp + oneSet * sets + setRest * (sets - 1) + coolDown
    }

    /// The exercise of `round` (1-based, within its set) of `set`, or `nil` when rounds are unnamed.
    ///
    /// Names cycle over the rounds of the whole workout, counted across sets: the k-th round
    /// (0-based) does `exerciseNames[k % exerciseNames.count]`.
    public func exercise(round: Int, set: Int) -> String? {
        guard !exerciseNames.isEmpty else { return nil }
        let index = (set - 1) * rounds + (round - 1)
        let count = exerciseNames.count
        return Self.trimmed(exerciseNames[(index % count + count) % count])
    }

    /// Estimated kilocalories after `elapsed` of the workout: the activity's rate × the minutes of
    /// workout time done, rests included, never more than the whole plan.
    public func estimatedEnergy(for elapsed: Duration) -> Double {
        let done = min(max(elapsed, .zero), totalDuration)
        return activity.kilocaloriesPerMinute * done.inSeconds / 60
    }

    private static func trimmed(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension WorkoutPlan {
    /// What the log keeps about a workout: the program (its name and id) and the shape of the plan.
    public var logDetails: [String: String] {
        var details = [
            "work": "\(work.wholeMilliseconds / 1000)", "rest": "\(rest.wholeMilliseconds / 1000)",
            "rounds": "\(rounds)", "activity": activity.rawValue,
        ]
        if sets > 1 { details["sets"] = "\(sets)" }
        if let programName { details["program"] = programName }
        if let programID { details[PracticeOrigin.programIDKey] = programID }
        return details
    }
}

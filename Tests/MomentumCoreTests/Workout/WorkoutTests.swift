import Foundation
import Testing

@testable import MomentumCore

@Suite("Interval workouts: bounds, totals, segments, programs and energy")
struct WorkoutTests {
    /// The default plan with one change, for tables of bounds.
    private static func plan(_ change: (inout WorkoutPlan) -> Void) -> WorkoutPlan {
        var plan = WorkoutPlan()
        change(&plan)
        return plan
    }

    private static let halfSecond = Duration.milliseconds(500)

    @Test(
        arguments: [
            ("get ready 0", plan { $0.getReady = .zero }, nil),
            ("get ready 60 s", plan { $0.getReady = .seconds(60) }, nil),
            ("get ready 61 s", plan { $0.getReady = .seconds(61) }, WorkoutError.getReadyOutOfRange),
            ("get ready −1 s", plan { $0.getReady = .seconds(-1) }, .getReadyOutOfRange),
            ("warm-up 0", plan { $0.warmUp = .zero }, nil),
            ("warm-up 30 min", plan { $0.warmUp = .minutes(30) }, nil),
            ("warm-up 30 min 1 s", plan { $0.warmUp = .minutes(30) + .seconds(1) }, .warmUpOutOfRange),
            ("warm-up −1 s", plan { $0.warmUp = .seconds(-1) }, .warmUpOutOfRange),
            ("work 0", plan { $0.work = .zero }, .workOutOfRange),
            ("work 0.5 s", plan { $0.work = halfSecond }, .workOutOfRange),
            ("work 1 s", plan { $0.work = .seconds(1) }, nil),
            ("work 600 s", plan { $0.work = .seconds(600) }, nil),
            ("work 601 s", plan { $0.work = .seconds(601) }, .workOutOfRange),
            ("rest 0", plan { $0.rest = .zero }, nil),
            ("rest 600 s", plan { $0.rest = .seconds(600) }, nil),
            ("rest 601 s", plan { $0.rest = .seconds(601) }, .restOutOfRange),
            ("rest −1 s", plan { $0.rest = .seconds(-1) }, .restOutOfRange),
            ("rounds 0", plan { $0.rounds = 0 }, .roundsOutOfRange),
            ("rounds 1", plan { $0.rounds = 1 }, nil),
            ("rounds 200", plan { $0.rounds = 200 }, nil),
            ("rounds 201", plan { $0.rounds = 201 }, .roundsOutOfRange),
            ("sets 0", plan { $0.sets = 0 }, .setsOutOfRange),
            ("sets 1", plan { $0.sets = 1 }, nil),
            ("sets 20", plan { $0.sets = 20 }, nil),
            ("sets 21", plan { $0.sets = 21 }, .setsOutOfRange),
            ("set rest 0", plan { $0.setRest = .zero }, nil),
            ("set rest 600 s", plan { $0.setRest = .seconds(600) }, nil),
            ("set rest 601 s", plan { $0.setRest = .seconds(601) }, .setRestOutOfRange),
            ("set rest −1 s", plan { $0.setRest = .seconds(-1) }, .setRestOutOfRange),
            ("cool-down 0", plan { $0.coolDown = .zero }, nil),
            ("cool-down 30 min", plan { $0.coolDown = .minutes(30) }, nil),
            ("cool-down 30 min 1 s", plan { $0.coolDown = .minutes(30) + .seconds(1) }, .coolDownOutOfRange),
            ("cool-down −1 s", plan { $0.coolDown = .seconds(-1) }, .coolDownOutOfRange),
            ("work 1.5 s", plan { $0.work = .milliseconds(1500) }, .notWholeSeconds),
            ("get ready 0.5 s", plan { $0.getReady = halfSecond }, .notWholeSeconds),
            ("cool-down 1 ms", plan { $0.coolDown = .milliseconds(1) }, .notWholeSeconds),
            ("200 names", plan { $0.exerciseNames = Array(repeating: "Squats", count: 200) }, nil),
            ("201 names", plan { $0.exerciseNames = Array(repeating: "Squats", count: 201) }, .tooManyExerciseNames),
            ("a blank name", plan { $0.exerciseNames = ["Plank", " \t "] }, .blankExerciseName),
            ("an empty name", plan { $0.exerciseNames = [""] }, .blankExerciseName),
            ("a 60-character name", plan { $0.exerciseNames = [String(repeating: "x", count: 60)] }, nil),
            ("a padded 60-character name", plan { $0.exerciseNames = ["  " + String(repeating: "ü", count: 60)] }, nil),
            (
                "a 61-character name", plan { $0.exerciseNames = [String(repeating: "x", count: 61)] },
                .exerciseNameTooLong
            ),
        ] as [(String, WorkoutPlan, WorkoutError?)])
    func everyFieldIsCheckedAtBothEdgesWithItsOwnError(_ label: String, _ plan: WorkoutPlan, _ expected: WorkoutError?)
    {
        do {
            try plan.validate()
            #expect(expected == nil, "\(label) should be refused")
        } catch {
            #expect(error == expected, "\(label)")
        }
        if let expected {
            #expect(throws: expected) { try plan.timeline() }
        }
    }

    @Test func theDefaultsAreTheSpecsTable() throws {
        let plan = WorkoutPlan()
        #expect(plan.getReady == .seconds(10))
        #expect(plan.warmUp == .zero)
        #expect(plan.work == .seconds(30))
        #expect(plan.rest == .seconds(10))
        #expect(plan.rounds == 10)
        #expect(plan.sets == 1)
        #expect(plan.setRest == .seconds(60))
        #expect(plan.coolDown == .zero)
        #expect(plan.exerciseNames.isEmpty)
        #expect(plan.activity == .hiit)
        try plan.validate()
    }

    @Test(
        arguments: [
            // Tabata: 10 + 8 · 20 + 7 · 10
            (WorkoutPlan(work: .seconds(20), rest: .seconds(10), rounds: 8), Duration.seconds(240)),
            // 10 + 3 · (3 · 40 + 2 · 20) + 2 · 60
            (
                WorkoutPlan(work: .seconds(40), rest: .seconds(20), rounds: 3, sets: 3, setRest: .seconds(60)),
                .seconds(610)
            ),
            // EMOM: no rest at all
            (WorkoutPlan(work: .seconds(60), rest: .zero, rounds: 10), .seconds(610)),
            (WorkoutPlan(getReady: .zero, work: .seconds(60), rest: .zero, rounds: 10), .seconds(600)),
            // Warm-up and cool-down count: 10 + 300 + (2 · 30 + 10) + 120
            (WorkoutPlan(warmUp: .minutes(5), rounds: 2, coolDown: .minutes(2)), .seconds(500)),
            // One round: no rest at all.
            (WorkoutPlan(getReady: .zero, work: .seconds(45), rounds: 1), .seconds(45)),
            // Sets without a rest between them.
            (
                WorkoutPlan(
                    getReady: .zero, work: .seconds(20), rest: .seconds(10), rounds: 2, sets: 2, setRest: .zero),
                .seconds(100)
            ),
        ])
    func totalsLeaveOutTheRestAfterTheLastRoundOfEverySet(_ plan: WorkoutPlan, _ total: Duration) throws {
        #expect(plan.totalDuration == total)
        #expect(try plan.timeline().totalDuration == total)
    }

    @Test func theTimelineAlwaysLastsThePlansTotal() throws {
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<200 {
            let names = ["Squats", "Lunges", "Burpees"].prefix(Int.random(in: 0...3, using: &generator))
            let plan = WorkoutPlan(
                getReady: .seconds(Int.random(in: 0...60, using: &generator)),
                warmUp: .seconds(Int.random(in: 0...3, using: &generator) * 60),
                work: .seconds(Int.random(in: 1...90, using: &generator)),
                rest: .seconds(Int.random(in: 0...40, using: &generator)),
                rounds: Int.random(in: 1...12, using: &generator),
                sets: Int.random(in: 1...4, using: &generator),
                setRest: .seconds(Int.random(in: 0...90, using: &generator)),
                coolDown: .seconds(Int.random(in: 0...2, using: &generator) * 60),
                exerciseNames: Array(names))
            let timeline = try plan.timeline()
            #expect(timeline.totalDuration == plan.totalDuration)
            #expect(timeline.segments.allSatisfy { ($0.duration ?? .zero) > .zero })
            #expect(timeline.segments.filter { $0.kind == .work }.count == plan.rounds * plan.sets)
            #expect(timeline.cues.allSatisfy { $0.offset >= .zero && $0.offset <= plan.totalDuration })
            // Never two sounds at once.
            let sounding = timeline.cues.filter { $0.sound != nil }.map(\.offset)
            #expect(Set(sounding).count == sounding.count, "\(plan)")
        }
    }

    @Test func workAndRestSegmentsCarryTheirRoundSetAndExercise() throws {
        let plan = WorkoutPlan(
            getReady: .seconds(10), work: .seconds(40), rest: .seconds(20), rounds: 3, sets: 2, setRest: .seconds(60),
            coolDown: .seconds(30), exerciseNames: ["Plank", " Crunches "])
        let timeline = try plan.timeline()
        #expect(
            timeline.segments.map(\.kind) == [
                .getReady, .work, .rest, .work, .rest, .work, .setRest, .work, .rest, .work, .rest, .work, .coolDown,
            ])
        let details = timeline.segments.map(\.detail)
        #expect(details.first == .some(nil))
        #expect(details.last == .some(nil))
        func detail(_ round: Int, _ set: Int, _ exercise: String) -> SegmentDetail {
            SegmentDetail(round: round, rounds: 3, set: set, sets: 2, exercise: exercise)
        }
        // A rest belongs to the round just finished, the set rest to the last round of set 1.
        #expect(
            Array(details[1...11]) == [
                detail(1, 1, "Plank"), detail(1, 1, "Plank"), detail(2, 1, "Crunches"), detail(2, 1, "Crunches"),
                detail(3, 1, "Plank"), detail(3, 1, "Plank"),
                detail(1, 2, "Crunches"), detail(1, 2, "Crunches"), detail(2, 2, "Plank"), detail(2, 2, "Plank"),
                detail(3, 2, "Crunches"),
            ])
        #expect(timeline.practice == .workout)
    }

    @Test func unnamedRoundsHaveNoExercise() throws {
        let timeline = try WorkoutPlan(rounds: 2).timeline()
        #expect(timeline.segments[1].detail == SegmentDetail(round: 1, rounds: 2, set: 1, sets: 1))
    }

    @Test func aWorkoutTimelineRoundTripsThroughJSONWithItsDetails() throws {
        let timeline = try WorkoutPlan(rounds: 2, sets: 2, exerciseNames: ["Plank"]).timeline()
        let data = try JSONEncoder().encode(timeline)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let segments = try #require(object["segments"] as? [[String: Any]])
        #expect(segments[0]["detail"] == nil)
        let detail = try #require(segments[1]["detail"] as? [String: Any])
        #expect(detail["round"] as? Int == 1)
        #expect(detail["sets"] as? Int == 2)
        #expect(detail["exercise"] as? String == "Plank")
        let cues = try #require(object["cues"] as? [[String: Any]])
        #expect(cues.compactMap { $0["sound"] as? String }.contains("shortBeep"))
        #expect(try JSONDecoder().decode(Timeline.self, from: data) == timeline)
    }

    @Test func energyIsTheActivitysRateTimesTheMinutesDone() {
        let tabata = WorkoutPlan(work: .seconds(20), rest: .seconds(10), rounds: 8)  // 4 min
        #expect(tabata.estimatedEnergy(for: tabata.totalDuration) == 48)
        #expect(tabata.estimatedEnergy(for: .seconds(90)) == 18)
        #expect(tabata.estimatedEnergy(for: .minutes(60)) == 48)
        #expect(tabata.estimatedEnergy(for: .seconds(-5)) == 0)
        var yoga = tabata
        yoga.activity = .yoga
        #expect(yoga.estimatedEnergy(for: .minutes(3)) == 12)
        #expect(WorkoutActivity.allCases.map(\.kilocaloriesPerMinute) == [12, 4, 8])
        #expect(StringCatalog.shared(for: .german)[WorkoutActivity.other.nameKey] == "Anderes Training")
    }
}

import Testing

@testable import MomentumCore

@Suite("Workout cues: lead-in, countdown beeps, halfway, announcements, finish")
struct WorkoutCueTests {
    private let english = StringCatalog.shared(for: .english)

    private func seconds(_ values: Double...) -> [Duration] {
        values.map { .milliseconds(Int64($0 * 1000)) }
    }

    private func offsets(_ timeline: Timeline, _ sound: CueSound) -> [Duration] {
        timeline.cues.filter { $0.sound == sound }.map(\.offset)
    }

    /// Every text cue as "offset: text" in English, in order.
    private func texts(_ timeline: Timeline) -> [String] {
        timeline.cues.compactMap { cue in
            cue.text.map { "\(cue.offset.wholeSeconds): \(english.text($0))" }
        }
    }

    /// Get ready 10, work 20, rest 10, three rounds: 90 s.
    private let small = WorkoutPlan(getReady: .seconds(10), work: .seconds(20), rest: .seconds(10), rounds: 3)

    @Test func aSmallPlansCueTable() throws {
        let timeline = try small.timeline()
        #expect(timeline.segments.map(\.kind) == [.getReady, .work, .rest, .work, .rest, .work])
        #expect(offsets(timeline, .leadIn) == seconds(0))
        #expect(
            offsets(timeline, .shortBeep)
                == seconds(7, 8, 9, 27, 28, 29, 37, 38, 39, 57, 58, 59, 67, 68, 69, 87, 88, 89))
        #expect(offsets(timeline, .longBeep) == seconds(10, 30, 40, 60, 70))
        #expect(offsets(timeline, .halfway) == seconds(20, 50, 80))
        #expect(offsets(timeline, .finish) == seconds(90))
        #expect(
            texts(timeline) == [
                "0: Get ready", "10: Work", "20: Halfway there", "30: Round 2 of 3", "40: Work", "50: Halfway there",
                "60: Last round", "70: Work", "80: Halfway there", "90: Well done — workout complete!",
            ])
        #expect(timeline.cues.count == 1 + 18 + 5 + 3 + 1)
    }

    @Test func roundAnnouncementsCarryTheNextRoundsNumbers() throws {
        let timeline = try small.timeline()
        let announcements = timeline.cues.compactMap(\.text).filter { $0.key.hasPrefix("workout.round") }
        #expect(announcements.map { $0.arguments["round"] } == ["2"])
        let german = StringCatalog.shared(for: .german)
        #expect(german.text(try #require(announcements.first)) == "Runde 2 von 3")
        #expect(
            try small.timeline().cues.contains {
                $0.text
                    == LocalizedText(
                        .workoutLastRound,
                        [
                            "round": "3", "rounds": "3", "set": "1", "sets": "1",
                        ])
            })
    }

    @Test(arguments: [(19, [Double]()), (20, [10.0]), (25, [12.5]), (600, [300.0])])
    func halfwaySoundsOnlyInWorkOfTwentySecondsOrMore(work: Int, expected: [Double]) throws {
        let timeline = try WorkoutPlan(getReady: .zero, work: .seconds(work), rounds: 1).timeline()
        #expect(offsets(timeline, .halfway) == expected.map { .milliseconds(Int64($0 * 1000)) })
    }

    @Test func exerciseNamesCycleAcrossRoundsAndSets() throws {
        let plan = WorkoutPlan(
            getReady: .seconds(10), work: .seconds(40), rest: .seconds(20), rounds: 3, sets: 2, setRest: .seconds(60),
            exerciseNames: ["Squats", "Lunges"])
        let timeline = try plan.timeline()
        #expect(
            timeline.segments.map(\.kind) == [
                .getReady, .work, .rest, .work, .rest, .work, .setRest, .work, .rest, .work, .rest, .work,
            ])
        #expect(
            texts(timeline).filter { !$0.contains("Halfway") } == [
                "0: Get ready",
                "10: Squats — go!", "50: Round 2 of 3", "50: Next: Lunges",
                "70: Lunges — go!", "110: Round 3 of 3", "110: Next: Squats",
                "130: Squats — go!", "170: Last set", "170: Next: Lunges",
                "230: Lunges — go!", "270: Round 2 of 3", "270: Next: Squats",
                "290: Squats — go!", "330: Last round", "330: Next: Lunges",
                "350: Lunges — go!", "390: Well done — workout complete!",
            ])
        // A long beep at every change into and out of work; the set rest is one too.
        #expect(offsets(timeline, .longBeep) == seconds(10, 50, 70, 110, 130, 170, 230, 270, 290, 330, 350))
        #expect(offsets(timeline, .finish) == seconds(390))
    }

    @Test func withThreeSetsTheMiddleSetRestAnnouncesTheNextSet() throws {
        let timeline = try WorkoutPlan(getReady: .zero, work: .seconds(5), rest: .seconds(5), rounds: 2, sets: 3)
            .timeline()
        let announcements = texts(timeline).filter { $0.contains("Set") || $0.contains("Last") || $0.contains("Round") }
        #expect(
            announcements == [
                "5: Round 2 of 2", "15: Set 2 of 3", "80: Round 2 of 2", "90: Last set", "155: Last round",
            ])
    }

    @Test func noRestFollowsTheLastRoundOfASetAndASetRestOfZeroJoinsWorkToWork() throws {
        let timeline = try WorkoutPlan(
            getReady: .zero, work: .seconds(20), rest: .seconds(10), rounds: 2, sets: 2, setRest: .zero
        ).timeline()
        #expect(timeline.segments.map(\.kind) == [.work, .rest, .work, .work, .rest, .work])
        #expect(timeline.segments.map(\.start) == seconds(0, 20, 30, 50, 70, 80))
        // The change between sets is still counted down.
        #expect(offsets(timeline, .longBeep) == seconds(20, 30, 50, 70, 80))
        #expect(offsets(timeline, .shortBeep).contains(.seconds(49)))
    }

    @Test func emomBeepsIntoEveryNewMinute() throws {
        let timeline = try WorkoutProgram.builtIn(id: "emom-10").plan.timeline()
        #expect(timeline.segments.map(\.kind) == [.getReady] + Array(repeating: .work, count: 10))
        #expect(offsets(timeline, .longBeep) == (0..<10).map { .seconds(10 + 60 * $0) })
        // Three before each of the ten starts and three before the finish.
        #expect(offsets(timeline, .shortBeep).count == 3 * 11)
        #expect(offsets(timeline, .shortBeep).suffix(3) == seconds(607, 608, 609))
        #expect(offsets(timeline, .halfway) == (0..<10).map { .seconds(40 + 60 * $0) })
        #expect(offsets(timeline, .finish) == seconds(610))
    }

    @Test func startingStraightWithWorkTheLeadInIsTheStartSignal() throws {
        let timeline = try WorkoutPlan(getReady: .zero, work: .seconds(10), rest: .seconds(5), rounds: 2).timeline()
        let first = timeline.cues.filter { $0.offset == .zero }
        #expect(first.map(\.sound) == [.leadIn])
        #expect(first.first?.text?.key == "workout.work")
        #expect(offsets(timeline, .longBeep) == seconds(10, 15))
    }

    @Test func noBeepFallsBeforeZeroOrOnASegmentsOwnStartWhenSegmentsAreShorterThanThreeSeconds() throws {
        let timeline = try WorkoutPlan(getReady: .seconds(2), work: .seconds(2), rest: .seconds(1), rounds: 2)
            .timeline()
        #expect(timeline.segments.map(\.start) == seconds(0, 2, 4, 5))
        #expect(offsets(timeline, .shortBeep) == seconds(1, 3, 6))
        #expect(offsets(timeline, .longBeep) == seconds(2, 4, 5))
        #expect(offsets(timeline, .leadIn) == seconds(0))
        #expect(offsets(timeline, .finish) == seconds(7))
    }

    @Test func warmUpAndCoolDownAreNamedAndOnlyWorkChangesBeep() throws {
        let timeline = try WorkoutPlan(
            getReady: .seconds(10), warmUp: .minutes(1), work: .seconds(30), rounds: 1, coolDown: .minutes(2)
        ).timeline()
        #expect(timeline.segments.map(\.kind) == [.getReady, .warmUp, .work, .coolDown])
        #expect(
            texts(timeline) == [
                "0: Get ready", "10: Warm-up", "70: Work", "85: Halfway there", "100: Cool-down",
                "220: Well done — workout complete!",
            ])
        // Get ready → warm-up is no work change: no beeps before 10 s.
        #expect(offsets(timeline, .shortBeep) == seconds(67, 68, 69, 97, 98, 99))
        #expect(offsets(timeline, .longBeep) == seconds(70, 100))
        #expect(offsets(timeline, .finish) == seconds(220))
    }
}

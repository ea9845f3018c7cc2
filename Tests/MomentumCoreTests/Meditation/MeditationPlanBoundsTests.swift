import Foundation
import Testing

@testable import MomentumCore

@Suite("Meditation plan bounds")
struct MeditationPlanBoundsTests {
    /// A plan changed in one field, and the error expected (nil: accepted).
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var change: @Sendable (inout MeditationPlan) -> Void
        var expected: MeditationPlanError?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "duration 1 s", change: { $0.duration = .seconds(1) }, expected: nil),
        Case(name: "duration 999 ms", change: { $0.duration = .milliseconds(999) }, expected: .durationTooShort),
        Case(name: "duration 0", change: { $0.duration = .zero }, expected: .durationTooShort),
        Case(name: "duration 10 h", change: { $0.duration = .seconds(36_000) }, expected: nil),
        Case(name: "duration 10 h 1 s", change: { $0.duration = .seconds(36_001) }, expected: .durationTooLong),
        Case(name: "countdown 0", change: { $0.countdown = .zero }, expected: nil),
        Case(name: "countdown -1 s", change: { $0.countdown = .seconds(-1) }, expected: .countdownNegative),
        Case(name: "countdown 60 s", change: { $0.countdown = .seconds(60) }, expected: nil),
        Case(name: "countdown 61 s", change: { $0.countdown = .seconds(61) }, expected: .countdownTooLong),
        Case(name: "interval every 1 min", change: { $0.intervalGongs = .every(minutes: 1) }, expected: nil),
        Case(
            name: "interval every 0 min", change: { $0.intervalGongs = .every(minutes: 0) }, expected: .intervalTooShort
        ),
        Case(
            name: "interval every 60 min",
            change: {
                $0.duration = .minutes(61)
                $0.intervalGongs = .every(minutes: 60)
            }, expected: nil),
        Case(
            name: "interval every 10 min in a 10 min sit", change: { $0.intervalGongs = .every(minutes: 10) },
            expected: .intervalGongAtOrAfterEnd(offset: .minutes(10), duration: .minutes(10))),
        Case(
            name: "interval every 9 min in a 10 min sit", change: { $0.intervalGongs = .every(minutes: 9) },
            expected: nil),
        Case(
            name: "interval every 60 min, open-ended",
            change: {
                $0.isOpenEnded = true
                $0.intervalGongs = .every(minutes: 60)
            }, expected: nil),
        Case(
            name: "offset at the end", change: { $0.intervalGongs = .offsets([.minutes(5), .minutes(10)]) },
            expected: .intervalGongAtOrAfterEnd(offset: .minutes(10), duration: .minutes(10))),
        Case(
            name: "offsets after the end name the first",
            change: { $0.intervalGongs = .offsets([.minutes(30), .minutes(12)]) },
            expected: .intervalGongAtOrAfterEnd(offset: .minutes(12), duration: .minutes(10))),
        Case(
            name: "offset 1 ms before the end",
            change: { $0.intervalGongs = .offsets([.minutes(10) - .milliseconds(1)]) }, expected: nil),
        Case(
            name: "interval every 61 min", change: { $0.intervalGongs = .every(minutes: 61) },
            expected: .intervalTooLong),
        Case(name: "offsets empty", change: { $0.intervalGongs = .offsets([]) }, expected: .intervalOffsetsEmpty),
        Case(name: "offset 1 ms", change: { $0.intervalGongs = .offsets([.milliseconds(1)]) }, expected: nil),
        Case(
            name: "offset 0", change: { $0.intervalGongs = .offsets([.zero]) }, expected: .intervalOffsetNotAfterStart),
        Case(
            name: "100 offsets", change: { $0.intervalGongs = .offsets((1...100).map { .seconds($0) }) },
            expected: nil),
        Case(
            name: "101 offsets", change: { $0.intervalGongs = .offsets((1...101).map { .seconds($0) }) },
            expected: .tooManyIntervalOffsets),
        Case(name: "reflection 0", change: { $0.reflection = .zero }, expected: nil),
        Case(name: "reflection -1 s", change: { $0.reflection = .seconds(-1) }, expected: .reflectionNegative),
        Case(name: "reflection 60 min", change: { $0.reflection = .minutes(60) }, expected: nil),
        Case(
            name: "reflection 60 min 1 s", change: { $0.reflection = .minutes(60) + .seconds(1) },
            expected: .reflectionTooLong),
        Case(name: "ambient rain", change: { $0.ambientID = "rain" }, expected: nil),
        Case(name: "ambient unknown", change: { $0.ambientID = "thunder" }, expected: .unknownAmbient("thunder")),
        Case(name: "volume 0", change: { $0.ambientVolume = 0 }, expected: nil),
        Case(name: "volume 1", change: { $0.ambientVolume = 1 }, expected: nil),
        Case(name: "volume 1.01", change: { $0.ambientVolume = 1.01 }, expected: .ambientVolumeOutOfRange),
        Case(name: "volume -0.01", change: { $0.ambientVolume = -0.01 }, expected: .ambientVolumeOutOfRange),
        Case(name: "volume NaN", change: { $0.ambientVolume = .nan }, expected: .ambientVolumeOutOfRange),
    ]

    @Test(arguments: cases)
    func eachBoundIsAcceptedAtItsEdgeAndRejectedJustPastIt(_ testCase: Case) {
        var plan = MeditationPlan()
        testCase.change(&plan)
        if let expected = testCase.expected {
            #expect(throws: expected) { try plan.timeline() }
        } else {
            #expect(throws: Never.self) { try plan.timeline() }
        }
    }

    @Test func defaultsMatchTheSpecification() throws {
        let plan = MeditationPlan()
        #expect(plan.duration == .minutes(10))
        #expect(plan.countdown == .seconds(15))
        #expect(plan.intervalGongs == .off)
        #expect(plan.reflection == .zero)
        #expect(plan.ambientID == "silent")
        #expect(plan.ambientVolume == 0.15)
        #expect(plan.isOpenEnded == false)
        #expect(try plan.timeline().totalDuration == .seconds(615))
    }

    @Test func planRoundTripsThroughJSONWithReadableUnits() throws {
        let plan = MeditationPlan(
            duration: .minutes(20), countdown: .seconds(5), intervalGongs: .offsets([.minutes(5), .minutes(12)]),
            reflection: .minutes(2), ambientID: "ocean", ambientVolume: 0.3, isOpenEnded: false)
        let data = try JSONEncoder().encode(plan)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["durationMs"] as? Int == 1_200_000)
        #expect(try JSONDecoder().decode(MeditationPlan.self, from: data) == plan)
    }
}

@Suite("Your last sit: saved sits leave it, a new length drops the gongs it brought that no longer fit")
struct LastSitRuleTests {
    let last = MeditationPlan(duration: .minutes(12), intervalGongs: .every(minutes: 4))
    let zazen = MeditationPlan(duration: .minutes(40), intervalGongs: .offsets([.minutes(25), .minutes(30)]))

    @Test func aSitOfYourOwnBecomesTheLastSitASavedSitLeavesIt() {
        #expect(MeditationPlan.lastSit(after: zazen, fromSavedSit: true, before: last) == last)
        #expect(MeditationPlan.lastSit(after: zazen, fromSavedSit: false, before: last) == zazen)
    }

    @Test func aNewLengthLeavesOutGongsThatNoLongerFitUnlessTheyWereChosenWithIt() throws {
        let short = zazen.withLength(.minutes(27), gongsChosenToo: false)
        #expect(short.intervalGongs == .offsets([.minutes(25)]))
        #expect(throws: Never.self) { try short.validate() }
        #expect(zazen.withLength(.minutes(3), gongsChosenToo: false).intervalGongs == .off)
        #expect(last.withLength(.minutes(3), gongsChosenToo: false).intervalGongs == .off)
        var open = zazen
        open.isOpenEnded = true
        #expect(!open.withLength(.minutes(50), gongsChosenToo: false).isOpenEnded)
        let chosen = zazen.withLength(.minutes(3), gongsChosenToo: true)
        #expect(chosen.intervalGongs == zazen.intervalGongs)
        #expect(throws: MeditationPlanError.intervalGongAtOrAfterEnd(offset: .minutes(25), duration: .minutes(3))) {
            try chosen.validate()
        }
    }
}

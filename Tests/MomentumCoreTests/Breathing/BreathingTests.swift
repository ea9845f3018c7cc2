import Foundation
import Testing

@testable import MomentumCore

@Suite("Guided breathing: patterns, lengths, presets and the timeline")
struct BreathingTests {
    @Test func theNineBuiltInPresetsAreTheSpecsTable() {
        let table = BreathingPreset.builtIn.map {
            "\($0.displayName(.shared(for: .english))) \($0.pattern.text) × \($0.rounds)"
        }
        #expect(
            table == [
                "Box breathing 4-4-4-4 × 10", "Calming breath 4-0-6-0 × 10", "Coherent breathing 5-0-5-0 × 12",
                "Deep calm 7-0-5-0 × 8", "Relaxing breath (4-7-8) 4-7-8-0 × 10", "Rhythmic breath 6-3-6-3 × 8",
                "Awake 6-0-2-0 × 15", "Pranayama 7-4-8-4 × 6", "Ujjayi 7-0-7-0 × 10",
            ])
        for preset in BreathingPreset.builtIn {
            #expect(throws: Never.self) { try preset.pattern.validate() }
            #expect(preset.isBuiltIn)
        }
        #expect(BreathingPreset.builtIn[0].displayName(.shared(for: .german)) == "Box-Atmung")
        #expect(BreathingPattern.newPreset.text == "4-0-4-0")
        #expect(BreathingPreset.newPresetRounds == 10)
    }

    @Test(
        arguments: [
            ("1-0-1-0", nil), ("60-60-60-60", nil), ("4.5-0-6.5-0.5", nil),
            ("0.5-0-4-0", BreathingError.inhaleOutOfRange), ("61-0-4-0", .inhaleOutOfRange),
            ("4-0-0-0", .exhaleOutOfRange), ("4-0-60.5-0", .exhaleOutOfRange), ("4-61-4-0", .holdOutOfRange),
            ("4-0-4--1", .unreadablePattern("4-0-4--1")), ("4.25-0-4-0", .notInHalfSecondSteps),
            ("4-0-4", .unreadablePattern("4-0-4")),
            ("4-x-4-0", .unreadablePattern("4-x-4-0")), ("nan-0-4-0", .unreadablePattern("nan-0-4-0")),
        ] as [(String, BreathingError?)])
    func patternBoundsAndHalfSecondSteps(_ text: String, _ expected: BreathingError?) {
        do {
            let pattern = try BreathingPattern(parsing: text)
            #expect(expected == nil, "\(text) should be refused")
            #expect(pattern.text == text)
        } catch {
            #expect(error == expected, "\(text)")
        }
    }

    @Test func lengthBoundsAndMinutesRoundToWholeRounds() throws {
        #expect(throws: BreathingError.roundsOutOfRange) { try BreathingLength.rounds(0).validate() }
        #expect(throws: BreathingError.roundsOutOfRange) { try BreathingLength.rounds(100).validate() }
        #expect(throws: BreathingError.minutesOutOfRange) { try BreathingLength.minutes(61).validate() }
        let box = try BreathingPattern(parsing: "4-4-4-4")  // 16 s
        #expect(BreathingLength.minutes(5).rounds(for: box) == 19)  // 300 / 16 = 18.75
        #expect(BreathingLength.minutes(1).rounds(for: try BreathingPattern(parsing: "60-60-60-60")) == 1)
        #expect(BreathingLength.rounds(7).rounds(for: box) == 7)
    }

    @Test func theTimelineIsGetReadyThenEveryPhaseOfEveryRoundWithZeroHoldsLeftOut() throws {
        let plan = BreathingPlan(pattern: try BreathingPattern(parsing: "4-7-8-0"), length: .rounds(4))
        let timeline = try plan.timeline()
        #expect(timeline.practice == .breathing)
        #expect(timeline.totalDuration == .seconds(3 + 19 * 4))
        #expect(timeline.leadIn == .seconds(3))
        #expect(plan.totalDuration == .seconds(76))
        #expect(timeline.segments.count == 1 + 12)
        #expect(timeline.segments.prefix(4).map(\.kind) == [.countdown, .inhale, .holdAfterInhale, .exhale])
        #expect(timeline.cues.map(\.offset).prefix(5) == [.zero, .seconds(3), .seconds(7), .seconds(14), .seconds(22)])
        // The get-ready is quiet; the first inhale's sound ends it.
        #expect(timeline.cues.prefix(4).map(\.sound) == [nil, .inhale, .hold, .exhale])
        let catalog = StringCatalog.shared(for: .english)
        #expect(catalog.text(try #require(timeline.cues.first?.text)) == "Get ready")
        #expect(StringCatalog.shared(for: .german).text(try #require(timeline.cues.first?.text)) == "Bereit machen")
        let last = try #require(timeline.cues.last?.text)
        #expect(catalog.text(last) == "Breathe out")
        #expect(last.arguments == ["round": "4", "rounds": "4"])
    }

    @Test(arguments: [(0, 0), (2, 0), (3, 0), (62.9, 59.9), (63, 60), (82, 76), (90, 76)] as [(Double, Double)])
    func theGetReadyIsNeitherBreathedNorLogged(elapsed: Double, logged: Double) throws {
        let timeline = try BreathingPlan(pattern: try BreathingPattern(parsing: "4-7-8-0"), length: .rounds(4))
            .timeline()
        let outcome = timeline.outcome(elapsed: .milliseconds(Int64(elapsed * 1000)))
        #expect(outcome.time == .milliseconds(Int64(logged * 1000)))
        #expect((outcome == .completed(.seconds(76))) == (elapsed >= 79))
    }

    @Test func aBoxBreathHasFourCuesPerRound() throws {
        let timeline = try BreathingPlan(pattern: try BreathingPattern(parsing: "4-4-4-4"), length: .minutes(1))
            .timeline()
        #expect(timeline.cues.compactMap(\.sound).count == 16)  // 60 / 16 = 3.75 → 4 rounds
        #expect(Set(timeline.cues.compactMap(\.sound)) == [.inhale, .hold, .exhale])
    }

    @Test func ownPresetsNeedANameAndValidValues() throws {
        #expect(throws: BreathingError.emptyPresetName) {
            try BreathingPreset(id: "a", name: "  ", pattern: .newPreset, rounds: 10)
        }
        #expect(throws: BreathingError.roundsOutOfRange) {
            try BreathingPreset(id: "a", name: "Mine", pattern: .newPreset, rounds: 0)
        }
        let mine = try BreathingPreset(
            id: "a", name: " Evening ", pattern: try BreathingPattern(parsing: "4-2-6-0"), rounds: 12)
        #expect(mine.name == "Evening")
        #expect(mine.displayName(.shared(for: .german)) == "Evening")
        #expect(mine.plan(catalog: .shared(for: .english)).presetName == "Evening")
    }
}

import Foundation
import Testing

@testable import MomentumCore

@Suite("A character keyed on a straight key: presses and releases, complete after the pause, read by length")
struct MorseStraightKeyedCharacterTests {
    typealias Instant = ContinuousClock.Instant
    static let start = ContinuousClock().now

    static func at(_ seconds: Double) -> Instant {
        start.advanced(by: .milliseconds(Int64((seconds * 1000).rounded())))
    }

    static func item(_ text: String) throws -> MorseDrillItem {
        MorseDrillItem(symbols: try MorseText(text).words.flatMap { $0 })
    }

    @Test func pressesAndReleasesBecomeSignalsAndTheCharacterCompletesTwoSecondsAfterTheLastRelease() {
        var keyed = MorseStraightKeyedCharacter<Instant>(promptedAt: Self.at(0))
        // Let go of a key that was down before the prompt: nothing.
        keyed.release(at: Self.at(0.1))
        #expect(keyed.signals.isEmpty)
        keyed.press(at: Self.at(1))
        keyed.press(at: Self.at(1.1))  // an auto-repeat: no new press
        #expect(keyed.completesAt == nil)
        keyed.release(at: Self.at(1.18))
        keyed.press(at: Self.at(1.24))
        keyed.release(at: Self.at(1.30))
        #expect(
            keyed.signals == [.pressed(.milliseconds(180)), .released(.milliseconds(60)), .pressed(.milliseconds(60))])
        #expect(keyed.completesAt == Self.at(3.30))
        #expect(!keyed.isComplete(at: Self.at(3.29)))
        #expect(keyed.isComplete(at: Self.at(3.30)))
        // Held down again: not complete while the key is down.
        keyed.press(at: Self.at(3.0))
        #expect(keyed.completesAt == nil)
        keyed.clear(at: Self.at(3.2))
        #expect(keyed.signals.isEmpty)
        keyed.release(at: Self.at(3.4))
        #expect(keyed.signals == [.pressed(.milliseconds(200))])
    }

    @Test(arguments: [15.0, 20, 25, 30])
    func aCharacterKeyedAtAnySpeedReadsRightAndSaysHowItWasKeyed(wpm: Double) throws {
        let unit = 1.2 / wpm
        var decoder = try MorseTimingDecoder(expectedWPM: 20)
        var keyed = MorseStraightKeyedCharacter<Instant>(promptedAt: Self.at(0))
        var at = 0.5
        for mark in "-.-" {
            keyed.press(at: Self.at(at))
            at += mark == "-" ? 3 * unit : unit
            keyed.release(at: Self.at(at))
            at += unit
        }
        let (attempt, report) = try #require(keyed.attempt(for: try Self.item("K"), decoder: &decoder))
        #expect(attempt.answer == "K")
        #expect(attempt.score.isCorrect)
        #expect(attempt.responseTime == Self.at(0).duration(to: Self.at(at - unit)))
        let keying = try #require(report)
        #expect(abs(keying.wpm - wpm) / wpm < 0.05, "\(keying.wpm) for \(wpm)")
        #expect(abs((keying.ditDahRatio ?? 0) - 3) < 0.15)
    }

    @Test func nothingKeyedIsNoAttempt() throws {
        var decoder = try MorseTimingDecoder(expectedWPM: 20)
        let keyed = MorseStraightKeyedCharacter<Instant>(promptedAt: Self.at(0))
        #expect(keyed.attempt(for: try Self.item("K"), decoder: &decoder) == nil)
    }
}

import Foundation
import Testing

@testable import MomentumCore

/// The page keys paddles with `js/morse-keyer.js` (it must run in the audio thread); its rules are
/// this keyer's. Both are checked against one table, `browser-tests/keyer-fixtures.json` (the
/// browser side by `browser-tests/test_morse_keys.py`).
@Suite("The paddle keyer and the table the browser shares")
struct PaddleKeyerTests {
    struct Fixtures: Decodable {
        /// A paddle going down or up, or `advance` (the decisions before `at` are made).
        struct Event: Decodable {
            var paddle: String?
            var down: Bool?
            var advance: Bool?
            var at: Double
        }
        struct Element: Decodable {
            var mark: String
            var start: Double
            var end: Double
        }
        struct Case: Decodable {
            var name: String
            var wpm: Double
            var mode: PaddleKeyer.Mode
            var until: Double
            var events: [Event]
            var elements: [Element]
        }
        var cases: [Case]
    }

    static func fixtures() throws -> Fixtures {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("browser-tests/keyer-fixtures.json")
        return try JSONDecoder().decode(Fixtures.self, from: try Data(contentsOf: url))
    }

    static func mark(_ text: String) throws -> MorseMark {
        try #require(MorseMark.marks(from: text)?.first)
    }

    static func milliseconds(_ duration: Duration) -> Double { duration.inSeconds * 1000 }

    static func duration(milliseconds: Double) -> Duration { .microseconds(Int64((milliseconds * 1000).rounded())) }

    @Test func everyCaseOfTheSharedTableKeysTheSameElements() throws {
        let fixtures = try Self.fixtures()
        #expect(fixtures.cases.count >= 15)
        for mode in PaddleKeyer.Mode.allCases {
            #expect(fixtures.cases.contains { $0.mode == mode }, "the table has no case for \(mode)")
        }
        for fixture in fixtures.cases {
            var keyer = try PaddleKeyer(characterWPM: fixture.wpm, mode: fixture.mode)
            for event in fixture.events {
                let at = Self.duration(milliseconds: event.at)
                if event.advance == true {
                    keyer.advance(to: at)
                } else if event.down == true {
                    keyer.press(try Self.mark(try #require(event.paddle)), at: at)
                } else {
                    keyer.release(try Self.mark(try #require(event.paddle)), at: at)
                }
            }
            keyer.advance(to: Self.duration(milliseconds: fixture.until))
            let elements = keyer.elements
            #expect(elements.count == fixture.elements.count, "\(fixture.name)")
            for (made, expected) in zip(elements, fixture.elements) {
                #expect(made.mark == (try Self.mark(expected.mark)), "\(fixture.name)")
                #expect(abs(Self.milliseconds(made.start) - expected.start) < 0.001, "\(fixture.name)")
                #expect(abs(Self.milliseconds(made.end) - expected.end) < 0.001, "\(fixture.name)")
            }
        }
    }

    @Test func aSqueezeInModeBIsTheLetterCAndInModeAItIsK() throws {
        for (mode, letter) in [(PaddleKeyer.Mode.iambicA, "K"), (.iambicB, "C")] {
            var keyer = try PaddleKeyer(characterWPM: 20, mode: mode)
            keyer.press(.dah, at: .zero)
            keyer.press(.dit, at: .milliseconds(30))
            keyer.release(.dit, at: .milliseconds(400))
            keyer.release(.dah, at: .milliseconds(400))
            keyer.advance(to: .seconds(2))
            #expect(MorseCode.symbol(for: keyer.elements.map(\.mark))?.displayText == letter)
            #expect(keyer.decidesAt == nil, "idle once the paddles are let go")
        }
    }

    @Test func elementsAreExactUnitsAtEverySpeedAndTheKeyerWaitsForItsDecision() throws {
        for wpm in [5.0, 13, 20, 27.5, 60] {
            var keyer = try PaddleKeyer(characterWPM: wpm, mode: .iambicB)
            let unit = try MorseTiming(characterWPM: wpm, effectiveWPM: wpm).unit
            keyer.press(.dah, at: .milliseconds(5))
            keyer.advance(to: .seconds(30))
            #expect(keyer.decidesAt != nil, "a held paddle keeps the keyer busy")
            for (index, element) in keyer.elements.enumerated() {
                #expect(element.mark == .dah)
                #expect(element.end - element.start == unit * 3)
                #expect(element.start == .milliseconds(5) + unit * (4 * index))
            }
            let count = keyer.elements.count
            keyer.release(.dah, at: .seconds(30))
            keyer.advance(to: .seconds(40))
            #expect(keyer.elements.count == count, "let go, nothing more is sent")
        }
    }

    @Test func aSpeedOutsideTheCoursesIsRefused() {
        #expect(throws: MorseError.characterSpeedOutOfRange(4)) { try PaddleKeyer(characterWPM: 4, mode: .iambicA) }
        #expect(throws: MorseError.self) { try PaddleKeyer(characterWPM: .nan, mode: .iambicA) }
    }
}

import Foundation
import Testing

@testable import MomentumCore

/// The browser ticks a countdown's clock itself between two server answers (`clock()` in
/// `js/i18n.js`); it must read as the core's. Both are checked against one table,
/// `browser-tests/clock-fixtures.json` (the browser side by `browser-tests/test_server_rules.py`).
@Suite("The clock table the browser shares")
struct ClockFixtureTests {
    struct Fixtures: Decodable {
        struct Case: Decodable {
            var ms: Int64
            var text: String
        }
        var cases: [Case]
    }

    @Test func theCoreClockReadsEveryCaseOfTheSharedTable() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("browser-tests/clock-fixtures.json")
        let fixtures = try JSONDecoder().decode(Fixtures.self, from: try Data(contentsOf: url))
        #expect(fixtures.cases.count >= 10)
        for fixture in fixtures.cases {
            #expect(DurationFormatting.clock(.milliseconds(fixture.ms)) == fixture.text, "\(fixture.ms) ms")
        }
    }
}

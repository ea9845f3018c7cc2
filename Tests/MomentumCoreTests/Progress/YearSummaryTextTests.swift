import Foundation
import Testing

@testable import MomentumCore

/// The year's summary line says its days with the language's plural, not "1 days".
@Suite("The year's summary in words")
struct YearSummaryTextTests {
    func map(sitsOn daysAgo: [Int]) throws -> YearHeatMap {
        var log = try LogBuilder()
        try log.sits(on: daysAgo)
        return try YearHeatMap(year: log.today.year, totals: log.totals, settings: ProgressSettings(), category: nil)
    }

    @Test func oneDayIsOneDayInBothLanguages() throws {
        let year = try map(sitsOn: [0])
        #expect(year.summary == (practised: 1, counted: 1, goalReached: 1))
        #expect(year.summaryText(language: .english) == "Practised on 1 day, 1 of them counted, goal reached on 1.")
        #expect(year.summaryText(language: .german) == "An einem Tag geübt, davon 1 gezählt, an 1 das Ziel erreicht.")
    }

    @Test func moreDaysTakeThePlural() throws {
        let year = try map(sitsOn: [0, 1])
        #expect(year.summaryText(language: .english) == "Practised on 2 days, 2 of them counted, goal reached on 2.")
        #expect(year.summaryText(language: .german) == "An 2 Tagen geübt, davon 2 gezählt, an 2 das Ziel erreicht.")
    }
}

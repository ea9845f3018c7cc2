import Foundation
import Testing

@testable import MomentumCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("Progress charts: the same numbers as the streak and the calendar, drawn as SVG")
struct ProgressChartTests {
    func report(_ log: LogBuilder) -> ProgressReport {
        var settings = ProgressSettings()
        settings.timeZoneIdentifier = LogBuilder.berlin.identifier
        return ProgressReport(
            records: log.records, settings: settings, systemTimeZone: .gmt,
            now: log.calendar.start(of: log.today).addingTimeInterval(20 * 3600))
    }

    @Test func theStreakChartWalksLikeTheStreakWithJokerDaysFlatAndBreaksToZero() throws {
        var log = try LogBuilder()
        // 8 days (a joker), a one-day gap (joker spent), 2 days, a two-day gap (broken), then yesterday;
        // today is still open, so it shows yesterday's length.
        try log.sits(on: [14, 13, 12, 11, 10, 9, 8, 7, 5, 4, 1])
        let chart = ProgressChart(.streak, category: .mindfulness, days: 16, report: report(log))
        #expect(chart.points.map(\.value) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 9, 10, 0, 0, 1, 1])
        #expect(chart.points.last?.day == log.today)
        #expect(chart.points.last?.value == Double(log.streak().current))
    }

    @Test func forRandomLogsTheChartsEndWhereTheStreakAndStrengthAre() throws {
        var generator = SeededGenerator(seed: 99)
        for _ in 0..<40 {
            var log = try LogBuilder()
            for ago in 0..<60 where Int.random(in: 0..<10, using: &generator) < 7 {
                try log.add(daysAgo: ago, seconds: Int.random(in: 0...900, using: &generator))
            }
            let report = report(log)
            let streak = ProgressChart(.streak, category: .mindfulness, days: 60, report: report)
            #expect(streak.points.last?.value == Double(report.streak(for: .mindfulness).current))
            #expect(streak.points.map(\.value).max() ?? 0 <= Double(report.streak(for: .mindfulness).longest))
            let strength = ProgressChart(.strength, category: .mindfulness, days: 60, report: report)
            let current = report.strength(for: .mindfulness).current
            #expect(strength.points.last?.value == (current * 1000).rounded() / 10)
            let minutes = ProgressChart(.minutes, category: .mindfulness, days: 60, report: report)
            for point in minutes.points {
                #expect(point.value == Double(report.totals[point.day].roundedMinutes(in: .mindfulness)))
            }
        }
    }

    @Test(arguments: ProgressChart.Kind.allCases)
    func theSVGIsWellFormedAndNamesItself(_ kind: ProgressChart.Kind) throws {
        var log = try LogBuilder()
        try log.sits(on: [9, 8, 7, 3, 2, 1, 0])
        try log.add(daysAgo: 4, seconds: 3000)
        let chart = ProgressChart(kind, category: .mindfulness, days: 30, report: report(log))
        let svg = ChartSVG.render(chart, catalog: .shared(for: .english))
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("role=\"img\""))
        #expect(svg.contains("<title id=\"title\">"))
        if kind == .minutes {
            // One bar per day with practice, and the goal line.
            #expect(svg.components(separatedBy: "<rect x=").count - 1 == 8)
            #expect(svg.contains("goal 10 min"))
        }
        #expect(ChartSVG.render(chart, catalog: .shared(for: .english)) == svg)
    }

    @Test func axesStepInRoundWholeNumbers() {
        #expect(ChartSVG.scale(0) == (1, 1))
        #expect(ChartSVG.scale(4) == (4, 1))
        #expect(ChartSVG.scale(7) == (8, 2))
        #expect(ChartSVG.scale(25) == (25, 5))
        #expect(ChartSVG.scale(26) == (30, 10))
        #expect(ChartSVG.scale(75) == (80, 20))
        #expect(ChartSVG.scale(130) == (150, 50))
    }
}

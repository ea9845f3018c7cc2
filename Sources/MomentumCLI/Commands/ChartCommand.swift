import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum chart streak|strength|minutes -o FILE.svg`: a progress chart as SVG.
struct ChartCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "chart",
        abstract: "Save a streak, habit strength or minutes chart as SVG.",
        discussion: "The same numbers as `momentum streak` and `momentum calendar`, over the last days up to today.")

    @Argument(help: ArgumentHelp("streak, strength or minutes.", valueName: "chart"))
    var kind: ProgressChart.Kind

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("The SVG file to write (- for standard output).", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("mindfulness, workout, morse or focus (default: mindfulness).", valueName: "category"))
    var category = "mindfulness"

    @Option(help: ArgumentHelp("How many days up to today, 7–3660 (default: 90).", valueName: "days"))
    var days = 90

    @Flag(help: "Print the chart's numbers as JSON.")
    var json = false

    @OptionGroup var common: CommonOptions

    func run(in context: CommandContext) async throws {
        try await context.withSession(common) { session in
            let catalog = session.catalog
            guard ProgressChart.dayCounts.contains(days) else {
                throw CommandFailure(catalog.format(.errorChartDays, ["value": String(days)]))
            }
            guard output != nil || json else { throw CommandFailure(catalog[.errorChartNeedsOutput]) }
            let chosen = try LogArguments.category(category, catalog: catalog)
            let report = try await session.services.progress.report()
            if kind == .streak && report.settings.hideStreaks {
                // Hidden streaks are hidden here too: no numbers, no picture, and the way back.
                if json {
                    context.output.write(try JSONOutput.encode(ChartJSON(hiddenStreakOf: chosen)) + "\n")
                } else {
                    context.output.write(catalog[.streakHiddenShowHow] + "\n")
                }
                return
            }
            let chart = ProgressChart(kind, category: chosen, days: days, report: report)
            if let output {
                let target = OutputTarget(output)
                try await target.write(to: context, catalog: catalog) { url in
                    try Data(ChartSVG.render(chart, catalog: catalog).utf8).write(to: url, options: .atomic)
                }
                if !json {
                    target.confirmations(context).write(
                        catalog.format(.chartWritten, ["path": target.name(catalog)]) + "\n")
                }
            }
            if json { context.output.write(try JSONOutput.encode(ChartJSON(chart)) + "\n") }
        }
    }

    struct ChartJSON: Encodable {
        struct Point: Encodable {
            var day: String
            var value: Double
        }
        var chart: ProgressChart.Kind
        var category: PracticeCategory
        var goal: Double?
        /// Absent for a streak chart while streaks are hidden.
        var points: [Point]?
        var streaksHidden: Bool?

        init(_ chart: ProgressChart) {
            self.chart = chart.kind
            category = chart.category
            goal = chart.goal
            points = chart.points.map { Point(day: $0.day.description, value: $0.value) }
        }

        /// A streak chart while the person hides streaks: no points, only that they are hidden.
        init(hiddenStreakOf category: PracticeCategory) {
            chart = .streak
            self.category = category
            streaksHidden = true
        }
    }
}

extension ProgressChart.Kind: ExpressibleByArgument {}

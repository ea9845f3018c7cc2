import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum streak`: current and longest streaks, jokers and habit strength per category.
struct StreakCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "streak", abstract: "Show your streaks, jokers and habit strength.")

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var common: CommonOptions

    func run(in context: CommandContext) async throws {
        let session = try await context.openSession(common)
        let catalog = session.catalog
        let report = try await session.services.progress.report()
        let hidden = report.settings.hideStreaks
        if json {
            // The HTTP API's streaks view (`GET /api/v1/progress/streaks`).
            context.output.write(try JSONOutput.encode(StreaksView(report, language: catalog.language)) + "\n")
            return
        }
        var text = ""
        for category in PracticeCategory.allCases {
            let streak = report.streak(for: category)
            let strength = catalog.format(
                .streakStrength, ["percent": "\(Int((report.strength(for: category).current * 100).rounded()))"])
            guard !hidden else {
                text += "\(catalog[category.nameKey]): \(strength)\n"
                continue
            }
            var parts = [
                catalog.format(
                    .streakLine,
                    [
                        "category": catalog[category.nameKey], "current": days(streak.current, catalog),
                        "longest": days(streak.longest, catalog),
                    ])
            ]
            if report.settings.jokersEnabled {
                parts.append(
                    catalog.format(
                        .streakJokers, ["held": "\(streak.jokersHeld)", "maximum": "\(Streak.maximumJokers)"]))
            }
            parts.append(strength)
            text += parts.joined(separator: " · ") + "\n"
        }
        let mindfulness = report.streak(for: .mindfulness)
        if hidden {
            text += catalog[.streakHidden] + "\n"
        } else if mindfulness.current > 0 && !mindfulness.todayCounts {
            text +=
                catalog.format(
                    .streakTodayOpen,
                    ["minutes": "\(DailyTotals.minimumCountingMinutes)", "category": catalog[.categoryMindfulness]])
                + "\n"
        }
        context.output.write(text)
    }

    private func days(_ count: Int, _ catalog: StringCatalog) -> String { catalog.days(count) }
}

/// `momentum stats`: totals and averages for a period.
struct Stats: ContextualCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show totals and averages for this week, month, year or all time.")

    enum PeriodFlag: String, EnumerableFlag {
        case week, month, year, all
    }

    @Flag(help: "The period (default: --week).")
    var period: PeriodFlag = .week

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var common: CommonOptions

    func run(in context: CommandContext) async throws {
        let session = try await context.openSession(common)
        let catalog = session.catalog
        let statisticsPeriod: PracticeStatistics.Period =
            switch period {
            case .week: .week
            case .month: .month
            case .year: .year
            case .all: .allTime
            }
        let statistics = try await session.services.progress.report().statistics(for: statisticsPeriod)
        if json {
            context.output.write(try JSONOutput.encode(statistics.jsonForm) + "\n")
            return
        }
        let title: StringKey =
            switch period {
            case .week: .statsPeriodWeek
            case .month: .statsPeriodMonth
            case .year: .statsPeriodYear
            case .all: .statsPeriodAll
            }
        var text = "\(catalog[title]) (\(statistics.from) – \(statistics.through))\n"
        guard statistics.total.sessions > 0 else {
            context.output.write(text + catalog[.statsNothing] + "\n")
            return
        }
        func words(_ seconds: Double) -> String {
            DurationFormatting.words(.seconds(Int64(seconds.rounded())), language: catalog.language)
        }
        func line(_ label: String, _ totals: PracticeStatistics.Totals, indent: String = "") -> [String] {
            [
                indent + label, words(Double(totals.seconds)),
                catalog.counted(totals.sessions, one: .statsOneSession, many: .statsSessions),
                catalog.counted(totals.activeDays, one: .statsOneActiveDay, many: .statsActiveDays),
            ]
        }
        var rows = [line(catalog[.statsTotal], statistics.total)]
        rows.append([catalog[.statsPerDay], words(statistics.averageSecondsPerDay), "", ""])
        rows.append([catalog[.statsPerSession], words(statistics.averageSecondsPerSession), "", ""])
        for category in PracticeCategory.allCases {
            guard let totals = statistics.byCategory[category] else { continue }
            rows.append(line(catalog[category.nameKey], totals))
            for kind in PracticeKind.allCases where kind.category == category {
                guard let kindTotals = statistics.byKind[kind] else { continue }
                rows.append(line(catalog[kind.nameKey], kindTotals, indent: "  "))
            }
        }
        text += TextTable.render(rows)
        context.output.write(text)
    }
}

/// Column-aligned text: every column as wide as its widest cell (in terminal columns, so wide
/// East Asian characters count twice), trailing spaces trimmed.
enum TextTable {
    static func render(_ rows: [[String]]) -> String {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in
            rows.map { column < $0.count ? $0[column].terminalWidth : 0 }.max() ?? 0
        }
        return rows.map { row in
            row.enumerated().map { $1.padded(toColumns: widths[$0]) }
                .joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }.joined(separator: "\n") + "\n"
    }
}

/// Pretty, key-sorted JSON for `--json` output.
/// Every command's `--json`: pretty, keys sorted, instants in ISO 8601.
enum JSONOutput {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

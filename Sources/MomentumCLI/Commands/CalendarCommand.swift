import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum calendar`: a month grid or a year heat map.
struct CalendarCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "Show a month of practice, or a year as a heat map.",
        discussion: "Colours on a terminal unless NO_COLOR is set; plain marks when the output is not a terminal."
    )

    @Option(help: ArgumentHelp("The month to show, YYYY-MM (default: this month).", valueName: "month"))
    var month: String?

    @Option(help: ArgumentHelp("Show a whole year as a heat map, YYYY.", valueName: "year"))
    var year: String?

    @Option(help: ArgumentHelp("mindfulness, workout, morse or focus (default: mindfulness).", valueName: "category"))
    var category = "mindfulness"

    @Flag(help: "Print JSON instead of a picture.")
    var json = false

    @OptionGroup var common: CommonOptions

    func run(in context: CommandContext) async throws {
        try await context.withSession(common) { session in
            let catalog = session.catalog
            if month != nil && year != nil {
                throw CommandFailure(
                    catalog.format(.errorConflictingOptions, ["first": "--month", "second": "--year"]))
            }
            let chosen = try LogArguments.category(category, catalog: catalog)
            let report = try await session.services.progress.report()
            let colours = context.isInteractive && context.environment["NO_COLOR"] == nil
            if let year {
                guard let number = CalendarPeriodText.year(year) else {
                    throw CommandFailure(catalog.format(.errorInvalidYear, ["value": year]))
                }
                let map = try report.heatMap(year: number, category: chosen)
                // The JSON is the HTTP API's year view (`GET /api/v1/progress/year`).
                context.output.write(
                    json
                        ? try JSONOutput.encode(
                            YearHeatMapView(map, category: chosen, today: report.today, language: catalog.language))
                            + "\n"
                        : HeatMapPicture.render(map, catalog: catalog, colours: colours))
                return
            }
            let (yearNumber, monthNumber) = try monthArgument(today: report.today, catalog: catalog)
            let grid = try report.month(year: yearNumber, month: monthNumber)
            // The JSON is the HTTP API's month view (`GET /api/v1/progress/calendar`).
            context.output.write(
                json
                    ? try JSONOutput.encode(CalendarMonthView(grid, today: report.today)) + "\n"
                    : MonthPicture.render(grid, category: chosen, catalog: catalog, colours: colours))
        }
    }

    private func monthArgument(today: Day, catalog: StringCatalog) throws -> (Int, Int) {
        guard let month else { return (today.year, today.month) }
        guard let named = CalendarPeriodText.month(month) else {
            throw CommandFailure(catalog.format(.errorInvalidMonth, ["value": month]))
        }
        return named
    }
}

/// Earth-tone ANSI colours for the terminal pictures.
enum Palette {
    /// Background colours for fill levels 1 … 4, light sand to deep brown (256-colour palette).
    static let levels = [223, 180, 137, 94]
    static let joker = 179

    static func background(_ colour: Int, _ text: String, bold: Bool = false) -> String {
        "\u{1B}[48;5;\(colour)m\u{1B}[38;5;\(colour >= 137 ? 230 : 236)m" + (bold ? "\u{1B}[1m" : "") + text
            + "\u{1B}[0m"
    }

    static func underline(_ text: String) -> String { "\u{1B}[4m" + text + "\u{1B}[24m" }
}

/// The month grid as text.
enum MonthPicture {
    static func render(_ month: CalendarMonth, category: PracticeCategory, catalog: StringCatalog, colours: Bool)
        -> String
    {
        let title = catalog.language.monthName(month.month) + " \(month.year)"
        var text = title + " · " + catalog[category.nameKey] + "\n"
        text += " " + catalog[.calendarWeekdays].split(separator: " ").joined(separator: "  ") + "\n"
        for week in month.weeks {
            var line = ""
            for cell in week {
                guard let cell else {
                    line += "    "
                    continue
                }
                line += Self.cell(cell, category: category, colours: colours)
            }
            text += line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) + "\n"
        }
        text += legend(catalog: catalog, colours: colours) + "\n"
        return text
    }

    /// What the marks mean: brackets and parentheses in plain text; in colour, a swatch of each
    /// fill (under half the day's goal, half or more, the goal met) and of a joker.
    static func legend(catalog: StringCatalog, colours: Bool) -> String {
        guard colours else { return catalog[.calendarLegend] }
        let swatches = [
            (Palette.levels[1], catalog[.calendarLegendSome]), (Palette.levels[2], catalog[.calendarLegendHalf]),
            (Palette.levels[3], catalog[.calendarLegendGoal]), (Palette.joker, catalog[.calendarLegendJoker]),
        ]
        return swatches.map { Palette.background($0.0, "  ") + " " + $0.1 }.joined(separator: " · ")
    }

    static func cell(_ cell: CalendarMonth.CalendarDay, category: PracticeCategory, colours: Bool) -> String {
        let number = cell.day.dayOfMonth < 10 ? " \(cell.day.dayOfMonth)" : "\(cell.day.dayOfMonth)"
        let counted = cell.counts.contains(category)
        let joker = cell.streak[category] == .jokerUsed
        guard colours else {
            if counted { return "[\(number)]" }
            if joker { return "(\(number))" }
            return " \(number) "
        }
        let padded = " \(number) "
        if counted {
            let fill = cell.fill[category] ?? 1
            let level = fill >= 1 ? 3 : fill >= 0.5 ? 2 : 1
            let drawn = Palette.background(Palette.levels[level], padded, bold: cell.isToday)
            return cell.isToday ? Palette.underline(drawn) : drawn
        }
        if joker { return Palette.background(Palette.joker, padded) }
        return cell.isToday ? Palette.underline(padded) : padded
    }
}

/// The year heat map as text: the year in two halves (January to June, July to December), each
/// seven rows (Monday to Sunday) of a column per week under a line of month names, so it fits a
/// 40-column terminal; a legend drawn with the same marks.
enum HeatMapPicture {
    static let plainMarks: [Character] = ["·", "░", "▒", "▓", "█"]

    static func render(_ map: YearHeatMap, catalog: StringCatalog, colours: Bool) -> String {
        guard !map.levels.isEmpty else { return "" }
        let weekdays = catalog[.calendarWeekdays].split(separator: " ").map(String.init)
        var text = "\(map.year)\n"
        let halves = [map.levels.filter { $0.day.month <= 6 }, map.levels.filter { $0.day.month > 6 }]
        for (index, half) in halves.enumerated() where !half.isEmpty {
            if index > 0 { text += "\n" }
            text += Self.half(half, weekdays: weekdays, catalog: catalog, colours: colours)
        }
        let marks = (1...4).map { mark(level: $0, colours: colours) }.joined(separator: " ")
        text += catalog.format(.calendarHeatLegend, ["marks": marks]) + "\n"
        return text
    }

    static func mark(level: Int, colours: Bool) -> String {
        guard colours else { return String(plainMarks[level]) }
        return level == 0 ? "·" : Palette.background(Palette.levels[level - 1], " ")
    }

    private static func half(
        _ levels: [(day: Day, level: Int)], weekdays: [String], catalog: StringCatalog, colours: Bool
    ) -> String {
        guard let first = levels.first?.day else { return "" }
        let offset = first.isoWeekday - 1
        let weeks = (offset + levels.count + 6) / 7
        var grid = Array(repeating: Array(repeating: " ", count: weeks), count: 7)
        // Each month's short name over the week its first day falls in, when there is room.
        var names = Array(repeating: Character(" "), count: weeks + 3)
        var free = 0
        for (index, entry) in levels.enumerated() {
            let position = index + offset
            grid[position % 7][position / 7] = mark(level: entry.level, colours: colours)
            guard entry.day.dayOfMonth == 1, position / 7 >= free else { continue }
            let name = Array(catalog.language.monthName(entry.day.month).prefix(3))
            for (at, character) in name.enumerated() where position / 7 + at < names.count {
                names[position / 7 + at] = character
            }
            free = position / 7 + name.count + 1
        }
        var text = "   " + String(names).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) + "\n"
        for (row, marks) in grid.enumerated() {
            let line = (row < weekdays.count ? weekdays[row] : "  ") + " " + marks.joined()
            text += line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) + "\n"
        }
        return text
    }
}

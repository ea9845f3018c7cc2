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
            let report = try session.services.progress.report()
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
        if !colours { text += catalog[.calendarLegend] + "\n" }
        return text
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

/// The year heat map as text: seven rows (Monday to Sunday), a column per week.
enum HeatMapPicture {
    static let plainMarks: [Character] = ["·", "░", "▒", "▓", "█"]

    static func render(_ map: YearHeatMap, catalog: StringCatalog, colours: Bool) -> String {
        guard let first = map.levels.first?.day else { return "" }
        let offset = first.isoWeekday - 1
        let weeks = (offset + map.levels.count + 6) / 7
        var grid = Array(repeating: Array(repeating: " ", count: weeks), count: 7)
        for (index, entry) in map.levels.enumerated() {
            let position = index + offset
            let mark: String
            if colours {
                mark = entry.level == 0 ? "·" : Palette.background(Palette.levels[entry.level - 1], " ")
            } else {
                mark = String(plainMarks[entry.level])
            }
            grid[position % 7][position / 7] = mark
        }
        let weekdays = catalog[.calendarWeekdays].split(separator: " ")
        var text = "\(map.year)\n"
        for (row, marks) in grid.enumerated() {
            text += (row < weekdays.count ? String(weekdays[row]) : "  ") + " " + marks.joined() + "\n"
        }
        text += catalog[.calendarHeatLegend] + "\n"
        return text
    }
}

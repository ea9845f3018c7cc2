import Foundation

/// Draws a ``ProgressChart`` as a standalone SVG file a browser shows: bars for minutes (with the
/// goal as a dashed line), a step line for the streak, a filled line for habit strength. Warm
/// earth tones, a title and a description for screen readers.
public enum ChartSVG {
    static let width = 720.0
    static let height = 320.0
    static let left = 52.0
    static let right = 20.0
    static let top = 52.0
    static let bottom = 40.0

    enum Colour {
        static let background = "#FBF6EE"
        static let text = "#3E2F23"
        static let muted = "#8A7664"
        static let grid = "#E6DACB"
        static let mark = "#9C5B34"
        static let area = "#E9C9A8"
        static let goal = "#5E7F4E"
    }

    public static func render(_ chart: ProgressChart, catalog: StringCatalog) -> String {
        let points = chart.points
        let category = catalog[chart.category.nameKey]
        let days = String(points.count)
        let titleKey: StringKey =
            switch chart.kind {
            case .streak: .chartTitleStreak
            case .strength: .chartTitleStrength
            case .minutes: .chartTitleMinutes
            }
        let title = catalog.format(titleKey, ["category": category, "days": days])
        let highest = points.map(\.value).max() ?? 0
        let (top, tick) = chart.kind == .strength ? (100.0, 25.0) : scale(max(highest, chart.goal ?? 0, 1))
        let plotWidth = width - left - right
        let plotHeight = height - Self.top - bottom
        let step = plotWidth / Double(max(points.count, 1))
        func x(_ index: Int) -> Double { left + step * (Double(index) + 0.5) }
        func y(_ value: Double) -> Double { Self.top + plotHeight * (1 - value / top) }

        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(number(width)) \(number(height))" \
            width="\(number(width))" height="\(number(height))" role="img" aria-labelledby="title description" \
            font-family="system-ui, -apple-system, 'Segoe UI', sans-serif">

            """
        svg += "<title id=\"title\">\(escaped(title))</title>\n"
        let description = catalog.format(
            .chartDescription,
            [
                "first": points.first?.day.description ?? "", "last": points.last?.day.description ?? "",
                "highest": valueText(highest, chart.kind), "today": valueText(points.last?.value ?? 0, chart.kind),
            ])
        svg += "<desc id=\"description\">\(escaped(description))</desc>\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"\(Colour.background)\"/>\n"
        svg +=
            "<text x=\"\(number(left))\" y=\"28\" font-size=\"16\" font-weight=\"600\" fill=\"\(Colour.text)\">"
            + "\(escaped(title))</text>\n"
        // Grid and the value axis: round steps from 0 to the top.
        for index in 0...Int((top / tick).rounded()) {
            let value = tick * Double(index)
            let lineY = y(value)
            svg +=
                "<line x1=\"\(number(left))\" y1=\"\(number(lineY))\" x2=\"\(number(width - right))\" "
                + "y2=\"\(number(lineY))\" stroke=\"\(Colour.grid)\" stroke-width=\"1\"/>\n"
            svg +=
                "<text x=\"\(number(left - 8))\" y=\"\(number(lineY + 4))\" font-size=\"11\" text-anchor=\"end\" "
                + "fill=\"\(Colour.muted)\">\(escaped(valueText(value, chart.kind)))</text>\n"
        }
        // Day labels: first, middle and last.
        for index in Set([0, points.count / 2, points.count - 1]).sorted() where points.indices.contains(index) {
            let anchor = index == 0 ? "start" : index == points.count - 1 ? "end" : "middle"
            let labelX = index == 0 ? left : index == points.count - 1 ? width - right : x(index)
            svg +=
                "<text x=\"\(number(labelX))\" y=\"\(number(height - 14))\" font-size=\"11\" "
                + "text-anchor=\"\(anchor)\" fill=\"\(Colour.muted)\">\(points[index].day)</text>\n"
        }
        switch chart.kind {
        case .minutes:
            let barWidth = max(1, step * 0.7)
            for (index, point) in points.enumerated() where point.value > 0 {
                svg +=
                    "<rect x=\"\(number(x(index) - barWidth / 2))\" y=\"\(number(y(point.value)))\" "
                    + "width=\"\(number(barWidth))\" height=\"\(number(y(0) - y(point.value)))\" rx=\"\(number(min(3, barWidth / 3)))\" "
                    + "fill=\"\(Colour.mark)\"><title>\(point.day): \(valueText(point.value, .minutes))</title></rect>\n"
            }
            if let goal = chart.goal {
                svg +=
                    "<line x1=\"\(number(left))\" y1=\"\(number(y(goal)))\" x2=\"\(number(width - right))\" "
                    + "y2=\"\(number(y(goal)))\" stroke=\"\(Colour.goal)\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n"
                svg +=
                    "<text x=\"\(number(width - right))\" y=\"28\" font-size=\"12\" "
                    + "text-anchor=\"end\" fill=\"\(Colour.goal)\">"
                    + "\(escaped(catalog.format(.chartGoal, ["minutes": valueText(goal, .streak)])))</text>\n"
            }
        case .streak:
            var path = ""
            for (index, point) in points.enumerated() {
                let startX = x(index) - step / 2
                path += index == 0 ? "M\(number(startX)) \(number(y(point.value)))" : " V\(number(y(point.value)))"
                path += " H\(number(startX + step))"
            }
            svg +=
                "<path d=\"\(path)\" fill=\"none\" stroke=\"\(Colour.mark)\" stroke-width=\"2.5\" "
                + "stroke-linejoin=\"round\"/>\n"
        case .strength:
            let line = points.enumerated().map { "\(number(x($0.offset))) \(number(y($0.element.value)))" }
            if let first = line.first, points.count > 1 {
                let area =
                    "M\(number(x(0))) \(number(y(0))) L" + line.joined(separator: " L")
                    + " L\(number(x(points.count - 1))) \(number(y(0))) Z"
                svg += "<path d=\"\(area)\" fill=\"\(Colour.area)\" opacity=\"0.6\"/>\n"
                svg +=
                    "<path d=\"M\(first) L\(line.dropFirst().joined(separator: " L"))\" fill=\"none\" "
                    + "stroke=\"\(Colour.mark)\" stroke-width=\"2.5\" stroke-linejoin=\"round\"/>\n"
            }
        }
        return svg + "</svg>\n"
    }

    /// The axis for whole numbers up to `highest`: a step of 1, 2 or 5 × 10ⁿ (at least 1) giving
    /// at most five steps, and the top as a whole number of steps.
    static func scale(_ highest: Double) -> (top: Double, step: Double) {
        let raw = max(highest, 1) / 5
        let magnitude = pow(10, log10(raw).rounded(.down))
        var step = 10 * magnitude
        for factor in [1.0, 2, 5] where factor * magnitude >= raw - 1e-9 {
            step = factor * magnitude
            break
        }
        step = max(1, step)
        return ((max(highest, 1) / step).rounded(.up) * step, step)
    }

    static func valueText(_ value: Double, _ kind: ProgressChart.Kind) -> String {
        let rounded = (value * 10).rounded() / 10
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return kind == .strength ? text + " %" : text
    }

    /// Coordinates with at most two decimals, so files stay small and identical across runs.
    static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

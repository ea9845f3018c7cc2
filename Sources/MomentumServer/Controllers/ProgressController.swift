import Foundation
import Hummingbird
import MomentumCore
import MomentumServices
import Synchronization

/// `/api/v1/progress/…`: calendar month, year heat map, streaks and statistics — the same core
/// report `momentum calendar`, `streak` and `stats` print.
///
/// Answers are kept, encoded, while the store's revision and the day stay the same: a browser
/// asking again (or many asking at once) costs one small read and a lookup.
struct ProgressController {
    let progress: ProgressService
    let answers = AnswerCache()

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("calendar", use: calendar)
        group.get("year", use: year)
        group.get("streaks", use: streaks)
        group.get("statistics", use: statistics)
        group.get("today", use: today)
    }

    /// Today in the category of `?kind=` (a practice kind, e.g. `meditation`) or `?category=`
    /// (default mindfulness): what a practice's completion view shows.
    @Sendable func today(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let language = LanguageChoice.accepted(by: request) ?? .english
        let category: PracticeCategory
        if let text = request.uri.queryParameters["kind"] {
            guard let kind = PracticeKind(rawValue: String(text)) else {
                throw APIError.invalid(
                    .errorUnknownKind,
                    [
                        "value": String(text.prefix(20)),
                        "choices": PracticeKind.allCases.map(\.rawValue).joined(separator: ", "),
                    ])
            }
            category = kind.category
        } else {
            category = try Self.category(request) ?? .mindfulness
        }
        return try await answer(request, variant: language.rawValue) { report in
            TodayView(report, category: category, language: language)
        }
    }

    @Sendable func calendar(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await answer(request) { report in try Self.month(request, report: report) }
    }

    private static func month(_ request: Request, report: ProgressReport) throws -> CalendarMonthView {
        var (year, month) = (report.today.year, report.today.month)
        if let text = request.uri.queryParameters["month"] {
            guard let named = CalendarPeriodText.month(String(text)) else {
                throw APIError.badRequest(.apiMonthFormat)
            }
            (year, month) = named
        }
        return CalendarMonthView(try report.month(year: year, month: month), today: report.today)
    }

    @Sendable func year(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let language = LanguageChoice.accepted(by: request) ?? .english
        return try await answer(request, variant: language.rawValue) { report in
            try Self.heatMap(request, report: report, language: language)
        }
    }

    private static func heatMap(_ request: Request, report: ProgressReport, language: Language) throws
        -> YearHeatMapView
    {
        var year = report.today.year
        if let text = request.uri.queryParameters["year"] {
            guard let named = CalendarPeriodText.year(String(text)) else {
                throw APIError.badRequest(.apiYearFormat)
            }
            year = named
        }
        let category = try Self.category(request)
        return YearHeatMapView(
            try report.heatMap(year: year, category: category), category: category, today: report.today,
            language: language)
    }

    @Sendable func streaks(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let language = LanguageChoice.accepted(by: request) ?? .english
        return try await answer(request, variant: language.rawValue) { report in StreaksView(report, language: language)
        }
    }

    @Sendable func statistics(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let language = LanguageChoice.accepted(by: request) ?? .english
        return try await answer(request, variant: language.rawValue) { report in
            StatisticsView(statistics: try Self.statistics(request, report: report), language: language)
        }
    }

    /// The statistics as `momentum stats --json` prints them, plus each duration in words (the
    /// core's `DurationFormatting.words`, in the `Accept-Language` language): `totalText`,
    /// `averagePerDayText`, `averagePerSessionText` and `byKindText`.
    struct StatisticsView: Encodable {
        var statistics: PracticeStatistics
        var language: Language

        private enum CodingKeys: String, CodingKey {
            case totalText, averagePerDayText, averagePerSessionText, byKindText
        }

        func encode(to encoder: any Encoder) throws {
            try statistics.jsonForm.encode(to: encoder)
            func words(_ seconds: Double) -> String {
                DurationFormatting.words(.seconds(Int64(seconds.rounded())), language: language)
            }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(words(Double(statistics.total.seconds)), forKey: .totalText)
            try container.encode(words(statistics.averageSecondsPerDay), forKey: .averagePerDayText)
            try container.encode(words(statistics.averageSecondsPerSession), forKey: .averagePerSessionText)
            try container.encode(
                Dictionary(
                    uniqueKeysWithValues: statistics.byKind.map { ($0.key.rawValue, words(Double($0.value.seconds))) }),
                forKey: .byKindText)
        }
    }

    private static func statistics(_ request: Request, report: ProgressReport) throws -> PracticeStatistics {
        let period: PracticeStatistics.Period
        switch request.uri.queryParameters["period"].map(String.init) ?? "week" {
        case "week": period = .week
        case "month": period = .month
        case "year": period = .year
        case "all": period = .allTime
        case let other: throw APIError.invalid(.apiPeriodChoice, ["value": String(other.prefix(20))])
        }
        return report.statistics(for: period)
    }

    private static func category(_ request: Request) throws -> PracticeCategory? {
        guard let text = request.uri.queryParameters["category"] else { return nil }
        guard let category = PracticeCategory(rawValue: String(text)) else {
            throw APIError.invalid(
                .errorUnknownCategory,
                [
                    "value": String(text.prefix(20)),
                    "choices": PracticeCategory.allCases.map(\.rawValue).joined(separator: ", "),
                ])
        }
        return category
    }

    /// The kept answer to `request`, else `make`'s value encoded and kept. Refusals (thrown) are
    /// not kept.
    /// `variant` tells apart answers to the same query that differ by more (their language).
    private func answer(
        _ request: Request, variant: String = "", _ make: (ProgressReport) throws -> some Encodable
    ) async throws -> Response {
        let (revision, report) = try await progress.revisedReport()
        let era = AnswerCache.Era(revision: revision, day: report.today)
        let key = "\(variant) \(request.uri.path)?\(request.uri.query ?? "")"
        if let data = answers.data(era: era, key: key) { return JSONBody.response(data) }
        let data = try JSONResponse<Int>.encoder.encode(make(report))
        answers.keep(data, era: era, key: key)
        return JSONBody.response(data)
    }
}

/// Encoded answers of one era (store revision and day); a new era starts empty. Bounded, so odd
/// queries cannot grow it without end.
final class AnswerCache: Sendable {
    static let capacity = 256

    struct Era: Equatable {
        var revision: Int64
        var day: Day
    }

    private let state = Mutex<(era: Era?, answers: [String: Data])>((nil, [:]))

    func data(era: Era, key: String) -> Data? {
        state.withLock { $0.era == era ? $0.answers[key] : nil }
    }

    func keep(_ data: Data, era: Era, key: String) {
        state.withLock { state in
            if state.era != era { state = (era, [:]) }
            if state.answers.count < Self.capacity { state.answers[key] = data }
        }
    }
}

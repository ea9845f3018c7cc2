// The wire form of a period's statistics, as `momentum stats --json` and
// `GET /api/v1/progress/statistics` answer it: averages rounded to hundredths, categories and
// kinds as object keys.

extension PracticeStatistics {
    public struct JSONForm: Encodable, Sendable {
        public var period: Period
        public var from: Day
        public var through: Day
        public var days: Int
        public var total: Totals
        public var averageSecondsPerDay: Double
        public var averageSecondsPerSession: Double
        public var byCategory: [PracticeCategory: Totals]
        public var byKind: [PracticeKind: Totals]
    }

    public var jsonForm: JSONForm {
        JSONForm(
            period: period, from: from, through: through, days: dayCount, total: total,
            averageSecondsPerDay: (averageSecondsPerDay * 100).rounded() / 100,
            averageSecondsPerSession: (averageSecondsPerSession * 100).rounded() / 100,
            byCategory: byCategory, byKind: byKind)
    }
}

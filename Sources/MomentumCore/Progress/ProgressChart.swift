/// The numbers behind a progress chart: one value per day for a category, over the last days up
/// to today. Computed from the same ``ProgressReport`` as the calendar and the streak, so a chart
/// never disagrees with them.
public struct ProgressChart: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable, Codable {
        /// The streak's length at the end of each day (a joker day keeps it, a break resets it).
        case streak
        /// Habit strength, 0 … 100 %.
        case strength
        /// Counted minutes per day, with the goal as a line.
        case minutes
    }

    public struct Point: Sendable, Equatable {
        public var day: Day
        public var value: Double
    }

    public var kind: Kind
    public var category: PracticeCategory
    public var points: [Point]
    /// The daily goal (minutes charts of categories with a goal).
    public var goal: Double?

    public static let dayCounts = 7...3660

    public init(_ kind: Kind, category: PracticeCategory, days: Int, report: ProgressReport) {
        self.kind = kind
        self.category = category
        let first = report.today.adding(days: 1 - days)
        let range = (0..<days).map { first.adding(days: $0) }
        switch kind {
        case .minutes:
            goal = report.settings.goal(for: category).map(Double.init)
            points = range.map { Point(day: $0, value: Double(report.totals[$0].roundedMinutes(in: category))) }
        case .strength:
            goal = nil
            let series = report.strength(for: category).series
            points = range.map { day in
                // Before the first counting day: 0; after the last settled day (today, while still
                // open): the last score.
                let index = series.first.map { $0.day.days(to: day) } ?? -1
                let score = index < 0 ? 0 : series[min(index, series.count - 1)].score
                return Point(day: day, value: (score * 1000).rounded() / 10)
            }
        case .streak:
            goal = nil
            let walked = report.streak(for: category).days
            let lengths = walked.lengths
            points = range.map { day in
                let index = walked.first.days(to: day)
                // Before the first counting day: 0; after the walk (today, still open): yesterday's length.
                let length = index < 0 || lengths.isEmpty ? 0 : lengths[min(index, lengths.count - 1)]
                return Point(day: day, value: Double(length))
            }
        }
    }
}

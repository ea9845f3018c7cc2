/// Totals and averages over a period, per kind and per category, read from the daily totals.
public struct PracticeStatistics: Sendable, Equatable {
    public enum Period: String, Sendable, Codable, CaseIterable {
        case week, month, year, allTime
    }

    /// Seconds and sessions of a slice of the log.
    public struct Totals: Sendable, Equatable, Codable {
        public var seconds = 0
        public var sessions = 0
        /// Days in the period with any of this practice.
        public var activeDays = 0
    }

    public var period: Period
    public var from: Day
    public var through: Day
    public var total: Totals
    public var byKind: [PracticeKind: Totals]
    public var byCategory: [PracticeCategory: Totals]

    /// Days in the period so far (from its first day through today).
    public var dayCount: Int { from.days(to: through) + 1 }
    /// Average counted seconds per day of the period so far.
    public var averageSecondsPerDay: Double { Double(total.seconds) / Double(max(1, dayCount)) }
    /// Average counted seconds per session.
    public var averageSecondsPerSession: Double {
        total.sessions == 0 ? 0 : Double(total.seconds) / Double(total.sessions)
    }

    /// The period that contains `today`, through today: this week (from Monday), month, year, or
    /// everything since the first record.
    public init(totals: DailyTotals, period: Period, today: Day) {
        let start: Day
        switch period {
        case .week: start = today.startOfWeek
        case .month: start = today.startOfMonth
        case .year: start = today.startOfYear
        case .allTime: start = min(totals.firstDay ?? today, today)
        }
        self.init(totals: totals, period: period, from: start, through: today)
    }

    /// Any range of days, both ends included.
    public init(totals: DailyTotals, period: Period, from: Day, through: Day) {
        self.period = period
        self.from = from
        self.through = through
        var total = Totals()
        var byKind: [PracticeKind: Totals] = [:]
        var byCategory: [PracticeCategory: Totals] = [:]
        // Only the days the log spans can hold practice.
        let first = max(from, totals.firstDay ?? through.adding(days: 1))
        let last = min(through, totals.lastDay ?? from.adding(days: -1))
        var day = first
        while day <= last {
            let dayTotal = totals[day]
            day = day.adding(days: 1)
            guard !dayTotal.isEmpty else { continue }
            for kind in PracticeKind.allCases where dayTotal.sessions[kind] > 0 {
                byKind[kind, default: Totals()].seconds += dayTotal.seconds[kind]
                byKind[kind, default: Totals()].sessions += dayTotal.sessions[kind]
                byKind[kind, default: Totals()].activeDays += 1
            }
            for category in PracticeCategory.allCases where dayTotal.sessions(in: category) > 0 {
                byCategory[category, default: Totals()].seconds += dayTotal.seconds(in: category)
                byCategory[category, default: Totals()].sessions += dayTotal.sessions(in: category)
                byCategory[category, default: Totals()].activeDays += 1
            }
            total.seconds += dayTotal.totalSeconds
            total.sessions += dayTotal.totalSessions
            total.activeDays += 1
        }
        self.total = total
        self.byKind = byKind
        self.byCategory = byCategory
    }
}

import Foundation

/// Everything the progress views show, computed from one log and one set of settings as of now.
///
/// Every picture reads the same ``DailyTotals``: what you see is what is counted.
///
/// ```swift
/// let report = ProgressReport(records: log, settings: settings.progress, systemTimeZone: .current, now: now)
/// report.streak(for: .mindfulness).current
/// ```
public struct ProgressReport: Sendable {
    public let settings: ProgressSettings
    public let totals: DailyTotals
    public let today: Day

    public init(entries: [PracticeEntry], settings: ProgressSettings, systemTimeZone: TimeZone, now: Date) {
        let calendar = settings.dayCalendar(systemTimeZone: systemTimeZone)
        self.settings = settings
        self.totals = DailyTotals(entries: entries, calendar: calendar)
        self.today = calendar.day(of: now)
    }

    public init(records: [PracticeRecord], settings: ProgressSettings, systemTimeZone: TimeZone, now: Date) {
        self.init(entries: records.map(\.entry), settings: settings, systemTimeZone: systemTimeZone, now: now)
    }

    public func streak(for category: PracticeCategory) -> Streak {
        Streak(totals: totals, category: category, today: today, jokersEnabled: settings.jokersEnabled)
    }

    /// The streak of `category` as people may see it: `nil` while they hide streaks.
    public func shownStreak(for category: PracticeCategory) -> Streak? {
        settings.hideStreaks ? nil : streak(for: category)
    }

    public func strength(for category: PracticeCategory) -> HabitStrength {
        HabitStrength(totals: totals, category: category, today: today)
    }

    public func statistics(for period: PracticeStatistics.Period) -> PracticeStatistics {
        PracticeStatistics(totals: totals, period: period, today: today)
    }

    public func month(year: Int, month: Int) throws(DayError) -> CalendarMonth {
        try CalendarMonth(year: year, month: month, totals: totals, settings: settings, streaks: streaks, today: today)
    }

    /// This week, Monday to Sunday, as the calendar draws its days: the glance at the top of
    /// Progress (days still to come are marked `isFuture`).
    public func week() -> [CalendarMonth.CalendarDay] {
        let monday = today.startOfWeek
        let streaks = streaks
        return (0..<7).map { offset in
            CalendarMonth.CalendarDay(
                day: monday.adding(days: offset), totals: totals, settings: settings, streaks: streaks, today: today)
        }
    }

    private var streaks: [PracticeCategory: Streak] {
        Dictionary(uniqueKeysWithValues: PracticeCategory.allCases.map { ($0, streak(for: $0)) })
    }

    public func heatMap(year: Int, category: PracticeCategory?) throws(DayError) -> YearHeatMap {
        try YearHeatMap(year: year, totals: totals, settings: settings, category: category)
    }
}

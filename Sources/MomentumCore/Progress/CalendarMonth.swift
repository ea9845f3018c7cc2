/// A month as the calendar draws it: weeks from Monday to Sunday, each day with its minutes,
/// whether it counts, its fill and what it did for the streak.
public struct CalendarMonth: Sendable, Equatable {
    public var year: Int
    public var month: Int
    /// Weeks, Monday first; `nil` pads the days before the 1st and after the last.
    public var weeks: [[CalendarDay?]]

    /// One day of the calendar.
    public struct CalendarDay: Sendable, Equatable {
        public var day: Day
        /// Rounded minutes per category that has practice that day.
        public var minutes: [PracticeCategory: Int]
        /// Categories the day counts for (the same rule the streak walks by).
        public var counts: Set<PracticeCategory>
        /// Fill per category with a goal, for counting days.
        public var fill: [PracticeCategory: Double]
        /// What the day did for each category's streak (absent when streaks are hidden).
        public var streak: [PracticeCategory: Streak.StreakDay]
        public var isToday: Bool
        public var isFuture: Bool

        /// `day` as the calendar draws it, from the same totals the streaks walk.
        public init(
            day: Day, totals: DailyTotals, settings: ProgressSettings, streaks: [PracticeCategory: Streak], today: Day
        ) {
            let total = totals[day]
            var minutes: [PracticeCategory: Int] = [:]
            var counts = Set<PracticeCategory>()
            var fill: [PracticeCategory: Double] = [:]
            var streak: [PracticeCategory: Streak.StreakDay] = [:]
            for category in PracticeCategory.allCases {
                if total.sessions(in: category) > 0 { minutes[category] = total.roundedMinutes(in: category) }
                if total.counts(for: category) { counts.insert(category) }
                fill[category] = settings.fill(of: total, for: category)
                if !settings.hideStreaks { streak[category] = streaks[category]?.days[day] }
            }
            self.day = day
            self.minutes = minutes
            self.counts = counts
            self.fill = fill
            self.streak = streak
            isToday = day == today
            isFuture = day > today
        }
    }

    public init(
        year: Int, month: Int, totals: DailyTotals, settings: ProgressSettings, streaks: [PracticeCategory: Streak],
        today: Day
    ) throws(DayError) {
        let first = try Day(year: year, month: month, day: 1)
        self.year = year
        self.month = month
        let count = Day.daysIn(month: month, year: year)
        var cells: [CalendarDay?] = Array(repeating: nil, count: first.isoWeekday - 1)
        for offset in 0..<count {
            cells.append(
                CalendarDay(
                    day: first.adding(days: offset), totals: totals, settings: settings, streaks: streaks,
                    today: today))
        }
        while cells.count % 7 != 0 { cells.append(nil) }
        weeks = stride(from: 0, to: cells.count, by: 7).map { Array(cells[$0..<$0 + 7]) }
    }
}

/// A year of days as a heat map: 0 = nothing, 1 = practice that does not count yet, 2–4 = a
/// counting day with a fill below ½, below 1, or the goal met (Morse days, which have no goal,
/// count as 3).
public struct YearHeatMap: Sendable, Equatable {
    public var year: Int
    public var levels: [(day: Day, level: Int)]

    public init(year: Int, totals: DailyTotals, settings: ProgressSettings, category: PracticeCategory?)
        throws(DayError)
    {
        self.year = year
        let first = try Day(year: year, month: 1, day: 1)
        let last = try Day(year: year, month: 12, day: 31)
        let categories = category.map { [$0] } ?? PracticeCategory.allCases
        levels = (0...first.days(to: last)).map { offset in
            let day = first.adding(days: offset)
            return (day, Self.level(totals[day], categories: categories, settings: settings))
        }
    }

    static func level(_ total: DayTotal, categories: [PracticeCategory], settings: ProgressSettings) -> Int {
        var level = 0
        for category in categories {
            guard total.sessions(in: category) > 0 else { continue }
            guard total.counts(for: category) else {
                level = max(level, 1)
                continue
            }
            guard let fill = settings.fill(of: total, for: category) else {
                level = max(level, 3)
                continue
            }
            level = max(level, fill >= 1 ? 4 : fill >= 0.5 ? 3 : 2)
        }
        return level
    }

    /// The days with any practice, those that counted, and those that reached the goal.
    public var summary: (practised: Int, counted: Int, goalReached: Int) {
        levels.reduce(into: (0, 0, 0)) { counts, day in
            if day.level >= 1 { counts.0 += 1 }
            if day.level >= 2 { counts.1 += 1 }
            if day.level == 4 { counts.2 += 1 }
        }
    }

    /// "Practised on 1 day, 1 of them counted, goal reached on 0." with the language's plural.
    public func summaryText(language: Language) -> String {
        let catalog = StringCatalog.shared(for: language)
        let (practised, counted, goal) = summary
        return catalog.format(
            practised == 1 ? .progressHeatSummaryOne : .progressHeatSummary,
            [
                "practised": language.number(Double(practised)), "counted": language.number(Double(counted)),
                "goal": language.number(Double(goal)),
            ])
    }

    public static func == (lhs: YearHeatMap, rhs: YearHeatMap) -> Bool {
        lhs.year == rhs.year && lhs.levels.elementsEqual(rhs.levels) { $0.day == $1.day && $0.level == $1.level }
    }
}

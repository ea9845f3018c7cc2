import Foundation
import MomentumCore

/// The views of progress both front ends show: `GET /api/v1/progress/streaks|calendar|year`
/// answer them, and `momentum streak|calendar --json` print the very same JSON. Field names and
/// units are the HTTP API's (the browser reads them); a field only one front end needs is added
/// here, for both.

/// Streaks, jokers and habit strength per category. Numbers are left out when the person hides
/// streaks (`hidden: true`).
public struct StreaksView: Codable, Sendable, Equatable {
    public var hidden: Bool
    public var jokersEnabled: Bool
    public var maximumJokers: Int
    /// Keyed by category: `mindfulness`, `workout`, `morse`, `focus`.
    public var categories: [String: Row]

    /// Today in every category (mindfulness, workout, morse, focus, in this order): minutes
    /// against the goal, whether today counts, the streak, each with its sentence.
    public var today: [TodayView]

    /// This week, Monday to Sunday, each day as the calendar draws it (the glance at the top of
    /// Progress); days to come have `isFuture`.
    public var week: [CalendarMonthView.DayCell]
    /// "3 days counted" (days of this week that counted in any category).
    public var weekText: String

    public struct Row: Codable, Sendable, Equatable {
        public var current: Int?
        public var longest: Int?
        public var jokersHeld: Int?
        public var todayCounts: Bool
        /// Habit strength, 0–1, to four decimals.
        public var strength: Double
        /// The current streak in words with the language's plural ("1 day", "2 Tage"); `nil`
        /// while streaks are hidden.
        public var currentText: String?
        /// The longest streak in words; `nil` while streaks are hidden.
        public var longestText: String?
    }

    /// The view in `language` (the sentences; the numbers are the same in every language).
    public init(_ report: ProgressReport, language: Language = .english) {
        let catalog = StringCatalog.shared(for: language)
        let hidden = report.settings.hideStreaks
        var rows: [String: Row] = [:]
        for category in PracticeCategory.allCases {
            let streak = report.streak(for: category)
            rows[category.rawValue] = Row(
                current: hidden ? nil : streak.current, longest: hidden ? nil : streak.longest,
                jokersHeld: hidden ? nil : streak.jokersHeld, todayCounts: streak.todayCounts,
                strength: (report.strength(for: category).current * 10_000).rounded() / 10_000,
                currentText: hidden ? nil : catalog.days(streak.current),
                longestText: hidden ? nil : catalog.days(streak.longest))
        }
        self.hidden = hidden
        jokersEnabled = report.settings.jokersEnabled
        maximumJokers = Streak.maximumJokers
        categories = rows
        today = PracticeCategory.allCases.map { TodayView(report, category: $0, language: language) }
        let days = report.week()
        week = days.map(CalendarMonthView.DayCell.init)
        weekText = catalog.format(.progressWeekCounted, ["days": catalog.days(days.count { !$0.counts.isEmpty })])
    }
}

/// A calendar month: weeks of seven cells (`null` outside the month), each day with its minutes,
/// the categories that counted, fill (0–1), streak marks, today and the future.
///
/// `id` names the month as `?month=` does (`2026-11`); `previous` and `next` name the months the
/// calendar's arrows go to (`null` past the years 0001–9999), so no front end does month arithmetic.
public struct CalendarMonthView: Codable, Sendable, Equatable {
    public var year: Int
    public var month: Int
    public var id: String
    public var previous: String?
    public var next: String?
    public var today: Day
    public var weeks: [[DayCell?]]

    public struct DayCell: Codable, Sendable, Equatable {
        public var day: Day
        public var minutes: [String: Int]
        public var counts: [String]
        public var fill: [String: Double]
        public var streak: [String: Streak.StreakDay]
        public var isToday: Bool
        public var isFuture: Bool

        public init(_ cell: CalendarMonth.CalendarDay) {
            day = cell.day
            minutes = Dictionary(uniqueKeysWithValues: cell.minutes.map { ($0.key.rawValue, $0.value) })
            counts = PracticeCategory.allCases.filter { cell.counts.contains($0) }.map(\.rawValue)
            fill = Dictionary(
                uniqueKeysWithValues: cell.fill.map { ($0.key.rawValue, ($0.value * 1000).rounded() / 1000) })
            streak = Dictionary(uniqueKeysWithValues: cell.streak.map { ($0.key.rawValue, $0.value) })
            isToday = cell.isToday
            isFuture = cell.isFuture
        }
    }

    public init(_ month: CalendarMonth, today: Day) {
        year = month.year
        self.month = month.month
        id = CalendarPeriodText.monthText(year: month.year, month: month.month)
        previous = CalendarPeriodText.month(year: month.year, month: month.month, offset: -1)
            .map { CalendarPeriodText.monthText(year: $0.year, month: $0.month) }
        next = CalendarPeriodText.month(year: month.year, month: month.month, offset: 1)
            .map { CalendarPeriodText.monthText(year: $0.year, month: $0.month) }
        self.today = today
        weeks = month.weeks.map { $0.map { $0.map(DayCell.init) } }
    }
}

/// A year as a heat map: a level (0–4) for every day, of one category or all.
///
/// `previous` and `next` are the years the arrows go to: `next` is `null` from today's year on
/// (the future holds no practice), `previous` before the year 0001.
public struct YearHeatMapView: Codable, Sendable, Equatable {
    public var year: Int
    public var previous: Int?
    public var next: Int?
    public var category: PracticeCategory?
    public var days: [Level]
    /// "Practised on 12 days, 9 of them counted, goal reached on 4." in the asked language.
    public var summaryText: String

    public struct Level: Codable, Sendable, Equatable {
        public var day: Day
        public var level: Int
    }

    public init(_ map: YearHeatMap, category: PracticeCategory?, today: Day, language: Language = .english) {
        year = map.year
        previous = map.year > 1 ? map.year - 1 : nil
        next = map.year < today.year ? map.year + 1 : nil
        self.category = category
        days = map.levels.map { Level(day: $0.day, level: $0.level) }
        summaryText = map.summaryText(language: language)
    }
}

/// The ambient bed a render puts under a practice that has none of its own (breathing, workouts,
/// timers): `momentum render … --ambient --volume` and `GET /api/v1/render/…?ambient=&volume=`.
public enum RenderAmbient {
    /// The bed `id` at `volume` (0–1; default the sound's own), or `nil` for none or `silent`.
    /// A volume given is checked even when the bed is silent.
    public static func choice(id: String?, volume: String?) throws(MeditationPlanError) -> AmbientChoice? {
        let level = try volume.map { text throws(MeditationPlanError) in
            guard let value = Double(text), value.isFinite, MeditationPlan.ambientVolumeBounds.contains(value) else {
                throw .ambientVolumeOutOfRange
            }
            return value
        }
        guard let id, id != "silent" else { return nil }
        guard let sound = AmbientCatalog.builtIn.sound(id: id) else { throw .unknownAmbient(id) }
        return AmbientChoice(id: id, volume: level ?? sound.defaultVolume)
    }
}

/// Today in one category, as a practice's completion view shows it (`GET /api/v1/progress/today`):
/// the minutes counted today against the goal, whether the day counts, and the streak (absent
/// while streaks are hidden), each with its sentence in the asked language.
public struct TodayView: Codable, Sendable, Equatable {
    public var category: PracticeCategory
    /// Whole minutes today in the category, rounded as the calendar rounds them.
    public var minutes: Int
    public var goalMinutes: Int?
    /// Today's minutes over the goal, 0–1 (1 once reached; 0 without a goal).
    public var fill: Double
    public var goalReached: Bool
    /// Whether today counts for the category's streak (SPEC §8).
    public var counts: Bool
    /// The current streak in days; `nil` while streaks are hidden.
    public var streak: Int?
    /// "Today: 23 min of your 20-minute goal · reached" (or without a goal "Today: 23 min").
    public var minutesText: String
    /// "Mindfulness streak: 5 days"; `nil` while streaks are hidden.
    public var streakText: String?
    /// "Today counts" once today counts for the streak, else `nil`.
    public var countsText: String?
    /// The goal in words ("25 min"); `nil` without a goal. Progress's ring says "of 25 min".
    public var goalText: String?

    public init(_ report: ProgressReport, category: PracticeCategory, language: Language) {
        let catalog = StringCatalog.shared(for: language)
        let total = report.totals[report.today]
        self.category = category
        minutes = total.roundedMinutes(in: category)
        goalMinutes = report.settings.goal(for: category)
        let seconds = total.seconds(in: category)
        let time = DurationFormatting.words(.seconds(seconds), language: language, zeroInMinutes: true)
        if let goal = goalMinutes, goal > 0 {
            fill = min(1, (Double(seconds) / Double(goal * 60) * 1000).rounded() / 1000)
            goalReached = minutes >= goal
            let goalText = DurationFormatting.words(.seconds(goal * 60), language: language)
            self.goalText = goalText
            // Nothing yet is said in words, not as "0 s of your goal".
            let key: StringKey =
                seconds == 0 ? .progressTodayNothingYet : goalReached ? .progressTodayGoalReached : .progressTodayOfGoal
            minutesText = catalog.format(key, ["time": time, "goal": goalText])
        } else {
            fill = 0
            goalReached = false
            goalText = nil
            minutesText = catalog.format(.progressTodayTime, ["time": time])
        }
        counts = total.counts(for: category)
        countsText = counts ? catalog[.progressTodayCounts] : nil
        let shown = report.shownStreak(for: category)
        streak = shown?.current
        streakText = shown.map {
            catalog.format(
                .progressTodayStreak,
                ["category": catalog[category.nameKey], "days": catalog.days($0.current)])
        }
    }
}

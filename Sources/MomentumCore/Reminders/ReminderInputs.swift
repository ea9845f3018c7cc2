import Foundation

/// Everything the reminder planner reads: now, the time zone, the Morse schedules, streaks, what
/// was practised today, the last practice and the settings. A plain value, so a plan can be
/// computed (and tested) for any moment.
public struct ReminderInputs: Sendable, Equatable {
    /// The two Morse practice directions, each with its own schedule.
    public enum MorseDirection: String, Sendable, Hashable, CaseIterable {
        case receive, send
    }

    /// Reaching a Morse level, at an instant.
    public struct LevelUp: Sendable, Hashable {
        public var level: Int
        public var reachedAt: Date

        public init(level: Int, reachedAt: Date) {
            self.level = level
            self.reachedAt = reachedAt
        }
    }

    /// What the Morse course says about one direction.
    public struct MorseSchedule: Sendable, Equatable {
        /// When practice is next due; `nil` when nothing is scheduled.
        public var nextPractice: Date?
        public var levelUps: [LevelUp]

        public init(nextPractice: Date? = nil, levelUps: [LevelUp] = []) {
            self.nextPractice = nextPractice
            self.levelUps = levelUps
        }
    }

    public var now: Date
    /// The zone of the person's wall clock: days, preferred time, quiet hours.
    public var timeZone: TimeZone
    public var morse: [MorseDirection: MorseSchedule]
    /// The current streak in days per category; missing categories have none.
    public var currentStreaks: [PracticeCategory: Int]
    /// The categories with any practice today.
    public var practisedToday: Set<PracticeCategory>
    /// The last practice of any kind; `nil` when the person never practised.
    public var lastPractice: Date?
    public var settings: ReminderSettings

    public init(
        now: Date, timeZone: TimeZone, settings: ReminderSettings = ReminderSettings(),
        morse: [MorseDirection: MorseSchedule] = [:], currentStreaks: [PracticeCategory: Int] = [:],
        practisedToday: Set<PracticeCategory> = [], lastPractice: Date? = nil
    ) {
        self.now = now
        self.timeZone = timeZone
        self.settings = settings
        self.morse = morse
        self.currentStreaks = currentStreaks
        self.practisedToday = practisedToday
        self.lastPractice = lastPractice
    }
}

extension ReminderInputs {
    /// The inputs as a progress report sees them: its time zone, each category's current streak,
    /// the categories with any session today (however short: "quiet once done" silences a
    /// category as soon as it was practised), and the start of the last day with practice (only
    /// its day matters to the planner).
    ///
    /// With streaks hidden (``ProgressSettings/hideStreaks``) no streak is passed on, so no
    /// reminder mentions one.
    public init(
        report: ProgressReport, now: Date, settings: ReminderSettings,
        morse: [MorseDirection: MorseSchedule] = [:]
    ) {
        let today = report.totals[report.today]
        var streaks: [PracticeCategory: Int] = [:]
        if !report.settings.hideStreaks {
            for category in PracticeCategory.allCases {
                let current = report.streak(for: category).current
                if current > 0 { streaks[category] = current }
            }
        }
        self.init(
            now: now, timeZone: report.totals.calendar.timeZone, settings: settings, morse: morse,
            currentStreaks: streaks,
            practisedToday: Set(PracticeCategory.allCases.filter { today.sessions(in: $0) > 0 }),
            lastPractice: report.totals.lastDay.map { report.totals.calendar.start(of: $0) })
    }
}

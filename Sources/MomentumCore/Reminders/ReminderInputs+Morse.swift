import Foundation

// What the reminder planner needs from the Morse course, read from the stored progress, so the
// server and the command line pass the progress on rather than picking its dates apart.

extension ReminderInputs.MorseSchedule {
    /// One direction's schedule: its next practice, and its last level up while that level's
    /// review is still due.
    ///
    /// Only the last level up counts: the course reviews the newest level (a level up within the
    /// week replaces the review), and a review done (a session at or after its due date) clears
    /// ``MorseDirectionProgress/levelReviewDue``, so no reminder asks for it again.
    public init(_ progress: MorseDirectionProgress) {
        let pendingReview = progress.levelReviewDue == nil ? nil : progress.levelHistory.last
        self.init(
            nextPractice: progress.schedule.nextPractice,
            levelUps: pendingReview.map { [ReminderInputs.LevelUp(level: $0.level, reachedAt: $0.date)] } ?? [])
    }
}

extension ReminderInputs.MorseDirection {
    /// The course's direction of the same name.
    public var courseDirection: MomentumCore.MorseDirection {
        switch self {
        case .receive: .receive
        case .send: .send
        }
    }
}

extension ReminderInputs {
    /// Both directions' schedules from the course progress (see ``MorseSchedule/init(_:)``).
    ///
    /// ```swift
    /// let schedules = ReminderInputs.morseSchedules(from: progress)
    /// schedules[.receive]?.nextPractice      // the course's next receiving practice
    /// ```
    public static func morseSchedules(from progress: MorseCourseProgress) -> [MorseDirection: MorseSchedule] {
        Dictionary(
            uniqueKeysWithValues: MorseDirection.allCases.map { ($0, MorseSchedule(progress[$0.courseDirection])) })
    }

    /// The inputs as a progress report and the Morse course see them: what the server and the
    /// command line call before planning.
    ///
    /// ```swift
    /// let inputs = ReminderInputs(report: report, now: now, settings: settings.reminders, morseCourse: progress)
    /// ```
    public init(report: ProgressReport, now: Date, settings: ReminderSettings, morseCourse: MorseCourseProgress) {
        self.init(report: report, now: now, settings: settings, morse: Self.morseSchedules(from: morseCourse))
    }
}

import Foundation
import MomentumCore
import MomentumStoreContract

/// The reminders both front ends deliver: the planner fed with the practice log, the Morse course
/// and the person's settings, as a list or as an iCalendar feed. Planned afresh on every call, so
/// practice done a minute ago already silences today's reminder for its category.
public struct ReminderService: Sendable {
    private let progress: ProgressService
    private let morse: MorseCourseService
    private let settings: SettingsService
    private let now: @Sendable () -> Date

    public init(
        progress: ProgressService, morse: MorseCourseService, settings: SettingsService,
        now: @escaping @Sendable () -> Date
    ) {
        self.progress = progress
        self.morse = morse
        self.settings = settings
        self.now = now
    }

    /// A plan and what it was planned with.
    public struct Plan: Sendable {
        public var reminders: [PlannedReminder]
        /// The person's day-calendar zone: the one the reminders' times are meant in.
        public var timeZone: TimeZone
        public var plannedAt: Date
        /// The quiet hours the plan kept (its moved reminders say so).
        public var quietHours: QuietHours = .standard
        /// Whether the Morse course's stored progress reads as valid progress; when not, the plan
        /// has no Morse reminders (the course reports the problem itself) and everything else
        /// still comes. A store that fails fails the plan.
        public var includesMorse: Bool
    }

    /// The reminders of the next `horizonDays` days from `at` (default now).
    public func plan(at instant: Date? = nil, horizonDays: Int = ReminderPlanner.defaultHorizonDays)
        async
        throws(StoreError) -> Plan
    {
        let now = instant ?? self.now()
        let report = try await progress.report()
        let reminderSettings = try await settings.load().reminders
        let course: MorseCourseProgress?
        do throws(MorseCourseServiceError) {
            course = try await morse.progress()
        } catch {
            switch error {
            case .store(let store): throw store
            // Progress that does not read (the only other failure of `progress()`): no Morse reminders.
            default: course = nil
            }
        }
        let inputs: ReminderInputs =
            if let course {
                ReminderInputs(report: report, now: now, settings: reminderSettings, morseCourse: course)
            } else {
                ReminderInputs(report: report, now: now, settings: reminderSettings)
            }
        return Plan(
            reminders: ReminderPlanner.plan(inputs, horizonDays: horizonDays),
            timeZone: report.totals.calendar.timeZone, plannedAt: now, quietHours: reminderSettings.quietHours,
            includesMorse: course != nil)
    }

    /// The plan as an iCalendar feed (RFC 5545) in `language`.
    public func calendarFeed(language: Language, at instant: Date? = nil) async throws(StoreError) -> String {
        let plan = try await plan(at: instant)
        return ReminderCalendarFeed(
            reminders: plan.reminders, language: language, timeZone: plan.timeZone, now: plan.plannedAt
        ).text
    }
}

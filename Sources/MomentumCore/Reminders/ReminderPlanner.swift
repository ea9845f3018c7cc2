import Foundation

/// Plans the reminders of the coming days from a moment's ``ReminderInputs`` (SPEC §9). Pure:
/// the same inputs always give the same plan, so a calendar feed can re-plan on every fetch.
///
/// The plan covers the local days from today through today + `horizonDays` − 1. The kinds'
/// rules give each reminder a first time; ``ReminderPolicy`` then keeps the whole plan quiet
/// enough. The rules (times are wall-clock times in ``ReminderInputs/timeZone``):
///
/// - **Practice due** (`practice.receive`, `practice.send`, one per direction): at the preferred
///   time on the direction's next-practice day, or today when that day is past; when that
///   instant has passed, the next day at the preferred time.
/// - **Streak** (`streak.reminder`): today at 20:00, only when nothing at all was practised today
///   and some category's current streak is 3 days or more; it speaks of the longest such streak.
///   It belongs to today: quiet hours that would push it into tomorrow drop it instead.
/// - **Level review** (`level.review.N`): at the preferred time on the 7th day after reaching
///   Morse level N; one reminder per level, dated from the first direction to reach it.
/// - **Welcome back** (`welcome.back`): at the preferred time on the day after 7 full days without
///   practice (last practice day + 8), once; never for someone who never practised, and not when
///   the plan holds a practice-due reminder.
/// - **Daily** (`daily.<id>`): at its time on each of its weekdays.
///
/// ```swift
/// let plan = ReminderPlanner.plan(inputs)
/// plan.first?.fireAt
/// ```
public enum ReminderPlanner {
    public static let defaultHorizonDays = 7
    /// When the streak reminder sounds.
    public static let streakReminderTime = TimeOfDay(validHour: 20)
    /// The shortest current streak worth a reminder.
    public static let minimumStreakToRemind = 3
    /// Level review: days after the level-up.
    public static let levelReviewDelayDays = 7
    /// Welcome back: days after the last practice day (7 full days away, then the next day).
    public static let welcomeBackDelayDays = 8

    /// The reminders for the local days today … today + `horizonDays` − 1, sorted by time.
    public static func plan(_ inputs: ReminderInputs, horizonDays: Int = defaultHorizonDays) -> [PlannedReminder] {
        guard horizonDays > 0 else { return [] }
        let clock = LocalClock(timeZone: inputs.timeZone)
        let today = clock.day(of: inputs.now)
        let rules = ReminderRules(
            inputs: inputs, clock: clock, today: today, lastDay: today.adding(days: horizonDays - 1))
        let policy = ReminderPolicy(inputs: inputs, clock: clock, today: today, lastDay: rules.lastDay)
        let planned = policy.apply(to: rules.practiceDue + rules.streak + rules.levelReviews + rules.daily)
        // Planned without welcome back first: it joins only when that plan holds no practice-due reminder.
        guard !planned.contains(where: { $0.kind == .practiceDue }), let welcomeBack = rules.welcomeBack else {
            return planned
        }
        return policy.apply(to: rules.practiceDue + rules.streak + rules.levelReviews + rules.daily + [welcomeBack])
    }
}

/// Each kind's rule: the reminders it asks for and their first times, before the policy.
struct ReminderRules {
    let inputs: ReminderInputs
    let clock: LocalClock
    let today: Day
    let lastDay: Day

    private var settings: ReminderSettings { inputs.settings }

    /// Candidates start a day early: yesterday's 22:30 reminder still sounds at 08:00 today.
    private var candidateDays: ClosedRange<Day> { today.adding(days: -1)...lastDay }

    var practiceDue: [PlannedReminder] {
        guard settings.isOn(.practiceDue) else { return [] }
        return ReminderInputs.MorseDirection.allCases.compactMap { direction in
            guard let next = inputs.morse[direction]?.nextPractice else { return nil }
            var day = max(clock.day(of: next), today)
            if clock.instant(on: day, at: settings.preferredTime) <= inputs.now { day = day.adding(days: 1) }
            guard day <= lastDay else { return nil }
            let (title, body): (StringKey, StringKey) =
                switch direction {
                case .receive: (.reminderPracticeReceiveTitle, .reminderPracticeReceiveBody)
                case .send: (.reminderPracticeSendTitle, .reminderPracticeSendBody)
                }
            return reminder(
                "practice.\(direction.rawValue)", .practiceDue, .morse, on: day, at: settings.preferredTime,
                title: LocalizedText(title), body: LocalizedText(body))
        }
    }

    var streak: [PlannedReminder] {
        guard settings.isOn(.streak), inputs.practisedToday.isEmpty else { return [] }
        // The longest streak; on a tie, the first category in the usual order.
        let longest = PracticeCategory.allCases
            .map { ($0, inputs.currentStreaks[$0] ?? 0) }
            .max { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0.order > $1.0.order) }
        guard let (category, days) = longest, days >= ReminderPlanner.minimumStreakToRemind else { return [] }
        return [
            reminder(
                "streak.reminder", .streak, category, on: today, at: ReminderPlanner.streakReminderTime,
                title: LocalizedText(.reminderStreakTitle, ["count": "\(days)"]),
                body: LocalizedText(category.streakReminderBody))
        ]
    }

    var levelReviews: [PlannedReminder] {
        guard settings.isOn(.levelReview) else { return [] }
        var firstReached: [Int: Date] = [:]
        for levelUp in inputs.morse.values.flatMap(\.levelUps) {
            firstReached[levelUp.level] = min(firstReached[levelUp.level] ?? levelUp.reachedAt, levelUp.reachedAt)
        }
        return firstReached.sorted { $0.key < $1.key }.compactMap { level, reachedAt in
            let day = clock.day(of: reachedAt).adding(days: ReminderPlanner.levelReviewDelayDays)
            guard candidateDays.contains(day) else { return nil }
            let arguments = ["level": "\(level)"]
            return reminder(
                "level.review.\(level)", .levelReview, .morse, on: day, at: settings.preferredTime,
                title: LocalizedText(.reminderLevelReviewTitle, arguments),
                body: LocalizedText(.reminderLevelReviewBody, arguments))
        }
    }

    var welcomeBack: PlannedReminder? {
        guard settings.isOn(.welcomeBack), let last = inputs.lastPractice else { return nil }
        let day = clock.day(of: last).adding(days: ReminderPlanner.welcomeBackDelayDays)
        guard candidateDays.contains(day) else { return nil }
        return reminder(
            "welcome.back", .welcomeBack, nil, on: day, at: settings.preferredTime,
            title: LocalizedText(.reminderWelcomeBackTitle), body: LocalizedText(.reminderWelcomeBackBody))
    }

    var daily: [PlannedReminder] {
        guard settings.isOn(.daily) else { return [] }
        return settings.dailyReminders.flatMap { daily in
            (candidateDays.lowerBound.number...candidateDays.upperBound.number).map(Day.init(number:))
                .filter { daily.weekdays.contains(Weekday(of: $0)) }
                .map { day in
                    reminder(
                        "daily.\(daily.id)", .daily, daily.category, on: day, at: daily.time,
                        title: LocalizedText(daily.category.dailyReminderTitle),
                        body: LocalizedText(.reminderDailyBody, ["time": "\(daily.time)"]))
                }
        }
    }

    private func reminder(
        _ id: String, _ kind: ReminderKind, _ category: PracticeCategory?, on day: Day, at time: TimeOfDay,
        title: LocalizedText, body: LocalizedText
    ) -> PlannedReminder {
        PlannedReminder(
            id: id, plannedDay: day, kind: kind, category: category, fireAt: clock.instant(on: day, at: time),
            title: title, body: body)
    }
}

extension PracticeCategory {
    /// Position in ``allCases``, for stable tie-breaks.
    fileprivate var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    fileprivate var streakReminderBody: StringKey {
        switch self {
        case .mindfulness: .reminderStreakBodyMindfulness
        case .workout: .reminderStreakBodyWorkout
        case .morse: .reminderStreakBodyMorse
        case .focus: .reminderStreakBodyFocus
        }
    }

    fileprivate var dailyReminderTitle: StringKey {
        switch self {
        case .mindfulness: .reminderDailyTitleMindfulness
        case .workout: .reminderDailyTitleWorkout
        case .morse: .reminderDailyTitleMorse
        case .focus: .reminderDailyTitleFocus
        }
    }
}

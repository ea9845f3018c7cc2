import Foundation

/// The anti-nag policy (SPEC §9), applied to all kinds together, in this order:
///
/// 1. **Quiet hours**: a reminder inside them moves to their end (22:30 → 08:00 the next day).
///    The streak reminder is about today, so when that would take it into another day it is
///    dropped instead.
/// 2. **Nothing in the past**: a reminder at or before now is dropped.
/// 3. **Quiet once done**: today's reminders for a category practised today are dropped.
/// 4. **Per local day**, taking reminders by priority (daily, practice due, level review, streak,
///    welcome back), then by time: a day holds at most ``maximumPerDay``; a reminder less than
///    ``minimumSpacing`` (real elapsed time) from an accepted one moves to that long after the
///    latest such one, if that keeps it on the same day and outside quiet hours; otherwise it is
///    dropped.
///
/// Reminders that end up after the last day of the plan are left for a later plan.
struct ReminderPolicy {
    static let maximumPerDay = 2
    static let minimumSpacing: Duration = .seconds(4 * 3600)

    let inputs: ReminderInputs
    let clock: LocalClock
    let today: Day
    let lastDay: Day

    private var quietHours: QuietHours { inputs.settings.quietHours }

    /// The reminders the policy keeps, at their final times, sorted by time.
    func apply(to candidates: [PlannedReminder]) -> [PlannedReminder] {
        let remaining =
            candidates
            .compactMap(outsideQuietHours)
            .filter { $0.fireAt > inputs.now }
            .filter { !(clock.day(of: $0.fireAt) == today && $0.category.map(inputs.practisedToday.contains) == true) }
            .filter { clock.day(of: $0.fireAt) <= lastDay }
        let byDay = Dictionary(grouping: remaining) { clock.day(of: $0.fireAt) }
        var accepted: [PlannedReminder] = []
        for day in byDay.keys.sorted() {
            var acceptedToday = 0
            for reminder in byDay[day, default: []].sorted(by: Self.takenFirst) {
                guard acceptedToday < Self.maximumPerDay, let spaced = spaced(reminder, from: accepted, on: day)
                else { continue }
                accepted.append(spaced)
                acceptedToday += 1
            }
        }
        return accepted.sorted { ($0.fireAt, $0.id) < ($1.fireAt, $1.id) }
    }

    /// Step 1: the reminder at the end of the quiet hours it falls in, if any.
    private func outsideQuietHours(_ reminder: PlannedReminder) -> PlannedReminder? {
        guard quietHours.contains(reminder.fireAt, on: clock) else { return reminder }
        let end = quietHours.end(after: reminder.fireAt, on: clock)
        if reminder.kind == .streak, clock.day(of: end) != clock.day(of: reminder.fireAt) { return nil }
        return reminder.moved(to: end, because: .quietHours)
    }

    /// Step 4's spacing: the reminder as it can sound at least ``minimumSpacing`` from every
    /// accepted one, on `day` and outside quiet hours; `nil` when it cannot.
    private func spaced(_ reminder: PlannedReminder, from accepted: [PlannedReminder], on day: Day)
        -> PlannedReminder?
    {
        var reminder = reminder
        let spacing = TimeInterval(Self.minimumSpacing.components.seconds)
        // Each round moves strictly later (or gives up), so it ends within a day's reminders.
        while let latest = accepted.filter({ abs($0.fireAt.timeIntervalSince(reminder.fireAt)) < spacing })
            .map(\.fireAt).max()
        {
            let later = latest.addingTimeInterval(spacing)
            guard later > reminder.fireAt, clock.day(of: later) == day, !quietHours.contains(later, on: clock)
            else { return nil }
            reminder = reminder.moved(to: later, because: .spacing)
        }
        return reminder
    }

    /// The order a day's reminders are taken in: priority, then time, then id.
    private static func takenFirst(_ lhs: PlannedReminder, _ rhs: PlannedReminder) -> Bool {
        (lhs.kind.priority, lhs.fireAt, lhs.id) < (rhs.kind.priority, rhs.fireAt, rhs.id)
    }
}

import Foundation

/// When a planned reminder goes out as a push, and whether it still may (SPEC §9, docs/notifications.md).
///
/// A reminder is put in the outbox shortly before it is due (``isDueSoon(_:at:)``), and the
/// anti-nag policy is asked again when it is about to leave (``decide(reminderID:dueAt:plan:deliveredToday:now:timeZone:)``):
/// the plan made just before its instant, from the log as it is now, must still hold it at that
/// instant — so a 19:00 reminder is not sent when the person sat at 18:30, nor when the quiet
/// hours changed — and the day must not already have had its ``maximumPerDay`` reminders.
///
/// ```swift
/// let plan = ReminderPlanner.plan(inputsAt(dueAt - 1 s))
/// ReminderDelivery.decide(reminderID: "daily.a", dueAt: dueAt, plan: plan, deliveredToday: [], now: now, timeZone: zone)
/// ```
public enum ReminderDelivery {
    /// How far ahead a due reminder is put in the outbox: enough for a planner that looks every
    /// half minute to see it twice before it is due.
    public static let lookahead: Duration = .seconds(120)
    /// At most this many reminders reach a person in one local day, whenever they were planned.
    public static let maximumPerDay = ReminderPolicy.maximumPerDay
    /// How long before its instant a reminder is re-planned for the send-time check: the planner
    /// keeps only reminders after its "now".
    public static let replanLead: Duration = .seconds(1)

    /// Why a due reminder was not sent.
    public enum Refusal: String, Sendable, Equatable, Codable {
        /// The plan made now no longer holds it at its instant: practised already, quiet hours,
        /// settings changed, or the policy moved it.
        case noLongerPlanned = "no-longer-planned"
        /// The day already had its ``maximumPerDay`` reminders.
        case dayIsFull = "day-is-full"
        /// It is no longer useful (``usefulUntil(_:timeZone:)`` has passed).
        case expired
    }

    public enum Decision: Sendable, Equatable {
        case send(PlannedReminder)
        case refuse(Refusal)
    }

    /// Whether `reminder` belongs in the outbox at `now`: it sounds within ``lookahead``.
    public static func isDueSoon(_ reminder: PlannedReminder, at now: Date) -> Bool {
        reminder.fireAt.timeIntervalSince(now) <= lookahead.inSeconds
    }

    /// Until when a reminder sounding at `instant` is worth showing: the end of its local day
    /// (a "practice today" is pointless tomorrow). A push service keeps it that long, no longer.
    public static func usefulUntil(_ instant: Date, timeZone: TimeZone) -> Date {
        let days = DayCalendar(unchecked: timeZone)
        return days.start(of: days.day(of: instant).adding(days: 1))
    }

    /// When the local day of `instant` began: the day's limit counts what was sent since.
    public static func dayStart(of instant: Date, timeZone: TimeZone) -> Date {
        let days = DayCalendar(unchecked: timeZone)
        return days.start(of: days.day(of: instant))
    }

    /// The instant to plan at for the send-time check of a reminder due at `dueAt`.
    public static func replanInstant(for dueAt: Date) -> Date {
        dueAt.addingTimeInterval(-replanLead.inSeconds)
    }

    /// Whether the reminder `reminderID` due at `dueAt` may leave at `now`.
    ///
    /// - Parameters:
    ///   - plan: the plan made at ``replanInstant(for:)`` from the person's data as it is now.
    ///   - deliveredToday: the occurrences (``PlannedReminder/occurrenceID``) already sent on the
    ///     reminder's local day.
    public static func decide(
        reminderID: String, dueAt: Date, plan: [PlannedReminder], deliveredToday: Set<String>, now: Date,
        timeZone: TimeZone
    ) -> Decision {
        guard now < usefulUntil(dueAt, timeZone: timeZone) else { return .refuse(.expired) }
        // The same reminder at the same instant, to the second (stored instants are milliseconds).
        guard let reminder = plan.first(where: { $0.id == reminderID && abs($0.fireAt.timeIntervalSince(dueAt)) < 1 })
        else { return .refuse(.noLongerPlanned) }
        // A tracker's question is not a practice reminder: it does not count in the day's limit.
        let reminders = deliveredToday.filter { !TrackerQuestion.isQuestion($0) }
        guard reminders.contains(reminder.occurrenceID) || reminders.count < maximumPerDay else {
            return .refuse(.dayIsFull)
        }
        return .send(reminder)
    }
}

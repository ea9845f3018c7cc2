import Foundation

/// A tracker's daily question as a notification (issue 42, docs/notifications.md): asked at the
/// tracker's hour on the person's clock — at the end of the quiet hours when the hour falls in
/// them — about that day or the day before, unless that day is already answered.
///
/// It is not a practice reminder: it does not count in ``ReminderDelivery/maximumPerDay``, and
/// the anti-nag policy's other rules do not move it.
///
/// ```swift
/// let due = TrackerQuestion.due(trackers, answered: answered, from: now - 3600, through: now + 120, timeZone: zone, quietHours: quiet)
/// ```
public struct TrackerQuestion: Sendable, Equatable {
    public var trackerID: UUID
    /// The day the question is about.
    public var day: Day
    /// When it is asked.
    public var askAt: Date

    /// What every question's outbox id starts with: it is how the day's limit of practice
    /// reminders leaves questions out.
    public static let idPrefix = "tracker."
    /// How long after its instant a question missed (a server that was down) is still asked.
    public static let lateness: TimeInterval = 3600

    public init(trackerID: UUID, day: Day, askAt: Date) {
        self.trackerID = trackerID
        self.day = day
        self.askAt = askAt
    }

    /// The tracker's question in the outbox (one per tracker: a newer one replaces an older on the device).
    public var reminderID: String { Self.idPrefix + trackerID.uuidString.lowercased() }
    /// This day's question: the notification's tag.
    public var occurrenceID: String { "\(reminderID).\(day)" }

    /// Whether an outbox id (``reminderID`` or ``occurrenceID``) is a tracker's question.
    public static func isQuestion(_ id: String) -> Bool { id.hasPrefix(idPrefix) }

    /// The tracker an outbox ``reminderID`` asks for.
    public static func trackerID(of reminderID: String) -> UUID? {
        guard isQuestion(reminderID) else { return nil }
        return UUID(uuidString: String(reminderID.dropFirst(idPrefix.count)))
    }

    /// The questions asked from `from` through `through` (both included), oldest first: each
    /// tracker's hour on each day, moved to the end of `quietHours` when it falls in them, not
    /// before the tracker was made, and only while its day is unanswered.
    public static func due(
        _ trackers: [Tracker], answered: [UUID: Set<Day>], from: Date, through: Date, timeZone: TimeZone,
        quietHours: QuietHours
    ) -> [TrackerQuestion] {
        guard from <= through else { return [] }
        let clock = LocalClock(timeZone: timeZone)
        let first = clock.day(of: from).adding(days: -1)
        let last = clock.day(of: through)
        var questions: [TrackerQuestion] = []
        for tracker in trackers {
            var askedOn = first
            while askedOn <= last {
                var instant = clock.instant(on: askedOn, at: tracker.askAt)
                if quietHours.contains(instant, on: clock) {
                    instant = quietHours.end(after: instant, on: clock)
                }
                let day = TrackerRules.day(askedOn: askedOn, about: tracker.about)
                if instant >= from, instant <= through, instant >= tracker.createdAt,
                    !(answered[tracker.id]?.contains(day) ?? false)
                {
                    questions.append(TrackerQuestion(trackerID: tracker.id, day: day, askAt: instant))
                }
                askedOn = askedOn.adding(days: 1)
            }
        }
        return questions.sorted { ($0.askAt, $0.reminderID) < ($1.askAt, $1.reminderID) }
    }

    /// Whether a due question is asked, or why not.
    public enum Asked: Sendable, Equatable {
        case ask(TrackerQuestion)
        case refuse(ReminderDelivery.Refusal)
    }

    /// Whether the question of `reminderID` due at `dueAt` may leave at `now`: the questions due
    /// around `dueAt` from the person's data as it is now must still hold it (the tracker is
    /// there, its hour unchanged, its day unanswered), `now` must be before `usefulUntil`, and
    /// not in the quiet hours.
    public static func stillAsked(
        reminderID: String, dueAt: Date, questions: [TrackerQuestion], now: Date, usefulUntil: Date, timeZone: TimeZone,
        quietHours: QuietHours
    ) -> Asked {
        guard now < usefulUntil else { return .refuse(.expired) }
        guard
            let question = questions.first(where: {
                $0.reminderID == reminderID && abs($0.askAt.timeIntervalSince(dueAt)) < 1
            })
        else { return .refuse(.noLongerPlanned) }
        if quietHours.contains(now, on: LocalClock(timeZone: timeZone)) {
            return .refuse(.noLongerPlanned)
        }
        return .ask(question)
    }
}

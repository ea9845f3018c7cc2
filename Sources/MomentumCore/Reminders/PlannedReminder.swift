import Foundation

/// A reminder the planner decided on: what, for which category, when, and what it says.
public struct PlannedReminder: Sendable, Equatable {
    /// Stable across plans: `practice.receive`, `practice.send`, `streak.reminder`,
    /// `level.review.N`, `welcome.back`, `daily.<id>`.
    public var id: String
    /// Unique per occurrence, for calendar feeds: the id and the local day it was planned for
    /// before any move, e.g. `daily.morning.2026-11-23`.
    public var occurrenceID: String
    public var kind: ReminderKind
    /// The category it reminds of; `nil` for welcome back, which invites to any practice.
    public var category: PracticeCategory?
    /// When it sounds, after the anti-nag policy.
    public var fireAt: Date
    public var title: LocalizedText
    public var body: LocalizedText
    /// When it would have sounded had the policy not moved it; `nil` when it was not moved.
    public var movedFrom: Date?
    /// Why the policy moved it, in the order it did (empty when it was not moved).
    public var moves: [ReminderMove] = []

    public init(
        id: String, plannedDay: Day, kind: ReminderKind, category: PracticeCategory?, fireAt: Date,
        title: LocalizedText, body: LocalizedText, movedFrom: Date? = nil
    ) {
        self.id = id
        self.occurrenceID = "\(id).\(plannedDay)"
        self.kind = kind
        self.category = category
        self.fireAt = fireAt
        self.title = title
        self.body = body
        self.movedFrom = movedFrom
    }

    /// Whether the policy moved it (see ``movedFrom``).
    public var wasMoved: Bool { movedFrom != nil }

    /// This reminder sounding at `instant` instead, `because` of a rule of the policy; remembers
    /// the first planned time.
    func moved(to instant: Date, because move: ReminderMove) -> PlannedReminder {
        var moved = self
        moved.movedFrom = movedFrom ?? fireAt
        moved.fireAt = instant
        if !moved.moves.contains(move) { moved.moves.append(move) }
        return moved
    }
}

/// A rule of the anti-nag policy that moves a reminder (see ``ReminderPolicy``).
public enum ReminderMove: String, Sendable, Codable {
    /// It fell in the quiet hours and sounds at their end.
    case quietHours
    /// It came too soon after another and sounds the minimum spacing later.
    case spacing
}

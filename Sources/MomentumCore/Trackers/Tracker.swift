import Foundation

/// A quiet daily tracker (issue 42): a yes-or-no question about a day — "Alcohol-free?", "No
/// sugar?", "No phone in bed?" — asked once a day at the person's hour by a notification, and
/// answered from it. Passive on purpose: no entry screen of its own, a quiet line on Progress.
///
/// ```swift
/// let tracker = try Tracker(id: id, name: "Alcohol-free", askAt: TimeOfDay(hour: 21, minute: 0), about: .today, createdAt: now)
/// TrackerRules.currentRun(of: answers, today: today)   // days answered yes in a row
/// ```
public struct Tracker: Sendable, Equatable, Identifiable {
    /// Which day the question is about: the day it is asked (an evening question), or the day
    /// before (a morning one: "Alcohol-free yesterday?").
    public enum About: String, Sendable, Equatable, CaseIterable, Codable {
        case today
        case yesterday
    }

    public let id: UUID
    public private(set) var name: String
    /// When the question comes, on the person's clock.
    public var askAt: TimeOfDay
    public var about: About
    public let createdAt: Date

    /// The most trackers a person keeps.
    public static let maximumPerPerson = 20

    public init(id: UUID, name: String, askAt: TimeOfDay, about: About, createdAt: Date) throws(TrackerError) {
        self.id = id
        self.name = try TrackerRules.checkedName(name)
        self.askAt = askAt
        self.about = about
        self.createdAt = createdAt
    }

    /// The tracker under `name`, checked.
    public func renamed(_ name: String) throws(TrackerError) -> Tracker {
        var renamed = self
        renamed.name = try TrackerRules.checkedName(name)
        return renamed
    }
}

/// One day's answer.
public struct TrackerAnswer: Sendable, Equatable {
    public var day: Day
    public var answer: Bool
    public var answeredAt: Date

    public init(day: Day, answer: Bool, answeredAt: Date) {
        self.day = day
        self.answer = answer
        self.answeredAt = answeredAt
    }
}

/// Why a tracker or an answer is refused (the catalog's `error.tracker.*`).
public enum TrackerError: Error, Equatable, Sendable {
    case emptyName
    case nameTooLong(maximum: Int)
    case name(TextInputError)
    /// Another of the person's trackers has this name (any case).
    case duplicateName(String)
    case tooMany(maximum: Int)
    /// The day is after the person's today.
    case futureDay(Day)
    /// The day is before ``TrackerRules/earliestDay``.
    case dayTooEarly(Day)
    case unknownTracker(String)
}

/// The rules of trackers: names, the days that may be answered, and the run of "yes" days.
///
/// An unanswered day is never a "no": it shows as unanswered and counts in no total. The run is
/// the days answered yes back from today — or from yesterday while today is still unanswered —
/// up to the first day answered no or not answered. A tracker's run is its own: it is not mixed
/// into the practice streaks.
public enum TrackerRules {
    /// No answer is taken for a day before 2000-01-01.
    public static let earliestDay = Day(number: 10_957)
    /// The days a tracker's list shows: the last week.
    public static let shownDays = 7

    /// `name` trimmed, when it is a name: one line, no control or direction characters, 1 to
    /// ``TextInput/maximumNameLength`` characters.
    public static func checkedName(_ name: String) throws(TrackerError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .emptyName }
        guard trimmed.count <= TextInput.maximumNameLength else {
            throw .nameTooLong(maximum: TextInput.maximumNameLength)
        }
        do { try TextInput.check(trimmed, field: "name") } catch { throw .name(error) }
        return trimmed
    }

    /// Refuses `name` when another of `trackers` (not `renaming`) has it, in any case.
    public static func checkFree(_ name: String, among trackers: [Tracker], renaming: UUID? = nil)
        throws(TrackerError)
    {
        let folded = PresetNaming.folded(name)
        if trackers.contains(where: { $0.id != renaming && PresetNaming.folded($0.name) == folded }) {
            throw .duplicateName(name)
        }
    }

    /// Refuses a day that cannot be answered: after `today`, or before ``earliestDay``.
    public static func checkAnswerable(_ day: Day, today: Day) throws(TrackerError) {
        guard day <= today else { throw .futureDay(day) }
        guard day >= earliestDay else { throw .dayTooEarly(day) }
    }

    /// The days answered yes in a row, back from today (or yesterday while today is unanswered).
    public static func currentRun(of answers: [Day: Bool], today: Day) -> Int {
        var day = answers[today] == nil ? today.adding(days: -1) : today
        var run = 0
        while answers[day] == true {
            run += 1
            day = day.adding(days: -1)
        }
        return run
    }

    /// The last ``shownDays`` days, oldest first, each with its answer (nil: unanswered).
    public static func lastDays(of answers: [Day: Bool], today: Day) -> [(day: Day, answer: Bool?)] {
        (0..<shownDays).reversed().map { back in
            let day = today.adding(days: -back)
            return (day, answers[day])
        }
    }

    /// The day a question asked on `askedOn` is about.
    public static func day(askedOn: Day, about: Tracker.About) -> Day {
        switch about {
        case .today: askedOn
        case .yesterday: askedOn.adding(days: -1)
        }
    }
}

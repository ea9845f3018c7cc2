import Foundation
import MomentumCore

/// A person's trackers as the API, the web app's Progress and `momentum track --json` show them.
public struct TrackersView: Encodable, Sendable, Equatable {
    /// The person's today (`YYYY-MM-DD`).
    public var today: String
    public var trackers: [TrackerView]
}

/// One tracker: its question, its last ``TrackerRules/shownDays`` days and its run of "yes" days
/// (left out while streaks are hidden), with the sentences that say them.
public struct TrackerView: Encodable, Sendable, Equatable {
    public struct DayView: Encodable, Sendable, Equatable {
        public var day: String
        /// `nil`: not answered (never counted as "no").
        public var answer: Bool?
    }

    public var id: String
    public var name: String
    /// `HH:MM` on the person's clock.
    public var askAt: String
    /// `today` or `yesterday`.
    public var about: String
    /// The day the question asks about now, and its answer so far.
    public var questionDay: String
    public var questionAnswer: Bool?
    /// "Alcohol-free today?"
    public var questionText: String
    /// The same question without the name, beside it on Progress: "Today?"
    public var questionShort: String
    public var days: [DayView]
    /// Days answered yes in a row; absent while streaks are hidden.
    public var run: Int?
    /// "5 days in a row"; absent while streaks are hidden or without a run.
    public var runText: String?
    /// The last days in words: "Mon yes, Tue no, Wed —".
    public var daysText: String

    init(_ tracker: Tracker, answers: [TrackerAnswer], today: Day, hideRun: Bool, catalog: StringCatalog) {
        var byDay: [Day: Bool] = [:]
        for answer in answers { byDay[answer.day] = answer.answer }
        id = tracker.id.uuidString.lowercased()
        name = tracker.name
        askAt = tracker.askAt.description
        about = tracker.about.rawValue
        let question = TrackerRules.day(askedOn: today, about: tracker.about)
        questionDay = question.description
        questionAnswer = byDay[question]
        questionText = TrackerView.question(tracker.name, day: question, today: today, catalog: catalog)
        questionShort = TrackerView.question(nil, day: question, today: today, catalog: catalog)
        let last = TrackerRules.lastDays(of: byDay, today: today)
        days = last.map { DayView(day: $0.day.description, answer: $0.answer) }
        let current = TrackerRules.currentRun(of: byDay, today: today)
        run = hideRun ? nil : current
        runText = hideRun || current == 0 ? nil : catalog.format(.trackerRun, ["days": catalog.days(current)])
        let weekdays = catalog[.calendarWeekdays].split(separator: " ").map(String.init)
        daysText = last.map { day in
            let answer =
                switch day.answer {
                case true?: catalog[.trackerYes]
                case false?: catalog[.trackerNo]
                case nil: "—"
                }
            let weekday = weekdays.count == 7 ? weekdays[day.day.isoWeekday - 1] : day.day.description
            return "\(weekday) \(answer)"
        }.joined(separator: ", ")
    }

    /// The question about `day`, as asked on `today`: "Alcohol-free today?", "… yesterday?", or
    /// with the date; without a name, "Today?", "Yesterday?" or the date.
    public static func question(_ name: String?, day: Day, today: Day, catalog: StringCatalog) -> String {
        guard let name else {
            switch today.number - day.number {
            case 0: return catalog[.progressTrackersAskToday]
            case 1: return catalog[.progressTrackersAskYesterday]
            default: return "\(day.description)?"
            }
        }
        return switch today.number - day.number {
        case 0: catalog.format(.trackerQuestionToday, ["name": name])
        case 1: catalog.format(.trackerQuestionYesterday, ["name": name])
        default: catalog.format(.trackerQuestionOn, ["name": name, "day": day.description])
        }
    }
}

/// A month's answered days, for the marks on Progress's calendar: each day with an answer, with
/// every tracker's answer that day and a sentence that says them.
public struct TrackerMonthView: Encodable, Sendable, Equatable {
    public struct Mark: Encodable, Sendable, Equatable {
        public var tracker: String
        public var name: String
        public var answer: Bool
    }

    public struct DayView: Encodable, Sendable, Equatable {
        public var day: String
        public var marks: [Mark]
        /// "Alcohol-free: yes · No sugar: no"
        public var text: String
        /// Whether every answer that day is yes.
        public var allYes: Bool
    }

    public var month: String
    public var days: [DayView]

    init(year: Int, month: Int, trackers: [Tracker], answers: [UUID: [TrackerAnswer]], catalog: StringCatalog) {
        self.month = String(format: "%04d-%02d", year, month)
        var byDay: [Day: [Mark]] = [:]
        for tracker in trackers {
            for answer in answers[tracker.id] ?? [] where answer.day.year == year && answer.day.month == month {
                byDay[answer.day, default: []].append(
                    Mark(tracker: tracker.id.uuidString.lowercased(), name: tracker.name, answer: answer.answer))
            }
        }
        days = byDay.keys.sorted().map { day in
            let marks = byDay[day] ?? []
            return DayView(
                day: day.description, marks: marks,
                text: marks.map { "\($0.name): \(catalog[$0.answer ? .trackerYes : .trackerNo])" }.joined(
                    separator: " · "),
                allYes: marks.allSatisfy(\.answer))
        }
    }
}

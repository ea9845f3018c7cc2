import Foundation
import Testing

@testable import MomentumCore

/// Builds logs for progress tests: sessions on days relative to a fixed "today" in Berlin.
struct LogBuilder {
    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt
    let calendar: DayCalendar
    let today: Day
    private(set) var records: [PracticeRecord] = []

    init(today: Day = Day(number: 20_600), dayStartHour: Int = 0) throws {
        calendar = try DayCalendar(timeZone: Self.berlin, dayStartHour: dayStartHour)
        self.today = today
    }

    /// A session of `seconds` starting at `hour`:`minute` local time, `daysAgo` days before today.
    mutating func add(
        daysAgo: Int, seconds: Int, kind: PracticeKind = .meditation, hour: Int = 7, minute: Int = 0
    ) throws {
        let day = today.adding(days: -daysAgo)
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = Self.berlin
        let (year, month, dayOfMonth) = day.components
        let start = try #require(
            gregorian.date(from: DateComponents(year: year, month: month, day: dayOfMonth, hour: hour, minute: minute)))
        records.append(
            try PracticeRecord(
                id: UUID(), kind: kind, start: start, end: start.addingTimeInterval(Double(seconds)),
                countedSeconds: seconds, device: "test"))
    }

    /// Ten-minute sits on each of the given days ago.
    mutating func sits(on daysAgo: some Sequence<Int>) throws {
        for ago in daysAgo { try add(daysAgo: ago, seconds: 600) }
    }

    var totals: DailyTotals { DailyTotals(records: records, calendar: calendar) }

    func streak(_ category: PracticeCategory = .mindfulness, jokers: Bool = true) -> Streak {
        Streak(totals: totals, category: category, today: today, jokersEnabled: jokers)
    }
}

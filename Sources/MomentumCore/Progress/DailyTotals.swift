/// What one day holds: counted seconds and sessions, per kind of practice.
public struct DayTotal: Sendable, Equatable {
    public private(set) var seconds: [PracticeKind: Int] = [:]
    public private(set) var sessions: [PracticeKind: Int] = [:]

    public init() {}

    mutating func add(_ record: PracticeRecord) {
        seconds[record.kind, default: 0] += record.countedSeconds
        sessions[record.kind, default: 0] += 1
    }

    public func seconds(in category: PracticeCategory) -> Int {
        seconds.reduce(0) { $0 + ($1.key.category == category ? $1.value : 0) }
    }

    public func sessions(in category: PracticeCategory) -> Int {
        sessions.reduce(0) { $0 + ($1.key.category == category ? $1.value : 0) }
    }

    public var totalSeconds: Int { seconds.values.reduce(0, +) }
    public var totalSessions: Int { sessions.values.reduce(0, +) }

    /// Minutes of `category`, rounded half up to whole minutes: 1.4 min → 1, 1.5 min → 2.
    public func roundedMinutes(in category: PracticeCategory) -> Int {
        (seconds(in: category) + 30) / 60
    }

    /// Whether the day counts for `category`'s streak: at least 2 whole (rounded) minutes, or for
    /// Morse any session.
    public func counts(for category: PracticeCategory) -> Bool {
        switch category {
        case .morse: sessions(in: .morse) > 0
        case .mindfulness, .workout, .focus: roundedMinutes(in: category) >= DailyTotals.minimumCountingMinutes
        }
    }
}

/// The one function from the log to days: every record added to the day of its start.
///
/// The calendar, the streaks, habit strength and the statistics all read these totals, so a day
/// drawn as done is always a day the streak counts.
///
/// ```swift
/// let totals = DailyTotals(records: log, calendar: dayCalendar)
/// totals[day].counts(for: .mindfulness)
/// ```
public struct DailyTotals: Sendable, Equatable {
    public static let minimumCountingMinutes = 2

    public let calendar: DayCalendar
    public private(set) var days: [Day: DayTotal] = [:]

    public init(records: some Sequence<PracticeRecord>, calendar: DayCalendar) {
        self.calendar = calendar
        for record in records {
            days[calendar.day(of: record.start), default: DayTotal()].add(record)
        }
    }

    /// The totals of `day` (empty when nothing was practised).
    public subscript(day: Day) -> DayTotal { days[day] ?? DayTotal() }

    /// The days that count for `category`, sorted.
    public func countingDays(for category: PracticeCategory) -> [Day] {
        days.filter { $0.value.counts(for: category) }.keys.sorted()
    }

    /// The first day with any practice of `category`.
    public func firstDay(of category: PracticeCategory) -> Day? {
        days.filter { $0.value.sessions(in: category) > 0 }.keys.min()
    }
}

import Foundation

/// The part of a practice record that days, streaks and statistics read.
public struct PracticeEntry: Sendable, Equatable {
    public var kind: PracticeKind
    public var start: Date
    public var countedSeconds: Int

    public init(kind: PracticeKind, start: Date, countedSeconds: Int) {
        self.kind = kind
        self.start = start
        self.countedSeconds = countedSeconds
    }
}

extension PracticeRecord {
    public var entry: PracticeEntry { PracticeEntry(kind: kind, start: start, countedSeconds: countedSeconds) }
}

/// Counts per kind of practice, stored inline (no dictionary per day).
public struct KindCounts: Sendable, Equatable {
    private var values = (0, 0, 0, 0, 0, 0)

    public init() {}

    public subscript(kind: PracticeKind) -> Int {
        get {
            switch kind {
            case .meditation: values.0
            case .guided: values.1
            case .breathing: values.2
            case .workout: values.3
            case .morse: values.4
            case .focus: values.5
            }
        }
        set {
            switch kind {
            case .meditation: values.0 = newValue
            case .guided: values.1 = newValue
            case .breathing: values.2 = newValue
            case .workout: values.3 = newValue
            case .morse: values.4 = newValue
            case .focus: values.5 = newValue
            }
        }
    }

    public static func == (lhs: KindCounts, rhs: KindCounts) -> Bool {
        PracticeKind.allCases.allSatisfy { lhs[$0] == rhs[$0] }
    }

    /// The sum over the kinds of `category`.
    public func total(in category: PracticeCategory) -> Int {
        switch category {
        case .mindfulness: values.0 + values.1 + values.2
        case .workout: values.3
        case .morse: values.4
        case .focus: values.5
        }
    }

    public var total: Int { values.0 + values.1 + values.2 + values.3 + values.4 + values.5 }
}

/// What one day holds: counted seconds and sessions, per kind of practice.
public struct DayTotal: Sendable, Equatable {
    public private(set) var seconds = KindCounts()
    public private(set) var sessions = KindCounts()

    public init() {}

    mutating func add(_ entry: PracticeEntry) {
        seconds[entry.kind] += entry.countedSeconds
        sessions[entry.kind] += 1
    }

    public func seconds(in category: PracticeCategory) -> Int { seconds.total(in: category) }
    public func sessions(in category: PracticeCategory) -> Int { sessions.total(in: category) }
    public var totalSeconds: Int { seconds.total }
    public var totalSessions: Int { sessions.total }
    public var isEmpty: Bool { sessions.total == 0 }

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
///
/// - Complexity: O(records + days spanned); days are stored densely from the first to the last.
public struct DailyTotals: Sendable, Equatable {
    public static let minimumCountingMinutes = 2

    public let calendar: DayCalendar
    /// The first day with a record, `nil` for an empty log.
    public private(set) var firstDay: Day?
    private var storage: [DayTotal] = []

    // A concrete array, not a generic collection: across modules a generic parameter is not
    // specialized, and its per-element metadata lookups cost more than the work itself.
    public init(records: [PracticeRecord], calendar: DayCalendar) {
        self.init(entries: records.map(\.entry), calendar: calendar)
    }

    /// The totals of the log's entries — all that counting needs of each record.
    public init(entries records: [PracticeEntry], calendar: DayCalendar) {
        self.calendar = calendar
        guard var earliest = records.first?.start else { return }
        var latest = earliest
        for record in records {
            if record.start < earliest { earliest = record.start }
            if record.start > latest { latest = record.start }
        }
        let offsets = UTCOffsetTable(timeZone: calendar.timeZone, from: earliest, through: latest)
        var dayNumbers: [Int] = []
        dayNumbers.reserveCapacity(records.count)
        for record in records {
            dayNumbers.append(calendar.day(utcSeconds: record.start.timeIntervalSince1970, offsets: offsets).number)
        }
        guard let first = dayNumbers.min(), let last = dayNumbers.max() else { return }
        firstDay = Day(number: first)
        storage = Array(repeating: DayTotal(), count: last - first + 1)
        for index in records.indices {
            storage[dayNumbers[index] - first].add(records[index])
        }
    }

    /// The last day with a record.
    public var lastDay: Day? { firstDay.map { $0.adding(days: storage.count - 1) } }

    /// The totals of `day` (empty when nothing was practised).
    public subscript(day: Day) -> DayTotal {
        guard let firstDay else { return DayTotal() }
        let index = firstDay.days(to: day)
        return storage.indices.contains(index) ? storage[index] : DayTotal()
    }

    /// Every day with practice and its totals, oldest first.
    public var practiceDays: [(day: Day, total: DayTotal)] {
        guard let firstDay else { return [] }
        return storage.enumerated().compactMap { $1.isEmpty ? nil : (firstDay.adding(days: $0), $1) }
    }

    /// The first day that counts for `category`.
    public func firstCountingDay(for category: PracticeCategory) -> Day? {
        guard let firstDay, let index = storage.firstIndex(where: { $0.counts(for: category) }) else { return nil }
        return firstDay.adding(days: index)
    }

    public static func == (lhs: DailyTotals, rhs: DailyTotals) -> Bool {
        lhs.calendar == rhs.calendar && lhs.firstDay == rhs.firstDay && lhs.storage == rhs.storage
    }
}

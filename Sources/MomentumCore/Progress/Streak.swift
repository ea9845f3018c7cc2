/// Current and longest streak of counting days for a category, with jokers.
///
/// Walks forward day by day. Every 7 consecutive counted days earn a joker (at most 3 held). A
/// day that does not count spends a joker and the streak goes on without that day adding; with
/// none left the streak ends. Today is still open: if it does not count yet, the walk stops at
/// yesterday, so the streak stays unbroken until the day is over.
public struct Streak: Sendable, Equatable {
    public var current: Int
    public var longest: Int
    public var jokersHeld: Int
    /// Whether today already counts (else the current streak is counted to yesterday).
    public var todayCounts: Bool
    /// What each walked day did for the streak, from the first counting day to the last walked day.
    public var days: StreakDays

    public static let daysPerJoker = 7
    public static let maximumJokers = 3

    /// What a day did for the streak.
    public enum StreakDay: String, Sendable, Equatable, Codable {
        /// It counted and added one.
        case counted
        /// It did not count; a joker kept the streak alive.
        case jokerUsed
        /// It did not count and the streak ended here.
        case broken
    }

    /// The streak of `category` as of `today`.
    public init(totals: DailyTotals, category: PracticeCategory, today: Day, jokersEnabled: Bool) {
        current = 0
        longest = 0
        jokersHeld = 0
        days = StreakDays(first: today, statuses: [])
        todayCounts = totals[today].counts(for: category)
        guard let first = totals.firstCountingDay(for: category) else { return }
        let last = todayCounts ? today : today.adding(days: -1)
        guard first <= last else { return }
        var statuses = [StreakDay?](repeating: nil, count: first.days(to: last) + 1)
        defer { days = StreakDays(first: first, statuses: statuses) }
        var run = 0
        var day = first
        while day <= last {
            if totals[day].counts(for: category) {
                current += 1
                run += 1
                if run == Self.daysPerJoker {
                    run = 0
                    if jokersEnabled { jokersHeld = min(Self.maximumJokers, jokersHeld + 1) }
                }
                statuses[first.days(to: day)] = .counted
            } else if current > 0 {
                run = 0
                if jokersHeld > 0 {
                    jokersHeld -= 1
                    statuses[first.days(to: day)] = .jokerUsed
                } else {
                    current = 0
                    statuses[first.days(to: day)] = .broken
                }
            }
            longest = max(longest, current)
            day = day.adding(days: 1)
        }
    }
}

/// What each walked day did for a streak, stored densely from the first walked day.
public struct StreakDays: Sendable, Equatable {
    public let first: Day
    private let statuses: [Streak.StreakDay?]

    init(first: Day, statuses: [Streak.StreakDay?]) {
        self.first = first
        self.statuses = statuses
    }

    /// What `day` did for the streak; `nil` for days before the first count or not walked.
    public subscript(day: Day) -> Streak.StreakDay? {
        let index = first.days(to: day)
        return statuses.indices.contains(index) ? statuses[index] : nil
    }

    /// The streak's length at the end of each walked day, from ``first``: a counted day adds
    /// one, a joker day keeps it, a break (or a day outside any streak) resets it.
    public var lengths: [Int] {
        var length = 0
        return statuses.map { status in
            switch status {
            case .counted: length += 1
            case .jokerUsed: break
            case .broken, nil: length = 0
            }
            return length
        }
    }

    /// The days with `status`, oldest first.
    public func days(_ status: Streak.StreakDay) -> [Day] {
        statuses.enumerated().compactMap { $1 == status ? first.adding(days: $0) : nil }
    }
}

import Foundation

/// A 0–100 % score that rises with practice and decays slowly when skipped:
/// score_t = score_(t−1) · m + done_t · (1 − m), with m = 0.5^(1/13) for daily practice
/// (a skipped day halves the distance to zero in 13 days).
public struct HabitStrength: Sendable, Equatable {
    public static let decay = pow(0.5, 1.0 / 13.0)

    /// The score after each day, from the first practice of the category to the last settled day
    /// (today if it counts, else yesterday).
    public var series: [(day: Day, score: Double)]

    /// Today's score, 0 … 1.
    public var current: Double { series.last?.score ?? 0 }

    public init(totals: DailyTotals, category: PracticeCategory, today: Day) {
        series = []
        guard let first = totals.firstCountingDay(for: category) else { return }
        let last = totals[today].counts(for: category) ? today : today.adding(days: -1)
        guard first <= last else { return }
        var score = 0.0
        var day = first
        series.reserveCapacity(first.days(to: last) + 1)
        while day <= last {
            let done = totals[day].counts(for: category) ? 1.0 : 0.0
            score = score * Self.decay + done * (1 - Self.decay)
            series.append((day, score))
            day = day.adding(days: 1)
        }
    }

    public static func == (lhs: HabitStrength, rhs: HabitStrength) -> Bool {
        lhs.series.elementsEqual(rhs.series) { $0.day == $1.day && $0.score == $1.score }
    }
}

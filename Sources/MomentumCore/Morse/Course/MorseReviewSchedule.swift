import Foundation

/// When a direction of the course is due next: spaced repetition by session accuracy (SPEC §7).
///
/// | session accuracy | next interval |
/// |---|---|
/// | ≥ 90 % | doubled, at most 30 days |
/// | 70 – 89 % | unchanged |
/// | < 70 % | 1 day |
///
/// Coming back later than twice the interval after the last practice resets the interval to
/// 1 day, whatever the session's accuracy (exactly twice does not). During the first 14 days of
/// the course the interval is at most 2 days. The next practice is the last practice plus the
/// interval, in calendar days of the person's time zone, so it keeps its time of day across
/// daylight-saving changes.
///
/// ```swift
/// let schedule = MorseReviewSchedule().scheduling(
///     sessionAccuracy: 0.95, at: now, courseStart: start, calendar: calendar)
/// schedule.intervalDays  // 2
/// ```
public struct MorseReviewSchedule: Sendable, Hashable {
    public static let intervalBounds = 1...30
    public static let firstWeeksDays = 14
    public static let firstWeeksMaximumInterval = 2

    /// Days from one practice to the next.
    public private(set) var intervalDays = 1
    /// When the last session of this direction ended.
    public private(set) var lastPractice: Date?
    /// ``lastPractice`` plus the interval.
    public private(set) var nextPractice: Date?

    /// The schedule before the first session: a 1-day interval, nothing practised.
    public init() {}

    /// A stored schedule; throws when the interval is out of bounds or the dates do not belong
    /// together.
    ///
    /// - Throws: ``MorseCourseProgressError/intervalOutOfRange(_:)`` or
    ///   ``MorseCourseProgressError/practiceDatesInconsistent``.
    public init(intervalDays: Int, lastPractice: Date?, nextPractice: Date?) throws(MorseCourseProgressError) {
        guard Self.intervalBounds.contains(intervalDays) else { throw .intervalOutOfRange(intervalDays) }
        switch (lastPractice, nextPractice) {
        case (nil, nil): break
        case (let last?, let next?) where next > last: break
        default: throw .practiceDatesInconsistent
        }
        self.intervalDays = intervalDays
        self.lastPractice = lastPractice
        self.nextPractice = nextPractice
    }

    /// The schedule after a session with `sessionAccuracy` (0 … 1) that ended at `instant`, in a
    /// course that began at `courseStart`.
    public func scheduling(sessionAccuracy: Double, at instant: Date, courseStart: Date, calendar: Calendar)
        -> MorseReviewSchedule
    {
        var interval: Int
        if let lastPractice, instant > Self.adding(days: 2 * intervalDays, to: lastPractice, in: calendar) {
            interval = 1
        } else if sessionAccuracy >= 0.9 {
            interval = min(2 * intervalDays, Self.intervalBounds.upperBound)
        } else if sessionAccuracy >= 0.7 {
            interval = intervalDays
        } else {
            interval = 1
        }
        if instant < Self.adding(days: Self.firstWeeksDays, to: courseStart, in: calendar) {
            interval = min(interval, Self.firstWeeksMaximumInterval)
        }
        var next = self
        next.intervalDays = interval
        next.lastPractice = instant
        next.nextPractice = Self.adding(days: interval, to: instant, in: calendar)
        return next
    }

    /// Whether a session is due at `instant`: never practised, or the next practice has come.
    public func isDue(at instant: Date) -> Bool { nextPractice.map { instant >= $0 } ?? true }

    /// `date` plus `days` calendar days; 86 400 s a day if the calendar cannot say (it always can
    /// for the Gregorian calendar).
    static func adding(days: Int, to date: Date, in calendar: Calendar) -> Date {
        calendar.date(byAdding: .day, value: days, to: date) ?? date.addingTimeInterval(Double(days) * 86_400)
    }
}

extension MorseReviewSchedule: Codable {
    private enum CodingKeys: String, CodingKey { case intervalDays, lastPractice, nextPractice }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let interval = try container.decode(Int.self, forKey: .intervalDays)
        let last = try container.decodeIfPresent(Date.self, forKey: .lastPractice)
        let next = try container.decodeIfPresent(Date.self, forKey: .nextPractice)
        do {
            try self.init(intervalDays: interval, lastPractice: last, nextPractice: next)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\(error)", underlyingError: error))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(intervalDays, forKey: .intervalDays)
        try container.encodeIfPresent(lastPractice, forKey: .lastPractice)
        try container.encodeIfPresent(nextPractice, forKey: .nextPractice)
    }
}

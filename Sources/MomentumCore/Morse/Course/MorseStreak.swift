/// The Morse streak: consecutive calendar days with at least one training session (SPEC §7).
///
/// A second session on the same day changes nothing, one on the next day adds one, and one after
/// a skipped day starts again at 1. The longest streak is kept. Days come from the person's
/// ``DayCalendar``, like every other day in Momentum.
///
/// ```swift
/// MorseStreak().recordingSession(on: monday).recordingSession(on: tuesday).current  // 2
/// ```
public struct MorseStreak: Sendable, Hashable {
    /// The streak as of ``lastDay``.
    public private(set) var current = 0
    public private(set) var longest = 0
    /// The last day with a session.
    public private(set) var lastDay: Day?

    /// No session yet.
    public init() {}

    /// A stored streak; throws when the numbers cannot belong together.
    ///
    /// - Throws: ``MorseCourseProgressError/impossibleStreak(current:longest:)``.
    public init(current: Int, longest: Int, lastDay: Day?) throws(MorseCourseProgressError) {
        guard current >= 0, longest >= current, (current > 0) == (lastDay != nil) else {
            throw .impossibleStreak(current: current, longest: longest)
        }
        self.current = current
        self.longest = longest
        self.lastDay = lastDay
    }

    /// The streak after a session on `day`. A day before ``lastDay`` (a late-synced session)
    /// changes nothing.
    public func recordingSession(on day: Day) -> MorseStreak {
        var next = self
        switch lastDay.map({ $0.days(to: day) }) {
        case .some(let days) where days <= 0: return self
        case .some(1): next.current += 1
        default: next.current = 1
        }
        next.lastDay = day
        next.longest = max(longest, next.current)
        return next
    }

    /// The streak to show on `today`: ``current`` while it is alive (a session today or
    /// yesterday, today still being open), else 0.
    public func current(on today: Day) -> Int {
        guard let lastDay, lastDay.days(to: today) <= 1 else { return 0 }
        return current
    }
}

extension MorseStreak: Codable {
    private enum CodingKeys: String, CodingKey { case current, longest, lastDay }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let current = try container.decode(Int.self, forKey: .current)
        let longest = try container.decode(Int.self, forKey: .longest)
        let lastDay = try container.decodeIfPresent(Day.self, forKey: .lastDay)
        do {
            try self.init(current: current, longest: longest, lastDay: lastDay)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\(error)", underlyingError: error))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(current, forKey: .current)
        try container.encode(longest, forKey: .longest)
        try container.encodeIfPresent(lastDay, forKey: .lastDay)
    }
}

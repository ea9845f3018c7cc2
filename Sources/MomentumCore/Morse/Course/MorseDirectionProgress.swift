import Foundation

/// A level reached, and when.
public struct MorseLevelChange: Sendable, Hashable, Codable {
    public let level: Int
    public let date: Date

    public init(level: Int, date: Date) {
        self.level = level
        self.date = date
    }
}

/// Where a person stands in one direction of the course: level, per-character statistics,
/// schedule and level history.
public struct MorseDirectionProgress: Sendable, Hashable {
    public static let levelReviewDelayDays = 7

    /// 1 … one less than the length of the order (``KochOrder/levels``): level n practises its
    /// first n + 1 characters (``KochOrder/characters(atLevel:)``).
    public private(set) var level = 1
    /// Every attempt of every session of this direction, per character.
    public private(set) var characterStatistics: [MorseSymbol: MorseCharacterStatistics] = [:]
    public private(set) var schedule = MorseReviewSchedule()
    /// Each level up, oldest first.
    public private(set) var levelHistory: [MorseLevelChange] = []
    /// 7 days after the last level up, until a session at or after that date reviews the level.
    public private(set) var levelReviewDue: Date?

    /// A direction not practised yet: level 1.
    public init() {}

    /// Stored progress; throws when its parts cannot belong together in `order`.
    ///
    /// - Throws: ``MorseCourseProgressError/levelOutOfRange(_:order:)`` or
    ///   ``MorseCourseProgressError/levelHistoryInconsistent``.
    public init(
        level: Int, characterStatistics: [MorseSymbol: MorseCharacterStatistics], schedule: MorseReviewSchedule,
        levelHistory: [MorseLevelChange], levelReviewDue: Date?, order: KochOrder
    ) throws(MorseCourseProgressError) {
        let levels = order.levels
        guard levels.contains(level) else { throw .levelOutOfRange(level, order: order) }
        let isOrdered = zip(levelHistory, levelHistory.dropFirst()).allSatisfy {
            $0.level < $1.level && $0.date <= $1.date
        }
        guard isOrdered, levelHistory.allSatisfy({ levels.contains($0.level) }),
            levelHistory.last.map({ $0.level == level }) ?? true
        else { throw .levelHistoryInconsistent }
        self.level = level
        self.characterStatistics = characterStatistics
        self.schedule = schedule
        self.levelHistory = levelHistory
        self.levelReviewDue = levelReviewDue
    }

    /// The earlier of the next practice and a due level review; `nil` before the first session.
    public var nextDue: Date? {
        [schedule.nextPractice, levelReviewDue].compactMap(\.self).min()
    }

    /// This direction after `result`, a session of it with at least one attempt.
    func applying(_ result: MorseSessionResult, accuracy: Double, courseStart: Date, calendar: Calendar)
        -> MorseDirectionProgress
    {
        var next = self
        next.characterStatistics.merge(result.characterStatistics) { $0.adding($1) }
        if let due = levelReviewDue, result.endedAt >= due { next.levelReviewDue = nil }
        if result.earnsLevelUp {
            next.level = result.nextLevel
            next.levelHistory.append(MorseLevelChange(level: result.nextLevel, date: result.endedAt))
            next.levelReviewDue = MorseReviewSchedule.adding(
                days: Self.levelReviewDelayDays, to: result.endedAt, in: calendar)
        }
        next.schedule = schedule.scheduling(
            sessionAccuracy: accuracy, at: result.endedAt, courseStart: courseStart, calendar: calendar)
        return next
    }
}

extension MorseDirectionProgress {
    enum CodingKeys: String, CodingKey {
        case level, characterStatistics, schedule, levelHistory, levelReviewDue
    }

    /// Reads a direction; `countsLevelsFromOne` says it was stored while level n practised the
    /// first n characters (before issue 25), so its numbers move down by one to keep the same
    /// characters (docs/morse.md).
    init(from container: KeyedDecodingContainer<CodingKeys>, order: KochOrder, countsLevelsFromOne: Bool) throws {
        var level = try container.decode(Int.self, forKey: .level)
        let statistics = try container.decode(
            [MorseSymbol: MorseCharacterStatistics].self, forKey: .characterStatistics)
        let schedule = try container.decode(MorseReviewSchedule.self, forKey: .schedule)
        var history = try container.decode([MorseLevelChange].self, forKey: .levelHistory)
        var reviewDue = try container.decodeIfPresent(Date.self, forKey: .levelReviewDue)
        if countsLevelsFromOne {
            level = Self.level(fromOneCharacterLevel: level)
            // Reaching old level 2 (K M) is where the course now starts: no longer a level up, nor
            // a level to review.
            let moved = history.map {
                MorseLevelChange(level: Self.level(fromOneCharacterLevel: $0.level), date: $0.date)
            }.filter { $0.level > 1 }
            if moved.isEmpty && !history.isEmpty { reviewDue = nil }
            history = moved
        }
        do {
            try self.init(
                level: level, characterStatistics: statistics, schedule: schedule, levelHistory: history,
                levelReviewDue: reviewDue, order: order)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: container.codingPath, debugDescription: "\(error)", underlyingError: error))
        }
    }

    /// The level that practises what `level` practised when level n had n characters: the same
    /// characters from old level 2 on; old level 1 (K alone) becomes level 1 (K M). A level that
    /// was never valid stays invalid, so it is still refused.
    static func level(fromOneCharacterLevel level: Int) -> Int { level > 1 ? level - 1 : level }

    func encode(to container: inout KeyedEncodingContainer<CodingKeys>) throws {
        try container.encode(level, forKey: .level)
        try container.encode(characterStatistics, forKey: .characterStatistics)
        try container.encode(schedule, forKey: .schedule)
        try container.encode(levelHistory, forKey: .levelHistory)
        try container.encodeIfPresent(levelReviewDue, forKey: .levelReviewDue)
    }
}

import Foundation

// The wire form of the course, as `momentum morse progress --json` and `GET /api/v1/morse/progress`
// answer it: per direction the level and its characters, the schedule and every character's
// statistics in the order's sequence, weakest first in `weakest`.

extension MorseCourseProgress {
    public struct JSONForm: Encodable, Sendable {
        public var order: KochOrder
        public var courseStart: Date?
        /// The Morse streak as the practice log counts it; absent while streaks are hidden.
        public var streak: Streak?
        /// Whether the person hides streaks (`progress.hide-streaks`).
        public var streaksHidden: Bool
        public var receive: Direction
        public var send: Direction
        /// What the level-up rule asks (``MorseLevelRule``), for the page that explains it.
        public var levelRule: LevelRule
        /// When QSO practice makes sense (``MorseQSOReadiness``).
        public var qso: QSO

        public struct LevelRule: Encodable, Sendable {
            public var minimumAttempts = MorseLevelRule.minimumAttempts
            public var minimumPercent = MorseLevelRule.minimumPercent
            public var minimumNewestAttempts = MorseLevelRule.minimumNewestAttempts
        }

        public struct QSO: Encodable, Sendable {
            /// The receive level from which a contact is offered.
            public var recommendedLevel: Int
            /// Whether the receive level has reached it.
            public var isRecommended: Bool
        }

        public struct Streak: Encodable, Sendable {
            public var current: Int
            public var longest: Int
        }

        public struct Direction: Encodable, Sendable {
            public var level: Int
            public var levelCount: Int
            /// The characters this level practises, in the order's sequence; the last is the newest.
            public var characters: [String]
            public var intervalDays: Int
            public var lastPractice: Date?
            public var nextPractice: Date?
            public var levelReviewDue: Date?
            public var isDue: Bool
            public var levelHistory: [MorseLevelChange]
            public var statistics: [Character]
            /// Up to five characters missed at least once, weakest first (none while all are right).
            public var weakest: [String]
        }

        public struct Character: Encodable, Sendable {
            public var character: String
            public var pattern: String
            public var attempts: Int
            public var correct: Int
            public var accuracy: Double?
            public var averageResponseMs: Int64?
        }
    }

    /// The wire form as of `now`, with the Morse streak of `report` (the log's, the one number
    /// Progress shows too) unless the person hides streaks.
    public func jsonForm(now: Date, report: ProgressReport) -> JSONForm {
        func direction(_ which: MorseDirection) -> JSONForm.Direction {
            let progress = self[which]
            let symbols = order.symbols
            let statistics = progress.characterStatistics
            return JSONForm.Direction(
                level: progress.level, levelCount: order.levels.upperBound,
                characters: order.characters(atLevel: progress.level).map(\.displayText),
                intervalDays: progress.schedule.intervalDays, lastPractice: progress.schedule.lastPractice,
                nextPractice: progress.schedule.nextPractice, levelReviewDue: progress.levelReviewDue,
                isDue: progress.nextDue.map { now >= $0 } ?? true, levelHistory: progress.levelHistory,
                statistics: symbols.compactMap { symbol in
                    statistics[symbol].map { stats in
                        JSONForm.Character(
                            character: symbol.displayText, pattern: symbol.patternText, attempts: stats.attempts,
                            correct: stats.correct, accuracy: stats.accuracy.map { ($0 * 1000).rounded() / 1000 },
                            averageResponseMs: stats.averageResponseTime?.wholeMilliseconds)
                    }
                },
                weakest: statistics.weakest(among: symbols).filter { (statistics[$0]?.accuracy ?? 1) < 1 }.prefix(5)
                    .map(\.displayText))
        }
        return JSONForm(
            order: order, courseStart: courseStart,
            streak: report.shownStreak(for: .morse).map { JSONForm.Streak(current: $0.current, longest: $0.longest) },
            streaksHidden: report.settings.hideStreaks,
            receive: direction(.receive), send: direction(.send), levelRule: JSONForm.LevelRule(),
            qso: JSONForm.QSO(
                recommendedLevel: MorseQSOReadiness.recommendedLevel(for: order),
                isRecommended: MorseQSOReadiness.isReady(receiveLevel: self[.receive].level, order: order)))
    }
}

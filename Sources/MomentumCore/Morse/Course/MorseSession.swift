import Foundation

/// One training session of the course, as a state machine driven by the instants of what the
/// person does.
///
/// introduction → training ⇄ paused → completed. The introduction presents the unlocked
/// characters, newest first. Only training time counts towards the length (default 5 min): a
/// paused session waits. The session ends on request (``end(at:)``, from any phase but completed)
/// and cannot take answers once its training time is used up.
///
/// ```swift
/// var session = try MorseSession(direction: .receive, order: .standard, level: 1, at: start)
/// session.introduction.map(\.displayText)         // ["M", "K"]
/// try session.startTraining(at: start + 10)
/// let item = try session.nextItem(at: start + 11, using: &random)
/// try session.record(MorseAttempt(item: item, answer: "m", responseTime: .seconds(1)), at: start + 12)
/// let result = try session.end(at: start + 20)
/// ```
public struct MorseSession: Sendable, Hashable {
    public enum Phase: String, Sendable, Hashable, Codable {
        case introduction, training, paused, completed
    }

    /// What was asked of the session, for ``MorseSessionError/invalidTransition(from:action:)``.
    public enum Action: String, Sendable, Hashable {
        case startTraining, pause, resume, nextItem, record, end
    }

    public static let defaultLength: Duration = .minutes(5)
    public static let lengthBounds: ClosedRange<Duration> = .minutes(1) ... .minutes(60)

    public let direction: MorseDirection
    public let order: KochOrder
    public let level: Int
    /// How much training time the session lasts.
    public let length: Duration
    public let startedAt: Date
    public private(set) var phase: Phase = .introduction
    public private(set) var attempts: [MorseAttempt] = []
    /// When the session ended, once completed.
    public private(set) var endedAt: Date?
    /// Draws the items; its statistics take in every attempt of the session.
    public private(set) var drill: MorseDrillGenerator

    /// Training time before the current stretch of training.
    private var trainedBefore: Duration = .zero
    /// When the current stretch of training began (only while training).
    private var trainingSince: Date?
    private var lastEvent: Date

    /// A session at `level` of `order`, starting with its introduction at `startedAt`;
    /// `statistics` (the course's so far, for this direction) weight the drill.
    ///
    /// - Throws: ``MorseSessionError/levelOutOfRange(_:order:)``,
    ///   ``MorseSessionError/groupSizeOutOfRange(_:)`` or ``MorseSessionError/lengthOutOfRange(_:)``.
    public init(
        direction: MorseDirection, order: KochOrder, level: Int,
        statistics: [MorseSymbol: MorseCharacterStatistics] = [:], groupSize: Int = 1,
        length: Duration = defaultLength, at startedAt: Date
    ) throws(MorseSessionError) {
        guard Self.lengthBounds.contains(length) else { throw .lengthOutOfRange(length) }
        drill = try MorseDrillGenerator(order: order, level: level, statistics: statistics, groupSize: groupSize)
        self.direction = direction
        self.order = order
        self.level = level
        self.length = length
        self.startedAt = startedAt
        self.lastEvent = startedAt
    }

    /// The unlocked characters, newest first, as the introduction presents them.
    public var introduction: [MorseSymbol] { drill.characters.reversed() }

    /// The level's new character.
    public var newestCharacter: MorseSymbol { drill.newestCharacter }

    /// Training time (pauses and the introduction not counted) up to `instant`, at most ``length``.
    public func trainingTime(at instant: Date) -> Duration {
        var time = trainedBefore
        if let trainingSince, instant > trainingSince { time += .seconds(instant.timeIntervalSince(trainingSince)) }
        return min(time, length)
    }

    /// Training time left at `instant`.
    public func remainingTime(at instant: Date) -> Duration { length - trainingTime(at: instant) }

    /// Whether the training time is used up at `instant`.
    public func isTimeUp(at instant: Date) -> Bool { trainingTime(at: instant) >= length }

    /// Ends the introduction and starts the clock of the training.
    public mutating func startTraining(at instant: Date) throws(MorseSessionError) {
        try check(.startTraining, allowedIn: [.introduction], at: instant)
        phase = .training
        trainingSince = instant
        lastEvent = instant
    }

    /// Stops the training clock.
    public mutating func pause(at instant: Date) throws(MorseSessionError) {
        try check(.pause, allowedIn: [.training], at: instant)
        guard !isTimeUp(at: instant) else { throw .timeIsUp }
        trainedBefore = trainingTime(at: instant)
        trainingSince = nil
        phase = .paused
        lastEvent = instant
    }

    /// Starts the training clock again.
    public mutating func resume(at instant: Date) throws(MorseSessionError) {
        try check(.resume, allowedIn: [.paused], at: instant)
        trainingSince = instant
        phase = .training
        lastEvent = instant
    }

    /// The next item to play or show, drawn from `generator`.
    public func nextItem(at instant: Date, using generator: inout some RandomNumberGenerator)
        throws(MorseSessionError) -> MorseDrillItem
    {
        try check(.nextItem, allowedIn: [.training], at: instant)
        guard !isTimeUp(at: instant) else { throw .timeIsUp }
        return drill.nextItem(using: &generator)
    }

    /// The instant an answer given at `instant` is recorded at: `instant` itself, or — when the
    /// time ran out while the item was waiting — the last millisecond before it ran out, so the
    /// answer to an item shown in time is scored and not lost. While not training, `instant`.
    public func answerInstant(forAnswerAt instant: Date) -> Date {
        guard phase == .training, let trainingSince, isTimeUp(at: instant) else { return instant }
        let timeUp = trainingSince.addingTimeInterval((length - trainedBefore).inSeconds)
        return max(lastEvent, timeUp.addingTimeInterval(-0.001))
    }

    /// Keeps `attempt`, answered at `instant`, and lets it weight the next draws.
    public mutating func record(_ attempt: MorseAttempt, at instant: Date) throws(MorseSessionError) {
        try check(.record, allowedIn: [.training], at: instant)
        guard !isTimeUp(at: instant) else { throw .timeIsUp }
        guard !attempt.item.symbols.isEmpty else { throw .emptyItem }
        attempts.append(attempt)
        drill.statistics.merge(Self.statistics(of: [attempt])) { $0.adding($1) }
        lastEvent = instant
    }

    /// Keeps the answer to an item handed out while training, given at `instant` — the rule
    /// every front end follows (docs/morse.md, "A late answer"): an answer that arrives after the
    /// training time ran out still counts, recorded at ``answerInstant(forAnswerAt:)``, because
    /// the item was shown in time. Only then does the session end.
    public mutating func recordAnswer(_ attempt: MorseAttempt, answeredAt instant: Date) throws(MorseSessionError) {
        try record(attempt, at: answerInstant(forAnswerAt: instant))
    }

    /// Ends the session at `instant` (or when its time ran out, if earlier) and returns its result.
    public mutating func end(at instant: Date) throws(MorseSessionError) -> MorseSessionResult {
        try check(.end, allowedIn: [.introduction, .training, .paused], at: instant)
        var end = instant
        if let trainingSince, isTimeUp(at: instant) {
            end = trainingSince.addingTimeInterval((length - trainedBefore).inSeconds)
        }
        trainedBefore = trainingTime(at: end)
        trainingSince = nil
        phase = .completed
        endedAt = end
        lastEvent = instant
        return MorseSessionResult(session: self, endedAt: end)
    }

    /// The result, once completed.
    public var result: MorseSessionResult? {
        endedAt.map { MorseSessionResult(session: self, endedAt: $0) }
    }

    private func check(_ action: Action, allowedIn phases: Set<Phase>, at instant: Date) throws(MorseSessionError) {
        guard phases.contains(phase) else { throw .invalidTransition(from: phase, action: action) }
        guard instant >= lastEvent else { throw .instantBeforeLastEvent }
    }

    /// Per-character statistics of `attempts`; response times count only for single characters.
    static func statistics(of attempts: [MorseAttempt]) -> [MorseSymbol: MorseCharacterStatistics] {
        var statistics: [MorseSymbol: MorseCharacterStatistics] = [:]
        for attempt in attempts {
            let responseTime = attempt.item.symbols.count == 1 ? attempt.responseTime : nil
            for result in attempt.score.characterResults {
                statistics[result.symbol, default: MorseCharacterStatistics()]
                    .record(isCorrect: result.isCorrect, responseTime: responseTime)
            }
        }
        return statistics
    }
}

extension MorseCharacterStatistics {
    func adding(_ other: MorseCharacterStatistics) -> MorseCharacterStatistics {
        var sum = self
        sum.add(other)
        return sum
    }
}

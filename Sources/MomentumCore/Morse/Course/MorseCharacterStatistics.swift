/// How one character has gone in one direction: attempts, right answers, response time.
///
/// ```swift
/// var k = MorseCharacterStatistics()
/// k.record(isCorrect: true, responseTime: .milliseconds(800))
/// k.accuracy             // 1.0
/// k.averageResponseTime  // 0.8 s
/// ```
public struct MorseCharacterStatistics: Sendable, Hashable {
    public private(set) var attempts = 0
    public private(set) var correct = 0
    /// Attempts that came with a response time (characters of a group and missed answers do not).
    public private(set) var timedAttempts = 0
    /// The sum of the response times of the timed attempts.
    public private(set) var totalResponseTime: Duration = .zero

    public init() {}

    /// Statistics with these counts; throws when they cannot belong together.
    ///
    /// - Throws: ``MorseCourseProgressError/impossibleStatistics(attempts:correct:timedAttempts:)``.
    public init(attempts: Int, correct: Int, timedAttempts: Int, totalResponseTime: Duration)
        throws(MorseCourseProgressError)
    {
        guard attempts >= 0, (0...attempts).contains(correct), (0...attempts).contains(timedAttempts),
            totalResponseTime >= .zero, timedAttempts > 0 || totalResponseTime == .zero
        else {
            throw .impossibleStatistics(attempts: attempts, correct: correct, timedAttempts: timedAttempts)
        }
        self.attempts = attempts
        self.correct = correct
        self.timedAttempts = timedAttempts
        self.totalResponseTime = totalResponseTime
    }

    /// Counts one attempt at the character.
    public mutating func record(isCorrect: Bool, responseTime: Duration? = nil) {
        attempts += 1
        if isCorrect { correct += 1 }
        if let responseTime {
            timedAttempts += 1
            totalResponseTime += max(.zero, responseTime)
        }
    }

    /// Adds `other`'s counts, e.g. a session's to the course's.
    public mutating func add(_ other: MorseCharacterStatistics) {
        attempts += other.attempts
        correct += other.correct
        timedAttempts += other.timedAttempts
        totalResponseTime += other.totalResponseTime
    }

    /// Right answers as a fraction of attempts, or `nil` before the first attempt.
    public var accuracy: Double? { attempts == 0 ? nil : Double(correct) / Double(attempts) }

    /// Wrong answers as a fraction of attempts, or `nil` before the first attempt.
    public var missRate: Double? { accuracy.map { 1 - $0 } }

    /// The mean response time of the timed attempts, or `nil` when none was timed.
    public var averageResponseTime: Duration? {
        timedAttempts == 0 ? nil : totalResponseTime / timedAttempts
    }
}

extension MorseCharacterStatistics: Codable {
    private enum CodingKeys: String, CodingKey { case attempts, correct, timedAttempts, totalResponseMilliseconds }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let milliseconds = try container.decode(Int64.self, forKey: .totalResponseMilliseconds)
        do {
            try self.init(
                attempts: container.decode(Int.self, forKey: .attempts),
                correct: container.decode(Int.self, forKey: .correct),
                timedAttempts: container.decode(Int.self, forKey: .timedAttempts),
                totalResponseTime: .milliseconds(milliseconds))
        } catch let error as MorseCourseProgressError {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\(error)", underlyingError: error))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(correct, forKey: .correct)
        try container.encode(timedAttempts, forKey: .timedAttempts)
        try container.encode(totalResponseTime.wholeMilliseconds, forKey: .totalResponseMilliseconds)
    }
}

extension [MorseSymbol: MorseCharacterStatistics] {
    /// The characters of `symbols` ordered weakest first: lowest accuracy, then most attempts, then
    /// in the given order; characters never tried are left out.
    public func weakest(among symbols: [MorseSymbol]) -> [MorseSymbol] {
        let tried = symbols.enumerated().compactMap { index, symbol in
            self[symbol]?.accuracy.map { (symbol, $0, self[symbol]?.attempts ?? 0, index) }
        }
        return tried.sorted { ($0.1, -$0.2, $0.3) < ($1.1, -$1.2, $1.3) }.map(\.0)
    }
}

import Foundation

/// Everything the course keeps for a person: both directions and the start date.
///
/// The Morse streak is not kept here: like every streak it is counted from the practice log
/// (``ProgressReport/streak(for:)`` with ``PracticeCategory/morse``), so a session logged by hand
/// counts exactly as a course session does (docs/morse.md).
///
/// It changes only through ``applying(_:dayCalendar:)``, a pure function from a finished session
/// to the new progress. Decoding checks every value, so a corrupt stored row is a
/// ``MorseCourseProgressError``, never a crash or a half-read value.
///
/// ```swift
/// let progress = try MorseCourseProgress().applying(result, dayCalendar: calendar)
/// progress[.receive].level            // 3 after a level up at 2
/// progress[.receive].schedule.nextPractice
/// ```
public struct MorseCourseProgress: Sendable, Hashable {
    /// The Koch order the levels count in.
    public private(set) var order: KochOrder
    /// When the first session (either direction) began; the first 14 days count from here.
    public private(set) var courseStart: Date?
    public private(set) var receive = MorseDirectionProgress()
    public private(set) var send = MorseDirectionProgress()

    /// A course not started yet: both directions at level 1.
    public init(order: KochOrder = .standard) {
        self.order = order
    }

    /// Stored progress; throws when practice is recorded without a start date.
    ///
    /// - Throws: ``MorseCourseProgressError/missingCourseStart``.
    public init(
        order: KochOrder, courseStart: Date?, receive: MorseDirectionProgress, send: MorseDirectionProgress
    ) throws(MorseCourseProgressError) {
        let hasPractice = receive.schedule.lastPractice != nil || send.schedule.lastPractice != nil
        guard courseStart != nil || !hasPractice else { throw .missingCourseStart }
        self.order = order
        self.courseStart = courseStart
        self.receive = receive
        self.send = send
    }

    /// The progress of one direction.
    public subscript(direction: MorseDirection) -> MorseDirectionProgress {
        get {
            switch direction {
            case .receive: receive
            case .send: send
            }
        }
        set {
            switch direction {
            case .receive: receive = newValue
            case .send: send = newValue
            }
        }
    }

    /// The progress after `result`: statistics added, level advanced when earned (with its review
    /// 7 days later) and the direction's schedule moved on, with dates in `dayCalendar`'s time zone.
    ///
    /// A session without attempts (ended during the introduction) practised nothing and leaves
    /// the progress as it is.
    ///
    /// - Throws: ``MorseCourseProgressError/orderMismatch(progress:session:)``,
    ///   ``MorseCourseProgressError/levelMismatch(progress:session:)`` or
    ///   ``MorseCourseProgressError/sessionBeforeLastPractice``.
    public func applying(_ result: MorseSessionResult, dayCalendar: DayCalendar) throws(MorseCourseProgressError)
        -> MorseCourseProgress
    {
        guard result.order == order else { throw .orderMismatch(progress: order, session: result.order) }
        let direction = self[result.direction]
        guard result.level == direction.level else {
            throw .levelMismatch(progress: direction.level, session: result.level)
        }
        if let last = direction.schedule.lastPractice, result.endedAt < last { throw .sessionBeforeLastPractice }
        guard let accuracy = result.accuracy else { return self }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = dayCalendar.timeZone
        var next = self
        let courseStart = courseStart ?? result.startedAt
        next.courseStart = courseStart
        next[result.direction] = direction.applying(
            result, accuracy: accuracy, courseStart: courseStart, calendar: calendar)
        return next
    }

    /// Reads progress stored as JSON (dates as the encoder's default, seconds since 2001).
    ///
    /// - Throws: the ``MorseCourseProgressError`` that says what is wrong, or
    ///   ``MorseCourseProgressError/unreadable(_:)``.
    public static func decoded(fromJSON data: Data) throws(MorseCourseProgressError) -> MorseCourseProgress {
        do {
            return try JSONDecoder().decode(MorseCourseProgress.self, from: data)
        } catch let error as DecodingError {
            throw Self.progressError(in: error) ?? .unreadable("\(error)")
        } catch {
            throw .unreadable("\(error)")
        }
    }

    /// The progress as JSON, for ``decoded(fromJSON:)``.
    public func encodedJSON() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// The typed error a validating decoder wrapped in `error`, if any.
    private static func progressError(in error: DecodingError) -> MorseCourseProgressError? {
        guard case .dataCorrupted(let context) = error else { return nil }
        return context.underlyingError as? MorseCourseProgressError
    }
}

extension MorseCourseProgress: Codable {
    // Progress stored before the streak moved to the log has a `streak` key; it is not read.
    // `firstLevelCharacters` says how many characters level 1 practised when it was stored:
    // progress without it counted one (before issue 25) and is read with its levels moved down.
    private enum CodingKeys: String, CodingKey { case order, courseStart, receive, send, firstLevelCharacters }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let order = try container.decode(KochOrder.self, forKey: .order)
        let firstLevelCharacters = try container.decodeIfPresent(Int.self, forKey: .firstLevelCharacters) ?? 1
        guard [1, KochOrder.firstLevelCharacterCount].contains(firstLevelCharacters) else {
            throw DecodingError.dataCorruptedError(
                forKey: .firstLevelCharacters, in: container, debugDescription: "unknown level rule")
        }
        let countsLevelsFromOne = firstLevelCharacters == 1
        let receive = try MorseDirectionProgress(
            from: container.nestedContainer(keyedBy: MorseDirectionProgress.CodingKeys.self, forKey: .receive),
            order: order, countsLevelsFromOne: countsLevelsFromOne)
        let send = try MorseDirectionProgress(
            from: container.nestedContainer(keyedBy: MorseDirectionProgress.CodingKeys.self, forKey: .send),
            order: order, countsLevelsFromOne: countsLevelsFromOne)
        let courseStart = try container.decodeIfPresent(Date.self, forKey: .courseStart)
        do {
            try self.init(order: order, courseStart: courseStart, receive: receive, send: send)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\(error)", underlyingError: error))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(order, forKey: .order)
        try container.encode(KochOrder.firstLevelCharacterCount, forKey: .firstLevelCharacters)
        try container.encodeIfPresent(courseStart, forKey: .courseStart)
        var receiveContainer = container.nestedContainer(
            keyedBy: MorseDirectionProgress.CodingKeys.self, forKey: .receive)
        try receive.encode(to: &receiveContainer)
        var sendContainer = container.nestedContainer(keyedBy: MorseDirectionProgress.CodingKeys.self, forKey: .send)
        try send.encode(to: &sendContainer)
    }
}

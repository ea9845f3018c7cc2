import Foundation

/// A finished Morse training session, as the course history lists it.
public struct MorseSessionSummary: Sendable, Equatable, Codable {
    public var id: UUID
    public var direction: MorseDirection
    public var order: KochOrder
    public var level: Int
    public var nextLevel: Int
    public var startedAt: Date
    public var endedAt: Date
    public var trainingMilliseconds: Int64
    public var attempts: Int
    public var correct: Int

    public init(id: UUID, result: MorseSessionResult) {
        self.id = id
        direction = result.direction
        order = result.order
        level = result.level
        nextLevel = result.nextLevel
        startedAt = result.startedAt
        endedAt = result.endedAt
        trainingMilliseconds = result.trainingTime.wholeMilliseconds
        attempts = result.attemptCount
        correct = result.correctCount
    }
}

extension MorseSessionSummary {
    /// A summary as stored.
    public init(
        id: UUID, direction: MorseDirection, order: KochOrder, level: Int, nextLevel: Int, startedAt: Date,
        endedAt: Date, trainingMilliseconds: Int64, attempts: Int, correct: Int
    ) {
        self.id = id
        self.direction = direction
        self.order = order
        self.level = level
        self.nextLevel = nextLevel
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.trainingMilliseconds = trainingMilliseconds
        self.attempts = attempts
        self.correct = correct
    }
}

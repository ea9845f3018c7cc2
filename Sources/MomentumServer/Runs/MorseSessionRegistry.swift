import Foundation
import MomentumCore

/// A Morse training session played in the browser: the core's session, the item on screen, the
/// seeded generator that draws the items and the timing decoder that follows the person's hand.
struct MorseTraining: Sendable {
    let id: UUID
    var session: MorseSession
    let settings: MorseCourseSettings
    var generator: SeededRandomNumberGenerator
    /// Follows the sender's speed across the session's straight-key answers.
    var decoder: MorseTimingDecoder
    /// The item waiting for an answer, and when it was handed out.
    var item: MorseDrillItem?
    var itemIssuedAt: Date?
    var lastAttempt: MorseAttempt?
    var lastActivity: Date

    /// Draws the next item at `instant`, unless the session's time is up.
    mutating func drawItem(at instant: Date) throws(MorseSessionError) {
        guard !session.isTimeUp(at: instant) else {
            item = nil
            itemIssuedAt = nil
            return
        }
        item = try session.nextItem(at: instant, using: &generator)
        itemIssuedAt = instant
    }
}

/// The browser's Morse sessions, by id. A session is forgotten when it ends, or after two hours
/// without a request (a closed tab: its attempts were never saved, like an unfinished terminal
/// session).
actor MorseSessionRegistry {
    static let idleLimit: Duration = .seconds(2 * 3600)
    private var sessions: [UUID: MorseTraining] = [:]

    func add(_ training: MorseTraining) {
        forgetIdle(at: training.lastActivity)
        sessions[training.id] = training
    }

    func training(id: UUID) -> MorseTraining? { sessions[id] }

    /// Changes the session `id` with `change`; a thrown error leaves it as it was.
    func update<T: Sendable>(id: UUID, _ change: (inout MorseTraining) throws -> T) throws -> T {
        guard var training = sessions[id] else { throw APIError.notFound("No Morse session with id \(id).") }
        let result = try change(&training)
        sessions[id] = training
        return result
    }

    func remove(id: UUID) { sessions[id] = nil }

    private func forgetIdle(at instant: Date) {
        let limit = instant.addingTimeInterval(-Self.idleLimit.inSeconds)
        sessions = sessions.filter { $0.value.lastActivity >= limit }
    }
}

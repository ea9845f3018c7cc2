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

extension MorseTraining: Expiring {}

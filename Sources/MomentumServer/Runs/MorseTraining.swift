import Foundation
import MomentumAudio
import MomentumCore
import MomentumServices

/// A Morse training session played in the browser: the core's session, the item on screen, the
/// seeded generator that draws the items and the timing decoder that follows the person's hand.
///
/// Every change goes through the methods below, which also note it as a ``Step``: what the
/// session was made from and its steps are its stored form (``Stored``), replayed through these
/// same methods to rebuild it on another server.
struct MorseTraining: Sendable {
    let id: UUID
    private(set) var session: MorseSession
    let settings: MorseCourseSettings
    /// The seed of ``generator``.
    let seed: UInt64
    /// The band a receive item is heard on (noise, fading, another station, a chirp and a fist);
    /// always clean in send training.
    let conditions: MorseBandConditions.Preset
    private(set) var generator: SeededRandomNumberGenerator
    /// Follows the sender's speed across the session's straight-key answers.
    private(set) var decoder: MorseTimingDecoder
    /// The item waiting for an answer, and when it was handed out.
    private(set) var item: MorseDrillItem?
    private(set) var itemIssuedAt: Date?
    private(set) var lastAttempt: MorseAttempt?
    /// How the last answer was keyed, when it was keyed (a straight key's or the paddles' signals).
    private(set) var lastKeying: MorseKeyingReport?
    private(set) var lastActivity: Date
    /// The course's statistics the session started with (its drill's, before any answer).
    let startStatistics: [MorseSymbol: MorseCharacterStatistics]
    /// Every change since the start, in order.
    private(set) var steps: [Step] = []

    /// One change of the session, with what it was given.
    struct Step: Sendable, Equatable, Codable {
        enum Action: String, Sendable, Codable {
            case startTraining, pause, resume, answer, end
        }

        var action: Action
        var at: Date
        /// An answer: what was typed (or read from patterns), or the straight key's signals.
        var given: GivenAnswer?
        /// An answer: the response time the browser reported, as it reported it.
        var reportedResponse: Duration?
    }

    /// What the person answered: text, a straight key's signals (read by ``decoder``), or nothing
    /// in time (a miss).
    enum GivenAnswer: Sendable, Equatable, Codable {
        case nothing
        case text(String)
        case signals([Signal])

        /// ``MorseKeySignal`` as it is stored.
        enum Signal: Sendable, Equatable, Codable {
            case pressed(Duration)
            case released(Duration)

            init(_ signal: MorseKeySignal) {
                switch signal {
                case .pressed(let duration): self = .pressed(duration)
                case .released(let duration): self = .released(duration)
                }
            }

            var keySignal: MorseKeySignal {
                switch self {
                case .pressed(let duration): .pressed(duration)
                case .released(let duration): .released(duration)
                }
            }
        }
    }

    /// The training of `session`, just started (in its introduction), drawing with `seed`, its
    /// items heard on the band `conditions` (receive only: a send session's is clean).
    init(
        id: UUID, session: MorseSession, settings: MorseCourseSettings, seed: UInt64,
        conditions: MorseBandConditions.Preset = .clean
    ) throws(MorseDecodingError) {
        self.id = id
        self.session = session
        self.settings = settings
        self.seed = seed
        self.conditions = session.direction == .receive ? conditions : .clean
        generator = SeededRandomNumberGenerator(seed: seed)
        decoder = try MorseTimingDecoder(expectedWPM: settings.timing.characterWPM)
        lastActivity = session.startedAt
        startStatistics = session.drill.statistics
    }

    /// Whether an item waits for an answer.
    var isWaitingForAnswer: Bool { item != nil && session.phase == .training }

    /// Ends the introduction: training time starts and the first item is drawn.
    mutating func startTraining(at instant: Date) throws(MorseSessionError) {
        try session.startTraining(at: instant)
        try drawItem(at: instant)
        note(.startTraining, at: instant)
    }

    mutating func pause(at instant: Date) throws(MorseSessionError) {
        try session.pause(at: instant)
        note(.pause, at: instant)
    }

    /// Goes on; the item on screen is handed out again from now, so the pause is not response time.
    mutating func resume(at instant: Date) throws(MorseSessionError) {
        try session.resume(at: instant)
        if item == nil { try drawItem(at: instant) } else { itemIssuedAt = instant }
        note(.resume, at: instant)
    }

    /// Scores `given` as the answer to the item on screen, given at `instant`, and draws the next
    /// item (none once time is up). The response time is the one the browser reported, when it is
    /// not negative, or else the time since the item was handed out.
    mutating func answer(_ given: GivenAnswer, reportedResponse: Duration?, at instant: Date) throws {
        guard let item, session.phase == .training else { throw APIError.conflict(.apiMorseNoItemWaiting) }
        var keying: MorseKeyingReport?
        let answer: String?
        switch given {
        case .nothing: answer = nil
        case .text(let text): answer = text
        case .signals(let signals):
            let reading = try decoder.read(signals.map(\.keySignal))
            keying = MorseKeyingReport(reading: reading, expectedWords: [item.symbols])
            answer = reading.text.text
        }
        let response: Duration? =
            if let reportedResponse, reportedResponse >= .zero {
                reportedResponse
            } else {
                itemIssuedAt.map { .microseconds(Int64(($0.distance(to: instant) * 1e6).rounded())) }
            }
        let attempt = MorseAttempt(item: item, answer: answer, responseTime: response)
        try Self.sessionStep { () throws(MorseSessionError) in
            try session.recordAnswer(attempt, answeredAt: instant)
            try drawItem(at: instant)
        }
        lastAttempt = attempt
        lastKeying = keying
        steps.append(Step(action: .answer, at: instant, given: given, reportedResponse: reportedResponse))
        lastActivity = instant
    }

    /// Ends the session at `instant` by `ending` (the course service's finish, which ends the
    /// core's session and saves it); no item waits after it.
    mutating func end<Result>(at instant: Date, by ending: (inout MorseSession) async throws -> Result) async throws
        -> Result
    {
        var ended = session
        let result = try await ending(&ended)
        close(with: ended, at: instant)
        return result
    }

    /// Takes `ended` (this training's session, ended at `instant`) as its session: no item is
    /// asked any more.
    mutating func close(with ended: MorseSession, at instant: Date) {
        session = ended
        item = nil
        steps.append(Step(action: .end, at: instant))
    }

    /// Draws the next item at `instant`, unless the session's time is up.
    private mutating func drawItem(at instant: Date) throws(MorseSessionError) {
        guard !session.isTimeUp(at: instant) else {
            item = nil
            itemIssuedAt = nil
            return
        }
        item = try session.nextItem(at: instant, using: &generator)
        itemIssuedAt = instant
    }

    private mutating func note(_ action: Step.Action, at instant: Date) {
        steps.append(Step(action: action, at: instant))
        lastActivity = instant
    }

    /// Session steps that are impossible now (pausing a paused session, answering after time is
    /// up) are conflicts; an instant before the last event is a bad value.
    static func sessionStep(_ step: () throws(MorseSessionError) -> Void) throws {
        do {
            try step()
        } catch .invalidTransition {
            throw APIError.conflict(.errorMorseSession)
        } catch .timeIsUp {
            throw APIError.conflict(.errorMorseTimeUp)
        } catch .instantBeforeLastEvent {
            throw APIError.invalid(.errorMorseInstantBeforeLastEvent)
        } catch {
            throw MorseCourseServiceError.session(error)
        }
    }
}

extension MorseTraining: Expiring {}

extension MorseTraining {
    /// The item waiting for an answer as its sender keys it on the session's band, with the seed
    /// of its sound (``BandConditionsRenderer``); `nil` on a clean band or with no item out.
    ///
    /// The elements are those of the sound, keyed by the band's hand, so the page that counts the
    /// answer window from their end hears the same rhythm. Each item has its own noise and hand:
    /// the session's id and how many answers came before it.
    var bandItem: (number: Int, elements: [MorseElement], seed: UInt64)? {
        guard conditions != .clean, let item, session.phase == .training else { return nil }
        let number = session.attempts.count
        let keyer = settings.keyer
        let seed = id.exchangeSeed ^ UInt64(number)
        let elements = MorseBandConditions.preset(conditions).fist.keyed(
            keyer.elements(forWord: item.symbols), unit: keyer.timing.unit, seed: BandConditionsRenderer.fistSeed(seed))
        return (number, elements, seed)
    }
}

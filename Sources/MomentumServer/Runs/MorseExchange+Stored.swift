import Foundation
import MomentumCore
import MomentumStore
import MomentumStoreContract

extension MorseTraining: StoredMorseExchange {
    static var storedKind: String { "training" }

    /// A training session as the database keeps it (docs/postgres.md): what its core session was
    /// made from (the course's level and statistics when it started), its settings, the seed of
    /// its drill and every step with its instant and what was given. ``init(stored:)`` rebuilds
    /// the session by replaying the steps through the same methods that took them: the core's
    /// session, generator and timing decoder answer again as they did, and no rule is copied here.
    struct Stored: Codable, Sendable {
        var id: UUID
        var settings: MorseCourseSettings
        var direction: MorseDirection
        var order: KochOrder
        var level: Int
        var statistics: [StoredStatistics]
        var groupSize: Int
        var length: Duration
        var startedAt: Date
        /// The drill's seed, as text: JSON numbers do not all carry 64 bits.
        var seed: String
        var steps: [Step]
        /// Absent in sessions kept before receive training had bands: a clean band.
        var conditions: MorseBandConditions.Preset?
    }

    /// One character's statistics, exactly (``MorseCharacterStatistics``'s own coding keeps
    /// whole milliseconds).
    struct StoredStatistics: Codable, Sendable {
        var symbol: MorseSymbol
        var attempts: Int
        var correct: Int
        var timedAttempts: Int
        var totalResponseTime: Duration
    }

    var stored: Stored {
        Stored(
            id: id, settings: settings, direction: session.direction, order: session.order, level: session.level,
            statistics: startStatistics.map { symbol, statistics in
                StoredStatistics(
                    symbol: symbol, attempts: statistics.attempts, correct: statistics.correct,
                    timedAttempts: statistics.timedAttempts, totalResponseTime: statistics.totalResponseTime)
            }.sorted { $0.symbol.patternText < $1.symbol.patternText },
            groupSize: session.drill.groupSize, length: session.length, startedAt: session.startedAt,
            seed: String(seed), steps: steps, conditions: conditions == .clean ? nil : conditions)
    }

    /// The training `stored` describes: its session made again and its steps replayed.
    init(stored: Stored) throws(StoreError) {
        let corrupt = MorseExchangeStoredText.corrupt(id: stored.id)
        do {
            guard let seed = UInt64(stored.seed) else { throw corrupt("its seed is no number") }
            var statistics: [MorseSymbol: MorseCharacterStatistics] = [:]
            for line in stored.statistics {
                statistics[line.symbol] = try MorseCharacterStatistics(
                    attempts: line.attempts, correct: line.correct, timedAttempts: line.timedAttempts,
                    totalResponseTime: line.totalResponseTime)
            }
            let session = try MorseSession(
                direction: stored.direction, order: stored.order, level: stored.level, statistics: statistics,
                groupSize: stored.groupSize, length: stored.length, at: stored.startedAt)
            self = try MorseTraining(
                id: stored.id, session: session, settings: stored.settings, seed: seed,
                conditions: stored.conditions ?? .clean)
            for step in stored.steps {
                switch step.action {
                case .startTraining: try startTraining(at: step.at)
                case .pause: try pause(at: step.at)
                case .resume: try resume(at: step.at)
                case .answer:
                    try answer(step.given ?? .nothing, reportedResponse: step.reportedResponse, at: step.at)
                case .end:
                    var ended = self.session
                    _ = try ended.end(at: step.at)
                    close(with: ended, at: step.at)
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw corrupt("it does not replay: \(error)")
        }
    }

    func storedText() throws(StoreError) -> String { try MorseExchangeStoredText.encode(stored, id: id) }

    init(storedText text: String) throws(StoreError) {
        try self.init(stored: MorseExchangeStoredText.decode(Stored.self, from: text))
    }
}

extension MorseContact: StoredMorseExchange {
    static var storedKind: String { "qso" }

    /// A QSO as the database keeps it: what the core's contact was made from (style, mode, the
    /// call sign asked for, the seed that draws the station), its settings, when it started and
    /// every transmission of the person with its instant. ``init(stored:)`` replays them through
    /// the core's ``QSO``.
    struct Stored: Codable, Sendable {
        var id: UUID
        var settings: MorseCourseSettings
        var style: QSOStyle
        var mode: QSOMode
        var ownCallSign: String?
        var seed: String
        var startedAt: Date
        var transmissions: [Transmission]
        /// Absent in contacts kept before band conditions: a clean band.
        var conditions: MorseBandConditions.Preset?
    }

    var stored: Stored {
        Stored(
            id: id, settings: settings, style: qso.style, mode: qso.mode, ownCallSign: requestedCallSign,
            seed: String(seed), startedAt: startedAt, transmissions: transmissions, conditions: conditions)
    }

    /// The contact `stored` describes: made again and its transmissions received again.
    init(stored: Stored) throws(StoreError) {
        let corrupt = MorseExchangeStoredText.corrupt(id: stored.id)
        do {
            guard let seed = UInt64(stored.seed) else { throw corrupt("its seed is no number") }
            self = try MorseContact(
                id: stored.id, style: stored.style, mode: stored.mode, ownCallSign: stored.ownCallSign, seed: seed,
                settings: stored.settings, conditions: stored.conditions ?? .clean, at: stored.startedAt)
            for transmission in stored.transmissions { try send(transmission.text, at: transmission.at) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw corrupt("it does not replay: \(error)")
        }
    }

    func storedText() throws(StoreError) -> String { try MorseExchangeStoredText.encode(stored, id: id) }

    init(storedText text: String) throws(StoreError) {
        try self.init(stored: MorseExchangeStoredText.decode(Stored.self, from: text))
    }
}

/// The JSON text of a stored Morse exchange, and the error of a row that makes none.
enum MorseExchangeStoredText {
    static func corrupt(id: UUID) -> @Sendable (String) -> StoreError {
        { reason in .corruptRow(table: "morse_exchange", id: id.uuidString.lowercased(), reason: reason) }
    }

    static func encode(_ value: some Encodable, id: UUID) throws(StoreError) -> String {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw corrupt(id: id)("not encodable: \(error)")
        }
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from text: String) throws(StoreError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw .corruptRow(table: "morse_exchange", id: "?", reason: "not a stored Morse exchange: \(error)")
        }
    }
}

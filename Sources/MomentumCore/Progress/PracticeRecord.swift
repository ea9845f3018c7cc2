import Foundation

/// One practice in the log: what was done, when, and how much of it counts.
public struct PracticeRecord: Sendable, Equatable, Codable, Identifiable {
    public var id: UUID
    public var kind: PracticeKind
    /// When the practice began (for a meditation: when the person pressed start).
    public var start: Date
    /// When it ended.
    public var end: Date
    /// The seconds that count toward days, streaks and statistics (a sit's meditation segment).
    public var countedSeconds: Int
    /// Estimated energy, for workouts.
    public var energyKilocalories: Double?
    /// Free details such as a preset or program name, or Morse accuracy.
    public var details: [String: String]
    /// The device the practice was done on, e.g. `terminal@laptop`.
    public var device: String

    public init(
        id: UUID,
        kind: PracticeKind,
        start: Date,
        end: Date,
        countedSeconds: Int,
        energyKilocalories: Double? = nil,
        details: [String: String] = [:],
        device: String
    ) throws(PracticeRecordError) {
        guard end >= start else { throw .endsBeforeItStarts }
        guard countedSeconds >= 0 else { throw .negativeCountedTime }
        // A second of slack: counted time is measured on a monotonic clock, start and end on the wall clock.
        guard Double(countedSeconds) <= end.timeIntervalSince(start) + 1 else { throw .countsMoreThanItLasted }
        if let energyKilocalories, !(0...Self.maximumEnergyKilocalories).contains(energyKilocalories) {
            throw .invalidEnergy
        }
        self.id = id
        self.kind = kind
        self.start = start
        self.end = end
        self.countedSeconds = countedSeconds
        self.energyKilocalories = energyKilocalories
        self.details = details
        self.device = device
    }

    public var category: PracticeCategory { kind.category }

    /// The longest a single record may last or count: anything longer is a typing mistake.
    public static let maximumLength: TimeInterval = 24 * 3600

    /// How many days, today included, the log's "recent" list covers.
    public static let recentDays = 14

    /// The longest note (`details["note"]`) a person may give a session, in characters.
    public static let maximumNoteLength = 500

    /// The most energy one record may hold: a day of hard exercise burns well under it.
    public static let maximumEnergyKilocalories: Double = 10_000
}

/// A record as the log keeps it: with when it was first written and last changed.
public struct LoggedRecord: Sendable, Equatable {
    public var record: PracticeRecord
    public var createdAt: Date
    public var updatedAt: Date

    public init(record: PracticeRecord, createdAt: Date, updatedAt: Date) {
        self.record = record
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// Why a practice record cannot be kept.
public enum PracticeRecordError: Error, Equatable, Sendable {
    case endsBeforeItStarts
    case negativeCountedTime
    case countsMoreThanItLasted
    /// Energy below 0, above ``PracticeRecord/maximumEnergyKilocalories`` or not a number.
    case invalidEnergy
}

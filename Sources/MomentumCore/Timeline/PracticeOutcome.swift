import Foundation

/// What a practice of set length (breathing, a workout) amounts to when it ends, and therefore
/// what is logged. The same rule as a sit: a minute or more counts, an early stop asks first.
public enum PracticeOutcome: Sendable, Equatable {
    /// The timeline ran to its end: logged.
    case completed(Duration)
    /// Stopped early after at least ``minimumLoggedTime``: logged unless the person discards it.
    case stoppedEarly(Duration)
    /// Stopped before a minute: nothing is logged.
    case tooShortToLog(Duration)

    /// The shortest early stop worth logging.
    public static let minimumLoggedTime: Duration = .seconds(60)

    /// The outcome of `done` out of a timeline of `total`.
    public init(done: Duration, of total: Duration) {
        if done >= total {
            self = .completed(total)
        } else if done >= Self.minimumLoggedTime {
            self = .stoppedEarly(done)
        } else {
            self = .tooShortToLog(max(done, .zero))
        }
    }

    /// The time practised.
    public var time: Duration {
        switch self {
        case .completed(let time), .stoppedEarly(let time), .tooShortToLog(let time): time
        }
    }

    /// Whether the person should be asked to keep or discard the record.
    public var asksToKeep: Bool {
        if case .stoppedEarly = self { true } else { false }
    }

    /// The log record for this outcome (`nil` when too short), with the practice's details.
    public func record(
        id: UUID, kind: PracticeKind, start: Date, end: Date, energyKilocalories: Double? = nil,
        details: [String: String], device: String
    ) throws(PracticeRecordError) -> PracticeRecord? {
        if case .tooShortToLog = self { return nil }
        var details = details
        if case .stoppedEarly = self { details["stoppedEarly"] = "true" }
        return try PracticeRecord(
            id: id, kind: kind, start: start, end: end, countedSeconds: Int(time.inSeconds.rounded()),
            energyKilocalories: energyKilocalories, details: details, device: device)
    }
}

import Foundation
import MomentumCore
import MomentumStoreContract

/// A timed practice that has just ended: which one, with its plan and what it amounts to.
public enum EndedPractice: Sendable, Equatable {
    /// A sit, with the saved sit it was started from, if any.
    case meditation(MeditationPlan, MeditationOutcome, preset: MeditationPreset? = nil)
    case breathing(BreathingPlan, PracticeOutcome)
    case workout(WorkoutPlan, PracticeOutcome)

    public var kind: PracticeKind {
        switch self {
        case .meditation: .meditation
        case .breathing: .breathing
        case .workout: .workout
        }
    }
}

/// How a timed practice ended and what was logged: the one view every front end shows (the
/// terminal's closing line, the run's `ending` over HTTP).
public struct PracticeEnding: Sendable, Equatable {
    /// What the practice amounts to, named as the HTTP API names it.
    public enum Outcome: String, Sendable, Codable, CaseIterable {
        /// Ran to its end: logged (unless the person threw it away).
        case completed
        /// Stopped after a minute or more: logged unless the person discards it.
        case stoppedEarly
        /// Stopped before a minute: never logged.
        case tooShortToLog
    }

    public var kind: PracticeKind
    public var outcome: Outcome
    /// The time that counts: the meditation segment of a sit, the time practised otherwise.
    public var practiced: Duration
    /// The record written to the log; `nil` when too short or discarded.
    public var record: PracticeRecord?
    /// The interruptions of its sound worth telling (see ``SoundInterruption/worthTelling(_:)``),
    /// whether or not it was logged: the person hears of them either way.
    public var soundInterruptions: [SoundInterruption] = []

    /// Whether a record was written.
    public var isLogged: Bool { record != nil }
    /// Whether the person chose not to keep a practice that would have counted.
    public var isDiscarded: Bool { record == nil && outcome != .tooShortToLog }
}

/// Finish-and-log, written once for every timed practice (meditation, breathing, workout):
/// outcome → record → log → ending. The services, the terminal players and the HTTP runs all end
/// a practice through it, so the three kinds log by the same rule:
///
/// - too short (under a minute) → nothing is logged;
/// - stopped early → the time practised counts and the record says `stoppedEarly`, unless the
///   person discards it (`keep: false`);
/// - completed → the whole practice counts (unless `keep: false`);
/// - the record ends at the instant the person stopped (`endedAt`, which a browser reports),
///   never before its start; by default now;
/// - the interruptions of its sound worth telling are kept with the record (its details'
///   ``SoundInterruption/detailsKey``), and nothing is added when there are none.
public struct PracticeFinisher: Sendable {
    private let log: any PracticeLogRepository
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID
    private let device: String

    public init(
        log: any PracticeLogRepository, now: @escaping @Sendable () -> Date, makeID: @escaping @Sendable () -> UUID,
        device: String
    ) {
        self.log = log
        self.now = now
        self.makeID = makeID
        self.device = device
    }

    /// Ids that are always `id`: a practice reported from a device is logged under the report's
    /// own id (docs/offline.md), so sending it twice writes one record.
    public static func id(_ id: UUID) -> @Sendable () -> UUID { { id } }

    /// Why an ended practice could not be logged.
    public enum Failure: Error, Equatable, Sendable {
        case invalidRecord(PracticeRecordError)
        case store(StoreError)
    }

    /// Logs `practice`, begun at `start` and ended at `endedAt` (default now), if it counts and
    /// the person kept it, with the interruptions of its sound worth telling, and says how it
    /// ended.
    @discardableResult
    public func finish(
        _ practice: EndedPractice, startedAt start: Date, endedAt: Date? = nil, keep: Bool = true,
        soundInterruptions: [SoundInterruption] = []
    ) async throws(Failure) -> PracticeEnding {
        let (outcome, practiced) = Self.outcome(of: practice)
        var ending = PracticeEnding(kind: practice.kind, outcome: outcome, practiced: practiced, record: nil)
        ending.soundInterruptions = SoundInterruption.worthTelling(soundInterruptions)
        guard keep, outcome != .tooShortToLog else { return ending }
        let end = max(endedAt ?? now(), start)
        let record: PracticeRecord?
        do {
            record = try Self.record(of: practice, id: makeID(), start: start, end: end, device: device)
        } catch {
            throw .invalidRecord(error)
        }
        guard var record else { return ending }
        if !ending.soundInterruptions.isEmpty {
            record.details[SoundInterruption.detailsKey] = SoundInterruption.detailsText(ending.soundInterruptions)
        }
        do {
            try await log.savePracticeRecord(record, at: end)
        } catch {
            throw .store(error)
        }
        ending.record = record
        return ending
    }

    private static func outcome(of practice: EndedPractice) -> (PracticeEnding.Outcome, Duration) {
        switch practice {
        case .meditation(_, let outcome, _):
            switch outcome {
            case .completed(let time): (.completed, time)
            case .stoppedEarly(let time): (.stoppedEarly, time)
            case .tooShortToLog(let time): (.tooShortToLog, time)
            }
        case .breathing(_, let outcome), .workout(_, let outcome):
            switch outcome {
            case .completed(let time): (.completed, time)
            case .stoppedEarly(let time): (.stoppedEarly, time)
            case .tooShortToLog(let time): (.tooShortToLog, time)
            }
        }
    }

    private static func record(of practice: EndedPractice, id: UUID, start: Date, end: Date, device: String)
        throws(PracticeRecordError) -> PracticeRecord?
    {
        switch practice {
        case .meditation(let plan, let outcome, let preset):
            try outcome.record(id: id, start: start, end: end, plan: plan, preset: preset, device: device)
        case .breathing(let plan, let outcome):
            try outcome.record(
                id: id, kind: .breathing, start: start, end: end, details: plan.logDetails, device: device)
        case .workout(let plan, let outcome):
            try outcome.record(
                id: id, kind: .workout, start: start, end: end,
                energyKilocalories: (plan.estimatedEnergy(for: outcome.time) * 10).rounded() / 10,
                details: plan.logDetails, device: device)
        }
    }
}

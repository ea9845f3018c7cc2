import Foundation
import MomentumCore
import MomentumStoreContract

/// Starting and finishing sits: remembers the plan, turns the affirmations, logs what counts.
public struct MeditationService: Sendable {
    private let settings: SettingsService
    private let log: any PracticeLogRepository
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID
    private let device: String

    public init(
        settings: SettingsService,
        log: any PracticeLogRepository,
        now: @escaping @Sendable () -> Date,
        makeID: @escaping @Sendable () -> UUID,
        device: String
    ) {
        self.settings = settings
        self.log = log
        self.now = now
        self.makeID = makeID
        self.device = device
    }

    /// A sit ready to run: its checked plan and the affirmations chosen for it.
    public struct PreparedSit: Sendable, Equatable {
        public var plan: MeditationPlan
        public var affirmations: Affirmations
        public var timeline: Timeline
    }

    /// Checks `plan`, keeps it as "your last sit" unless it is a saved sit's (`fromSavedSit`,
    /// ``MeditationPlan/lastSit(after:fromSavedSit:before:)``), advances the affirmation rotation,
    /// and returns what the player needs. Nothing is stored when the plan is invalid.
    public func startSit(
        plan: MeditationPlan, fromSavedSit: Bool = false, language: Language
    ) async throws(MeditationServiceError) -> PreparedSit {
        let timeline: Timeline
        do {
            timeline = try plan.timeline()
        } catch {
            throw .invalidPlan(error)
        }
        do {
            var stored = try await settings.load()
            let affirmations = Affirmations(
                rotationIndex: stored.affirmationRotation, catalog: .shared(for: language))
            stored.meditation = MeditationPlan.lastSit(
                after: plan, fromSavedSit: fromSavedSit, before: stored.meditation)
            stored.affirmationRotation += 1
            try await settings.save(stored)
            return PreparedSit(plan: plan, affirmations: affirmations, timeline: timeline)
        } catch {
            throw .store(error)
        }
    }

    /// Logs the sit that began at `start` and ended at `endedAt` (default now), if its outcome
    /// counts and the person kept it, through the one ``PracticeFinisher``; a sit started from a
    /// saved sit (`preset`) is logged with its name and id.
    @discardableResult
    public func finishSit(
        plan: MeditationPlan, outcome: MeditationOutcome, startedAt start: Date, endedAt: Date? = nil,
        keep: Bool = true, soundInterruptions: [SoundInterruption] = [], preset: MeditationPreset? = nil,
        recordID: UUID? = nil
    ) async throws(MeditationServiceError) -> PracticeEnding {
        do {
            return try await PracticeFinisher(
                log: log, now: now, makeID: recordID.map(PracticeFinisher.id) ?? makeID, device: device
            )
            .finish(
                .meditation(plan, outcome, preset: preset), startedAt: start, endedAt: endedAt, keep: keep,
                soundInterruptions: soundInterruptions)
        } catch {
            switch error {
            case .invalidRecord(let error): throw .invalidRecord(error)
            case .store(let error): throw .store(error)
            }
        }
    }
}

/// Why a sit could not start or be logged.
public enum MeditationServiceError: Error, Equatable, Sendable {
    case invalidPlan(MeditationPlanError)
    case invalidRecord(PracticeRecordError)
    case store(StoreError)
}

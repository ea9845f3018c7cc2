import Foundation
import MomentumCore
import MomentumServices

extension PracticeRun {
    /// Logs `outcome` of this run's practice, begun at `startedAt` and ended at `endedAt`, through
    /// the practice's service of `services` (one ``PracticeFinisher`` for every kind): the run's own
    /// stop, or one person's part of a sit together, logged in that person's log.
    func log(
        _ outcome: StopOutcome, services: MomentumServices, startedAt: Date, endedAt: Date, keep: Bool,
        soundInterruptions: [SoundInterruption] = [], recordID: UUID? = nil
    ) async throws -> PracticeEnding {
        switch (outcome, plan) {
        case (.meditation(let outcome), .meditation(let sit)):
            try await services.meditation.finishSit(
                plan: sit.plan, outcome: outcome, startedAt: startedAt, endedAt: endedAt, keep: keep,
                soundInterruptions: soundInterruptions, preset: meditationPreset, recordID: recordID)
        case (.practice(let outcome), .breathing(let plan, _)):
            try await services.breathing.finishSession(
                plan: plan, outcome: outcome, startedAt: startedAt, endedAt: endedAt, keep: keep,
                soundInterruptions: soundInterruptions, recordID: recordID)
        case (.practice(let outcome), .workout(let plan, _)):
            try await services.workouts.finishSession(
                plan: plan, outcome: outcome, startedAt: startedAt, endedAt: endedAt, keep: keep,
                soundInterruptions: soundInterruptions, recordID: recordID)
        default:
            throw APIError.serverFault
        }
    }
}

extension PracticeRun.StopOutcome {
    /// `outcome` of this run's timeline (its lead-in left out) as the run's kind counts it. A
    /// sit counts its meditation: the time is at most the sit's length, and reaching the length
    /// completes it, so leaving during the reflection after it is no early stop.
    init(_ outcome: PracticeOutcome, of run: PracticeRun) {
        guard case .meditation(let sit) = run.plan else {
            self = .practice(outcome)
            return
        }
        let length = sit.plan.duration
        switch outcome {
        case .completed(let time): self = .meditation(.completed(meditated: min(time, length)))
        case .stoppedEarly(let time) where time >= length: self = .meditation(.completed(meditated: length))
        case .stoppedEarly(let time): self = .meditation(.stoppedEarly(meditated: time))
        case .tooShortToLog(let time): self = .meditation(.tooShortToLog(meditated: time))
        }
    }
}

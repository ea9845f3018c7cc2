import Foundation
import MomentumCore
import MomentumServices
import MomentumStoreContract

// The wire forms of the plans the core has no Codable for: durations in whole milliseconds like
// the timeline's, every field optional with the core's defaults.

/// A breathing session: a pattern such as `4-7-8-0` (seconds) or a preset, for rounds or minutes.
struct BreathingPlanBody: Codable, Sendable {
    var pattern: String?
    var preset: String?
    var rounds: Int?
    var minutes: Int?

    /// The checked plan; a preset is looked up by id or name.
    func plan(breathing: BreathingService) async throws -> BreathingPlan {
        if rounds != nil && minutes != nil {
            throw APIError.invalid(.apiRoundsOrMinutes)
        }
        let length: BreathingLength? = rounds.map { .rounds($0) } ?? minutes.map { .minutes($0) }
        let catalog = StringCatalog.shared(for: .english)
        var plan: BreathingPlan
        if let preset {
            guard pattern == nil else { throw APIError.invalid(.apiPatternOrPreset) }
            plan = try await breathing.preset(named: preset).plan(length: length, catalog: catalog)
        } else {
            let pattern =
                try pattern.map { text throws(BreathingError) in try BreathingPattern(parsing: text) }
                ?? BreathingPattern.newPreset
            plan = BreathingPlan(pattern: pattern, length: length ?? .rounds(BreathingPreset.newPresetRounds))
        }
        try plan.validate()
        return plan
    }
}

/// A workout: every phase in milliseconds, rounds and sets, exercise names and the activity.
struct WorkoutPlanBody: Codable, Sendable {
    var getReadyMs: Int64?
    var warmUpMs: Int64?
    var workMs: Int64?
    var restMs: Int64?
    var rounds: Int?
    var sets: Int?
    var setRestMs: Int64?
    var coolDownMs: Int64?
    var exerciseNames: [String]?
    var activity: WorkoutActivity?

    init(_ plan: WorkoutPlan) {
        getReadyMs = plan.getReady.wholeMilliseconds
        warmUpMs = plan.warmUp.wholeMilliseconds
        workMs = plan.work.wholeMilliseconds
        restMs = plan.rest.wholeMilliseconds
        rounds = plan.rounds
        sets = plan.sets
        setRestMs = plan.setRest.wholeMilliseconds
        coolDownMs = plan.coolDown.wholeMilliseconds
        exerciseNames = plan.exerciseNames
        activity = plan.activity
    }

    /// The checked plan, starting from `base` for the fields not given.
    func plan(base: WorkoutPlan = WorkoutPlan()) throws -> WorkoutPlan {
        var plan = base
        func duration(_ milliseconds: Int64?, _ fallback: Duration) -> Duration {
            milliseconds.map { .milliseconds($0) } ?? fallback
        }
        plan.getReady = duration(getReadyMs, plan.getReady)
        plan.warmUp = duration(warmUpMs, plan.warmUp)
        plan.work = duration(workMs, plan.work)
        plan.rest = duration(restMs, plan.rest)
        plan.rounds = rounds ?? plan.rounds
        plan.sets = sets ?? plan.sets
        plan.setRest = duration(setRestMs, plan.setRest)
        plan.coolDown = duration(coolDownMs, plan.coolDown)
        plan.exerciseNames = exerciseNames ?? plan.exerciseNames
        plan.activity = activity ?? plan.activity
        try plan.validate()
        return plan
    }
}

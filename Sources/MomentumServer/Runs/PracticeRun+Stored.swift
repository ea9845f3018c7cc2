import Foundation
import MomentumCore
import MomentumStore
import MomentumStoreContract

extension PracticeRun {
    /// A run as the database keeps it (docs/postgres.md): the plan it was started with once
    /// resolved (a saved sit, program or preset looked up, the affirmations chosen), the saved sit it
    /// came from, its steps with their instants and how it ended. ``init(stored:)`` rebuilds the
    /// run by replaying the steps through the core's own ``MeditationSit`` or ``TimelineRun``:
    /// no rule of a run is copied here.
    struct Stored: Codable, Sendable {
        var id: UUID
        var kind: Kind
        var meditation: MeditationPlan?
        var affirmations: StoredAffirmations?
        var preset: StoredPreset?
        var breathing: StoredBreathing?
        var workout: StoredWorkout?
        var steps: [Step]
        var ending: StoredEnding?
        var record: PracticeRecord?
    }

    struct StoredAffirmations: Codable, Sendable {
        var countdown: String
        var running: String
    }

    /// A saved sit as it was when the run started (logged with it).
    struct StoredPreset: Codable, Sendable {
        var id: String
        var name: String
        var plan: MeditationPlan
        var createdAt: Date
        var updatedAt: Date
    }

    /// A breathing plan: its phases in whole milliseconds, rounds or minutes, and the preset it
    /// came from.
    struct StoredBreathing: Codable, Sendable {
        var inhaleMs: Int64
        var holdAfterInhaleMs: Int64
        var exhaleMs: Int64
        var holdAfterExhaleMs: Int64
        var rounds: Int?
        var minutes: Int?
        var presetName: String?
        var presetID: String?
    }

    /// A workout plan in its wire form, with the program it came from.
    struct StoredWorkout: Codable, Sendable {
        var plan: WorkoutPlanBody
        var programName: String?
        var programID: String?
    }

    struct StoredEnding: Codable, Sendable {
        var outcome: String
        var practicedMs: Int64
        var logged: Bool
        var soundInterruptions: [RunsController.SoundInterruptionBody]
    }

    /// The run's stored form.
    var stored: Stored {
        var stored = Stored(id: id, kind: kind, steps: steps)
        switch plan {
        case .meditation(let sit):
            stored.meditation = sit.plan
            stored.affirmations = StoredAffirmations(
                countdown: sit.affirmations.countdown, running: sit.affirmations.running)
        case .breathing(let breathing, _):
            let pattern = breathing.pattern
            stored.breathing = StoredBreathing(
                inhaleMs: pattern.inhale.wholeMilliseconds,
                holdAfterInhaleMs: pattern.holdAfterInhale.wholeMilliseconds,
                exhaleMs: pattern.exhale.wholeMilliseconds,
                holdAfterExhaleMs: pattern.holdAfterExhale.wholeMilliseconds,
                presetName: breathing.presetName, presetID: breathing.presetID)
            switch breathing.length {
            case .rounds(let rounds): stored.breathing?.rounds = rounds
            case .minutes(let minutes): stored.breathing?.minutes = minutes
            }
        case .workout(let workout, _):
            stored.workout = StoredWorkout(
                plan: WorkoutPlanBody(workout), programName: workout.programName, programID: workout.programID)
        }
        stored.preset = meditationPreset.map {
            StoredPreset(id: $0.id, name: $0.name, plan: $0.plan, createdAt: $0.createdAt, updatedAt: $0.updatedAt)
        }
        stored.ending = ending.map {
            StoredEnding(
                outcome: $0.outcome, practicedMs: $0.practicedMs, logged: $0.logged,
                soundInterruptions: $0.soundInterruptions.map(RunsController.SoundInterruptionBody.init))
        }
        stored.record = loggedRecord
        return stored
    }

    /// The run `stored` describes: its plan made again and its steps replayed.
    init(stored: Stored) throws(StoreError) {
        func corrupt(_ reason: String) -> StoreError {
            .corruptRow(table: "practice_run", id: stored.id.uuidString.lowercased(), reason: reason)
        }
        if stored.kind == .meditation, stored.affirmations == nil { throw corrupt("a meditation without its plan") }
        let plan: Plan
        do {
            plan = try Self.plan(
                kind: stored.kind, meditation: stored.meditation, affirmations: stored.affirmations,
                breathing: stored.breathing, workout: stored.workout)
        } catch let error as StoredPlanMissing {
            throw corrupt(error.reason)
        } catch {
            throw corrupt("its plan is refused: \(error)")
        }
        self.init(id: stored.id, plan: plan)
        do {
            for step in stored.steps {
                let instant = WallInstant(millisecondsSince1970: step.atMs)
                switch step.action {
                case .start: try start(at: instant)
                case .pause: try pause(at: instant)
                case .resume: try resume(at: instant)
                case .stop: _ = try stop(at: instant)
                }
            }
        } catch {
            throw corrupt("its steps do not replay: \(error)")
        }
        do {
            meditationPreset = try stored.preset.map {
                try MeditationPreset(
                    id: $0.id, name: $0.name, plan: $0.plan, createdAt: $0.createdAt, updatedAt: $0.updatedAt)
            }
            ending = try stored.ending.map { ending in
                Ending(
                    outcome: ending.outcome, practicedMs: ending.practicedMs, logged: ending.logged,
                    soundInterruptions: try ending.soundInterruptions.map {
                        try SoundInterruption(offsetMilliseconds: $0.atMs, lengthMilliseconds: $0.durationMs)
                    })
            }
        } catch {
            throw corrupt("its saved sit or ending is refused: \(error)")
        }
        loggedRecord = stored.record
    }

    /// A stored plan without the part its kind needs.
    struct StoredPlanMissing: Error {
        var reason: String
    }

    /// The plan of a `kind` made again from its stored (or prepared, ``PreparedPractice``) form,
    /// checked by the core's own rules, which throw their own errors. A meditation without chosen
    /// affirmations gets the first of the English catalog's.
    static func plan(
        kind: Kind, meditation: MeditationPlan?, affirmations lines: StoredAffirmations?,
        breathing: StoredBreathing?, workout: StoredWorkout?
    ) throws -> Plan {
        switch kind {
        case .meditation:
            guard let meditation else { throw StoredPlanMissing(reason: "a meditation without its plan") }
            var affirmations = Affirmations(rotationIndex: 0, catalog: .shared(for: .english))
            if let lines { (affirmations.countdown, affirmations.running) = (lines.countdown, lines.running) }
            return .meditation(try MeditationSit(plan: meditation, affirmations: affirmations))
        case .breathing:
            guard let breathing else { throw StoredPlanMissing(reason: "a breathing session without its plan") }
            let pattern = try BreathingPattern(
                inhale: Self.seconds(breathing.inhaleMs), holdAfterInhale: Self.seconds(breathing.holdAfterInhaleMs),
                exhale: Self.seconds(breathing.exhaleMs), holdAfterExhale: Self.seconds(breathing.holdAfterExhaleMs))
            let length: BreathingLength
            switch (breathing.rounds, breathing.minutes) {
            case (let rounds?, nil): length = .rounds(rounds)
            case (nil, let minutes?): length = .minutes(minutes)
            default: throw StoredPlanMissing(reason: "a breathing session without rounds or minutes")
            }
            let resolved = BreathingPlan(
                pattern: pattern, length: length, presetName: breathing.presetName, presetID: breathing.presetID)
            try resolved.validate()
            return .breathing(resolved, TimelineRun(timeline: try resolved.timeline()))
        case .workout:
            guard let workout else { throw StoredPlanMissing(reason: "a workout without its plan") }
            var resolved = try workout.plan.plan()
            (resolved.programName, resolved.programID) = (workout.programName, workout.programID)
            return .workout(resolved, TimelineRun(timeline: try resolved.timeline()))
        }
    }

    /// The stored form as JSON text, as the database keeps it.
    func storedText() throws(StoreError) -> String {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return String(decoding: try encoder.encode(stored), as: UTF8.self)
        } catch {
            throw .corruptRow(table: "practice_run", id: id.uuidString.lowercased(), reason: "not encodable: \(error)")
        }
    }

    /// The run whose stored form is `text`.
    init(storedText text: String) throws(StoreError) {
        let stored: Stored
        do {
            stored = try JSONDecoder().decode(Stored.self, from: Data(text.utf8))
        } catch {
            throw .corruptRow(table: "practice_run", id: "?", reason: "not a stored run: \(error)")
        }
        try self.init(stored: stored)
    }

    /// When the run ended, as ``RunRegistry/forget(endedBefore:)`` counts it: its stop, or the end
    /// of its timeline when it completed; nil while it goes on (or when it has no end).
    var endedAt: WallInstant? {
        guard ending != nil else { return nil }
        // A run that completed is not stopped; it ended at its end instant.
        return run.stoppedAt ?? run.endInstant
    }

    private static func seconds(_ milliseconds: Int64) -> Double { Double(milliseconds) / 1000 }
}

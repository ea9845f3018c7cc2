import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

/// One person's breathing presets, saved sits and workout programs on PostgreSQL, as SQLite keeps
/// them (`MomentumDatabase+Breathing.swift`, `+MeditationPresets.swift`, `+Workouts.swift`). A
/// name another of the same person's presets has (ignoring the case of A–Z) is refused by the
/// database's unique index, as by SQLite's.
extension PostgresPersonStore {
    // MARK: Breathing presets

    /// The person's own breathing presets, oldest first.
    public func breathingPresets() async throws(StoreError) -> [BreathingPreset] {
        let rows = try await store.read { session throws(StoreError) in
            try await session.query(
                """
                SELECT id, name, inhale_ms, hold_after_inhale_ms, exhale_ms, hold_after_exhale_ms, rounds
                FROM breathing_preset WHERE person_id = \(personID) ORDER BY created_at_ms, position
                """)
        }
        var presets: [BreathingPreset] = []
        for row in rows {
            let (id, name, inhale, holdAfterInhale, exhale, holdAfterExhale, rounds) =
                try row.columns((String, String, Int64, Int64, Int64, Int64, Int).self)
            do {
                let pattern = try BreathingPattern(
                    inhale: Double(inhale) / 1000, holdAfterInhale: Double(holdAfterInhale) / 1000,
                    exhale: Double(exhale) / 1000, holdAfterExhale: Double(holdAfterExhale) / 1000)
                presets.append(try BreathingPreset(id: id, name: name, pattern: pattern, rounds: rounds))
            } catch {
                throw .corruptRow(table: "breathing_preset", id: id, reason: "\(error)")
            }
        }
        return presets
    }

    /// Adds a preset, or replaces the one with the same id (keeping when it was first created).
    public func saveBreathingPreset(_ preset: BreathingPreset, at now: Date) async throws(StoreError) {
        let pattern = preset.pattern
        let ms = now.millisecondsSince1970
        try await store.read { session throws(StoreError) in
            try await session.execute(
                """
                INSERT INTO breathing_preset (person_id, id, name, inhale_ms, hold_after_inhale_ms, exhale_ms,
                    hold_after_exhale_ms, rounds, created_at_ms, updated_at_ms)
                VALUES (\(personID), \(preset.id), \(preset.name), \(pattern.inhale.wholeMilliseconds),
                    \(pattern.holdAfterInhale.wholeMilliseconds), \(pattern.exhale.wholeMilliseconds),
                    \(pattern.holdAfterExhale.wholeMilliseconds), \(Int64(preset.rounds)), \(ms), \(ms))
                ON CONFLICT (person_id, id) DO UPDATE SET name = EXCLUDED.name, inhale_ms = EXCLUDED.inhale_ms,
                    hold_after_inhale_ms = EXCLUDED.hold_after_inhale_ms, exhale_ms = EXCLUDED.exhale_ms,
                    hold_after_exhale_ms = EXCLUDED.hold_after_exhale_ms, rounds = EXCLUDED.rounds,
                    updated_at_ms = EXCLUDED.updated_at_ms
                """)
        }
    }

    /// Deletes the preset with `id`; returns whether there was one.
    @discardableResult
    public func deleteBreathingPreset(id: String) async throws(StoreError) -> Bool {
        try await store.read { session throws(StoreError) in
            try await session.execute("DELETE FROM breathing_preset WHERE person_id = \(personID) AND id = \(id)") > 0
        }
    }

    // MARK: Saved sits

    /// The person's saved sits, oldest first.
    public func meditationPresets() async throws(StoreError) -> [MeditationPreset] {
        try await store.read { session throws(StoreError) in
            try await Self.meditationPresets(in: session, for: personID)
        }
    }

    static func meditationPresets(in session: PostgresSession, for personID: Person.ID) async throws(StoreError)
        -> [MeditationPreset]
    {
        try await meditationPresets(
            session.query(
                """
                SELECT id, name, plan, created_at_ms, updated_at_ms, sort_order
                FROM meditation_preset WHERE person_id = \(personID) ORDER BY sort_order, created_at_ms, id
                """))
    }

    static func meditationPresets(_ rows: [PostgresRow]) throws(StoreError) -> [MeditationPreset] {
        var presets: [MeditationPreset] = []
        for row in rows {
            let (id, name, planJSON, createdMs, updatedMs, sortOrder) = try row.columns(
                (String, String, String, Int64, Int64, Int64).self)
            do {
                let plan = try JSONDecoder().decode(MeditationPlan.self, from: Data(planJSON.utf8))
                presets.append(
                    try MeditationPreset(
                        id: id, name: name, plan: plan, createdAt: Date(millisecondsSince1970: createdMs),
                        updatedAt: Date(millisecondsSince1970: updatedMs), sortOrder: Int(sortOrder)))
            } catch {
                throw .corruptRow(table: "meditation_preset", id: id, reason: "\(error)")
            }
        }
        return presets
    }

    /// Adds a saved sit, or replaces the one with the same id (keeping when it was first created),
    /// and logs its changed fields (stamped with its `updatedAt`) when its id is a lower-case UUID.
    public func saveMeditationPreset(_ preset: MeditationPreset) async throws(StoreError) {
        let upsert = try Self.upsert(preset, for: personID, replacingCreatedAt: false)
        try await syncedWrite(at: preset.updatedAt) { session, replica throws(StoreError) in
            let existing = try await Self.meditationPresets(
                session.query(
                    """
                    SELECT id, name, plan, created_at_ms, updated_at_ms, sort_order
                    FROM meditation_preset WHERE person_id = \(personID) AND id = \(preset.id)
                    """)
            ).first
            try await session.execute(upsert)
            guard let key = LocalSyncChanges.meditationPresetKey(preset.id) else { return }
            var saved = preset
            if let existing { saved.createdAt = existing.createdAt }
            let changed = LocalSyncChanges.changedFields(saved.syncFields, from: existing?.syncFields)
            try await replica.recordLocal(sets: [(key, changed)], deletes: [], at: preset.updatedAt)
        }
    }

    /// Adds a saved sit or replaces the one with the same id; its `created_at_ms` only when
    /// `replacingCreatedAt` (a merged sit: its `createdAt` is synced).
    static func upsert(_ preset: MeditationPreset, for personID: Person.ID, replacingCreatedAt: Bool) throws(StoreError)
        -> PostgresQuery
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let plan: String
        do {
            plan = String(decoding: try encoder.encode(preset.plan), as: UTF8.self)
        } catch {
            throw .corruptRow(table: "meditation_preset", id: preset.id, reason: "\(error)")
        }
        let created = replacingCreatedAt ? "EXCLUDED.created_at_ms" : "meditation_preset.created_at_ms"
        return """
            INSERT INTO meditation_preset (person_id, id, name, plan, created_at_ms, updated_at_ms, sort_order)
            VALUES (\(personID), \(preset.id), \(preset.name), \(plan), \(preset.createdAt.millisecondsSince1970),
                \(preset.updatedAt.millisecondsSince1970), \(Int64(preset.sortOrder)))
            ON CONFLICT (person_id, id) DO UPDATE SET name = EXCLUDED.name, plan = EXCLUDED.plan,
                created_at_ms = \(unescaped: created), updated_at_ms = EXCLUDED.updated_at_ms,
                sort_order = EXCLUDED.sort_order
            """
    }

    /// Deletes the saved sit with `id` (on every device, when its id is a lower-case UUID);
    /// returns whether there was one.
    @discardableResult
    public func deleteMeditationPreset(id: String, at now: Date) async throws(StoreError) -> Bool {
        try await syncedWrite(at: now) { session, replica throws(StoreError) in
            guard
                try await session.execute("DELETE FROM meditation_preset WHERE person_id = \(personID) AND id = \(id)")
                    > 0
            else { return false }
            if let key = LocalSyncChanges.meditationPresetKey(id) {
                try await replica.recordLocal(sets: [], deletes: [key], at: now)
            }
            return true
        }
    }

    // MARK: Workout programs

    /// The person's own workout programs, oldest first.
    public func workoutPrograms() async throws(StoreError) -> [WorkoutProgram] {
        let rows = try await store.read { session throws(StoreError) in
            try await session.query(
                """
                SELECT id, name, get_ready_seconds, warm_up_seconds, work_seconds, rest_seconds, rounds, sets,
                    set_rest_seconds, cool_down_seconds, exercise_names, activity
                FROM workout_program WHERE person_id = \(personID) ORDER BY created_at_ms, position
                """)
        }
        var programs: [WorkoutProgram] = []
        for row in rows {
            let (id, name, getReady, warmUp, work, rest, rounds, sets, setRest, coolDown, namesJSON, activityName) =
                try row.columns(
                    (String, String, Int64, Int64, Int64, Int64, Int, Int, Int64, Int64, String, String).self)
            func corrupt(_ reason: String) -> StoreError {
                .corruptRow(table: "workout_program", id: id, reason: reason)
            }
            // try?: names that do not read are thrown as a corrupt row just below
            guard let names = try? JSONDecoder().decode([String].self, from: Data(namesJSON.utf8)) else {
                throw corrupt("exercise names are not a JSON array of strings")
            }
            guard let activity = WorkoutActivity(rawValue: activityName) else {
                throw corrupt("unknown activity \(activityName)")
            }
            let plan = WorkoutPlan(
                getReady: .seconds(getReady), warmUp: .seconds(warmUp), work: .seconds(work), rest: .seconds(rest),
                rounds: rounds, sets: sets, setRest: .seconds(setRest), coolDown: .seconds(coolDown),
                exerciseNames: names, activity: activity)
            do {
                programs.append(try WorkoutProgram(id: id, name: name, plan: plan))
            } catch {
                throw corrupt("\(error)")
            }
        }
        return programs
    }

    /// Adds a program, or replaces the one with the same id (keeping when it was first created).
    public func saveWorkoutProgram(_ program: WorkoutProgram, at now: Date) async throws(StoreError) {
        let plan = program.plan
        // try?: encoding texts cannot fail (JSONEncoder throws only for non-finite numbers); exercise names are texts
        let names = (try? JSONEncoder().encode(plan.exerciseNames)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        let ms = now.millisecondsSince1970
        func seconds(_ duration: Duration) -> Int64 { duration.wholeMilliseconds / 1000 }
        try await store.read { session throws(StoreError) in
            try await session.execute(
                """
                INSERT INTO workout_program (person_id, id, name, get_ready_seconds, warm_up_seconds, work_seconds,
                    rest_seconds, rounds, sets, set_rest_seconds, cool_down_seconds, exercise_names, activity,
                    created_at_ms, updated_at_ms)
                VALUES (\(personID), \(program.id), \(program.name), \(seconds(plan.getReady)), \(seconds(plan.warmUp)),
                    \(seconds(plan.work)), \(seconds(plan.rest)), \(Int64(plan.rounds)), \(Int64(plan.sets)),
                    \(seconds(plan.setRest)), \(seconds(plan.coolDown)), \(names), \(plan.activity.rawValue), \(ms), \(ms))
                ON CONFLICT (person_id, id) DO UPDATE SET name = EXCLUDED.name,
                    get_ready_seconds = EXCLUDED.get_ready_seconds, warm_up_seconds = EXCLUDED.warm_up_seconds,
                    work_seconds = EXCLUDED.work_seconds, rest_seconds = EXCLUDED.rest_seconds,
                    rounds = EXCLUDED.rounds, sets = EXCLUDED.sets, set_rest_seconds = EXCLUDED.set_rest_seconds,
                    cool_down_seconds = EXCLUDED.cool_down_seconds, exercise_names = EXCLUDED.exercise_names,
                    activity = EXCLUDED.activity, updated_at_ms = EXCLUDED.updated_at_ms
                """)
        }
    }

    /// Deletes the program with `id`; returns whether there was one.
    @discardableResult
    public func deleteWorkoutProgram(id: String) async throws(StoreError) -> Bool {
        try await store.read { session throws(StoreError) in
            try await session.execute("DELETE FROM workout_program WHERE person_id = \(personID) AND id = \(id)") > 0
        }
    }
}

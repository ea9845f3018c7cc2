import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

/// One of the person's own workout programs as stored: times in whole seconds, exercise names
/// as a JSON array.
struct WorkoutProgramRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "workoutProgram"
    var id: String
    var name: String
    var getReadySeconds: Int64
    var warmUpSeconds: Int64
    var workSeconds: Int64
    var restSeconds: Int64
    var rounds: Int
    var sets: Int
    var setRestSeconds: Int64
    var coolDownSeconds: Int64
    var exerciseNames: String
    var activity: String
    var createdAtMs: Int64
    var updatedAtMs: Int64

    init(_ program: WorkoutProgram, createdAt: Date, updatedAt: Date) {
        let plan = program.plan
        id = program.id
        name = program.name
        getReadySeconds = plan.getReady.wholeMilliseconds / 1000
        warmUpSeconds = plan.warmUp.wholeMilliseconds / 1000
        workSeconds = plan.work.wholeMilliseconds / 1000
        restSeconds = plan.rest.wholeMilliseconds / 1000
        rounds = plan.rounds
        sets = plan.sets
        setRestSeconds = plan.setRest.wholeMilliseconds / 1000
        coolDownSeconds = plan.coolDown.wholeMilliseconds / 1000
        // try?: encoding texts cannot fail (JSONEncoder throws only for non-finite numbers).
        let names = try? JSONEncoder().encode(plan.exerciseNames)
        exerciseNames = names.map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        activity = plan.activity.rawValue
        createdAtMs = createdAt.millisecondsSince1970
        updatedAtMs = updatedAt.millisecondsSince1970
    }

    func program() throws(StoreError) -> WorkoutProgram {
        func corrupt(_ reason: String) -> StoreError {
            .corruptRow(table: Self.databaseTableName, id: id, reason: reason)
        }
        // try?: names that do not read are thrown as a corrupt row just below
        guard let names = try? JSONDecoder().decode([String].self, from: Data(exerciseNames.utf8)) else {
            throw corrupt("exercise names are not a JSON array of strings")
        }
        guard let activity = WorkoutActivity(rawValue: activity) else { throw corrupt("unknown activity \(activity)") }
        let plan = WorkoutPlan(
            getReady: .seconds(getReadySeconds), warmUp: .seconds(warmUpSeconds), work: .seconds(workSeconds),
            rest: .seconds(restSeconds), rounds: rounds, sets: sets, setRest: .seconds(setRestSeconds),
            coolDown: .seconds(coolDownSeconds), exerciseNames: names, activity: activity)
        do {
            return try WorkoutProgram(id: id, name: name, plan: plan)
        } catch {
            throw corrupt("\(error)")
        }
    }
}

extension MomentumDatabase {
    /// The person's own workout programs, oldest first.
    public func workoutPrograms() throws(StoreError) -> [WorkoutProgram] {
        let rows = try read { db in try WorkoutProgramRow.order(Column("createdAtMs"), Column.rowID).fetchAll(db) }
        var programs: [WorkoutProgram] = []
        for row in rows { programs.append(try row.program()) }
        return programs
    }

    /// Adds a program, or replaces the one with the same id (keeping when it was first created).
    public func saveWorkoutProgram(_ program: WorkoutProgram, at now: Date) throws(StoreError) {
        try write { db in
            let existing = try WorkoutProgramRow.fetchOne(db, key: program.id)
            try WorkoutProgramRow(
                program, createdAt: existing.map { Date(millisecondsSince1970: $0.createdAtMs) } ?? now, updatedAt: now
            ).save(db)
        }
    }

    /// Deletes the program with `id`; returns whether there was one.
    @discardableResult
    public func deleteWorkoutProgram(id: String) throws(StoreError) -> Bool {
        try write { db in try WorkoutProgramRow.deleteOne(db, key: id) }
    }
}

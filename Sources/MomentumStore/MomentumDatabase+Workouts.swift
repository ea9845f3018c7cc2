import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

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

extension WorkoutProgramRow: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { tableName }
}

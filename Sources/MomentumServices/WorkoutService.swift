import Foundation
import MomentumCore
import MomentumStoreContract

/// Workout programs (the five built in and the person's own) and logging workouts.
public struct WorkoutService: Sendable {
    private let programsRepository: any WorkoutProgramRepository
    private let log: any PracticeLogRepository
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID
    private let device: String

    public init(
        programs: any WorkoutProgramRepository, log: any PracticeLogRepository, now: @escaping @Sendable () -> Date,
        makeID: @escaping @Sendable () -> UUID, device: String
    ) {
        self.programsRepository = programs
        self.log = log
        self.now = now
        self.makeID = makeID
        self.device = device
    }

    /// The built-in programs, then the person's own in the order they were saved.
    public func programs() async throws(WorkoutServiceError) -> [WorkoutProgram] {
        do {
            return WorkoutProgram.builtIn + (try await programsRepository.workoutPrograms())
        } catch {
            throw .store(error)
        }
    }

    /// The program called `name` (its id, or its name in any language, ignoring case).
    public func program(named name: String) async throws(WorkoutServiceError) -> WorkoutProgram {
        let wanted = PresetNaming.folded(name)
        guard let found = try await programs().first(where: { Self.names(of: $0).contains(wanted) }) else {
            throw .invalid(.unknownProgram(name))
        }
        return found
    }

    /// Saves a program of the person's own.
    @discardableResult
    public func addProgram(name: String, plan: WorkoutPlan) async throws(WorkoutServiceError) -> WorkoutProgram {
        try await checkNameIsFree(name, except: nil)
        var plan = plan
        plan.programName = nil
        plan.programID = nil
        let program: WorkoutProgram
        do {
            program = try WorkoutProgram(id: makeID().uuidString.lowercased(), name: name, plan: plan)
        } catch {
            throw .invalid(error)
        }
        try await save(program)
        return program
    }

    /// Replaces a program's plan. Editing a built-in saves a copy ("… (copy)") and leaves it alone.
    @discardableResult
    public func editProgram(_ program: WorkoutProgram, plan: WorkoutPlan, catalog: StringCatalog)
        async
        throws(WorkoutServiceError) -> WorkoutProgram
    {
        var plan = plan
        plan.programName = nil
        plan.programID = nil
        guard !program.isBuiltIn else {
            let taken = Set(try await programs().flatMap(Self.names(of:)))
            return try await addProgram(
                name: PresetNaming.freeCopyName(for: program.displayName(catalog), taken: taken, catalog: catalog),
                plan: plan)
        }
        let edited: WorkoutProgram
        do {
            edited = try WorkoutProgram(id: program.id, name: program.name, plan: plan)
        } catch {
            throw .invalid(error)
        }
        try await save(edited)
        return edited
    }

    /// Deletes a program of the person's own; built-ins cannot be deleted.
    public func deleteProgram(_ program: WorkoutProgram) async throws(WorkoutServiceError) {
        guard !program.isBuiltIn else { throw .invalid(.builtInProgramCannotBeDeleted(program.id)) }
        let deleted: Bool
        do {
            deleted = try await programsRepository.deleteWorkoutProgram(id: program.id)
        } catch {
            throw .store(error)
        }
        guard deleted else { throw .invalid(.unknownProgram(program.name)) }
    }

    /// Logs a workout session that began at `start` and ended at `endedAt` (default now), if it
    /// counts and the person kept it, through the one ``PracticeFinisher``.
    @discardableResult
    public func finishSession(
        plan: WorkoutPlan, outcome: PracticeOutcome, startedAt start: Date, endedAt: Date? = nil, keep: Bool = true,
        soundInterruptions: [SoundInterruption] = [], recordID: UUID? = nil
    ) async throws(WorkoutServiceError) -> PracticeEnding {
        do {
            return try await PracticeFinisher(
                log: log, now: now, makeID: recordID.map(PracticeFinisher.id) ?? makeID, device: device
            )
            .finish(
                .workout(plan, outcome), startedAt: start, endedAt: endedAt, keep: keep,
                soundInterruptions: soundInterruptions)
        } catch {
            switch error {
            case .invalidRecord(let error): throw .invalidRecord(error)
            case .store(let error): throw .store(error)
            }
        }
    }

    private static func names(of program: WorkoutProgram) -> Set<String> {
        PresetNaming.names(id: program.id, name: program.name, builtInKey: program.nameKey)
    }

    private func checkNameIsFree(_ name: String, except id: String?) async throws(WorkoutServiceError) {
        let wanted = PresetNaming.folded(name)
        guard !wanted.isEmpty else { throw .invalid(.emptyProgramName) }
        for program in try await programs() where program.id != id && Self.names(of: program).contains(wanted) {
            throw .invalid(.programNameTaken(name.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
    }

    private func save(_ program: WorkoutProgram) async throws(WorkoutServiceError) {
        do {
            try await programsRepository.saveWorkoutProgram(program, at: now())
        } catch {
            throw .store(error)
        }
    }
}

/// Why a program could not be found, saved or deleted, or a workout logged.
public enum WorkoutServiceError: Error, Equatable, Sendable {
    case invalid(WorkoutError)
    case invalidRecord(PracticeRecordError)
    case store(StoreError)
}

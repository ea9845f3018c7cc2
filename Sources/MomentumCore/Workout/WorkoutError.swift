/// Why a workout plan or program cannot be used: one case per field, so a message can say which.
public enum WorkoutError: Error, Equatable, Sendable {
    case getReadyOutOfRange
    case warmUpOutOfRange
    case workOutOfRange
    case restOutOfRange
    case roundsOutOfRange
    case setsOutOfRange
    case setRestOutOfRange
    case coolDownOutOfRange
    /// A duration with a fraction of a second; workouts count whole seconds.
    case notWholeSeconds
    case blankExerciseName
    case exerciseNameTooLong
    case tooManyExerciseNames
    case emptyProgramName
    /// A program's or an exercise's name holds a control character (see ``TextInput``).
    case text(TextInputError)
    case unknownProgram(String)
    case programNameTaken(String)
    /// The five built-in programs (named here by id) are always there: they can be copied, not deleted.
    case builtInProgramCannotBeDeleted(String)
    case internalInconsistency
    /// A program's name longer than ``WorkoutProgram/maximumNameLength``.
    case programNameTooLong
}

/// An error about one field of what a person sent, named as a request's JSON body names it
/// (`durationMs`, `name`), so a form can show the sentence beside that field.
///
/// Each error names only the fields it is sure of: an error about two fields at once (a gong
/// after the end is about the gongs, not the length) names the one the person should change.
public protocol FieldAddressedError: Error {
    /// The body's name of the field at fault, or `nil` when the error is about no one field.
    var fieldName: String? { get }
}

public enum FieldAddressing {
    /// The field `error` is about: its own, or that of the error it carries (at any depth, found
    /// by reflection, so a service error wrapping a core error needs no list kept in step).
    public static func field(of error: any Error) -> String? {
        field(in: error, depth: 0)
    }

    private static func field(in value: Any, depth: Int) -> String? {
        if let addressed = value as? any FieldAddressedError, let name = addressed.fieldName { return name }
        guard depth < 6 else { return nil }
        let mirror = Mirror(reflecting: value)
        guard [.enum, .tuple, .optional].contains(mirror.displayStyle) else { return nil }
        for child in mirror.children {
            if let name = field(in: child.value, depth: depth + 1) { return name }
        }
        return nil
    }
}

extension TextInputError: FieldAddressedError {
    public var fieldName: String? {
        switch self {
        case .controlCharacter(let field, _), .bidirectionalControl(let field, _): field
        }
    }
}

extension MeditationPlanError: FieldAddressedError {
    public var fieldName: String? {
        switch self {
        case .durationTooShort, .durationTooLong: "durationMs"
        case .countdownNegative, .countdownTooLong: "countdownMs"
        case .intervalTooShort, .intervalTooLong, .intervalOffsetsEmpty, .tooManyIntervalOffsets,
            .intervalOffsetNotAfterStart, .intervalGongAtOrAfterEnd:
            "intervalGongs"
        case .reflectionNegative, .reflectionTooLong: "reflectionMs"
        case .unknownAmbient: "ambientID"
        case .ambientVolumeOutOfRange: "ambientVolume"
        case .internalInconsistency: nil
        }
    }
}

extension MeditationPresetError: FieldAddressedError {
    public var fieldName: String? {
        switch self {
        case .emptyName, .nameTooLong, .nameTaken: "name"
        case .text(let error): error.fieldName
        case .invalidPlan(let error): error.fieldName
        case .unknownPreset: nil
        case .positionOutOfRange: "position"
        }
    }
}

extension BreathingError: FieldAddressedError {
    public var fieldName: String? {
        switch self {
        case .inhaleOutOfRange: "inhaleMs"
        case .exhaleOutOfRange: "exhaleMs"
        case .roundsOutOfRange: "rounds"
        case .minutesOutOfRange: "minutes"
        case .emptyPresetName, .presetNameTaken, .presetNameTooLong: "name"
        case .text(let error): error.fieldName
        case .holdOutOfRange, .notInHalfSecondSteps, .unreadablePattern, .unknownPreset,
            .builtInPresetCannotBeDeleted, .internalInconsistency:
            nil
        }
    }
}

extension WorkoutError: FieldAddressedError {
    public var fieldName: String? {
        switch self {
        case .getReadyOutOfRange: "getReadyMs"
        case .warmUpOutOfRange: "warmUpMs"
        case .workOutOfRange: "workMs"
        case .restOutOfRange: "restMs"
        case .roundsOutOfRange: "rounds"
        case .setsOutOfRange: "sets"
        case .setRestOutOfRange: "setRestMs"
        case .coolDownOutOfRange: "coolDownMs"
        case .blankExerciseName, .exerciseNameTooLong, .tooManyExerciseNames: "exerciseNames"
        case .emptyProgramName, .programNameTaken, .programNameTooLong: "name"
        case .text(let error): error.fieldName
        case .notWholeSeconds, .unknownProgram, .builtInProgramCannotBeDeleted, .internalInconsistency: nil
        }
    }
}

extension FocusTimerError: FieldAddressedError {
    public var fieldName: String? {
        switch self {
        case .blankName, .nameTooLong, .nameTaken: "name"
        case .text(let error): error.fieldName
        case .durationOutOfRange, .durationNotWholeSeconds: "durationMs"
        case .invalidIcon: "icon"
        case .invalidColor: "color"
        case .notesTooLong: "notes"
        case .tooManyItems, .blankItemText, .itemTextTooLong, .duplicateItemID: "items"
        case .unknownTimer, .ambiguousTimer, .unknownItem, .positionOutOfRange, .invalidRun, .alreadyRunning,
            .notRunning, .notPaused, .notStarted, .internalInconsistency:
            nil
        }
    }
}

extension MorseCourseSettingsError: FieldAddressedError {
    public var fieldName: String? {
        switch self {
        case .timing(.characterSpeedOutOfRange): "characterWPM"
        case .timing(.effectiveSpeedOutOfRange): "effectiveWPM"
        case .timing: nil
        case .tone(.toneOutOfRange): "toneHertz"
        case .tone(.riseOutOfRange): "riseMilliseconds"
        case .sessionLengthOutOfRange: "sessionSeconds"
        }
    }
}

extension PersonError: FieldAddressedError {
    public var fieldName: String? {
        switch self {
        case .nameEmpty, .nameTooLong, .nameControlCharacter, .nameBidirectionalControl, .nameStartsWithDash,
            .nameTaken:
            "name"
        case .pinFormat, .pinWrong: "pin"
        case .unknownPerson, .lastOwner, .founderStays, .householdFull, .shareWithOwner: nil
        }
    }
}

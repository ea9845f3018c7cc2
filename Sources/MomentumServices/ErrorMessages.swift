import MomentumAudio
import MomentumCore
import MomentumStoreContract

/// Turns the typed errors of every layer into one clear, localized line, for every front end.
public enum ErrorMessages {
    /// The message for any typed error of the core, the store or the services; `nil` for others.
    /// An error that carries a store failure anywhere inside says what the store failure says,
    /// whatever wraps it (see ``StoreError/inside(_:)``).
    public static func message(describing error: any Error, catalog: StringCatalog) -> String? {
        if let store = StoreError.inside(error) { return message(for: store, catalog: catalog) }
        return switch error {
        case let error as MeditationPlanError: message(for: error, catalog: catalog)
        case let error as RenderLengthError: message(for: error, catalog: catalog)
        case let error as StoreError: message(for: error, catalog: catalog)
        case let error as SettingValueError: message(for: error, catalog: catalog)
        case let error as SettingsChangeError:
            switch error {
            case .invalidValue(let value): message(for: value, catalog: catalog)
            case .store(let store): message(for: store, catalog: catalog)
            }
        case let error as MeditationServiceError:
            switch error {
            case .invalidPlan(let plan): message(for: plan, catalog: catalog)
            case .invalidRecord(let record): message(for: record, catalog: catalog)
            case .store(let store): message(for: store, catalog: catalog)
            }
        case let error as PracticeLogError: message(for: error, catalog: catalog)
        case let error as MeditationPresetError: message(for: error, catalog: catalog)
        case let error as MeditationPresetServiceError:
            switch error {
            case .invalid(let preset): message(for: preset, catalog: catalog)
            case .store(let store): message(for: store, catalog: catalog)
            }
        case let error as BreathingError: message(for: error, catalog: catalog)
        case let error as BreathingServiceError:
            switch error {
            case .invalid(let breathing): message(for: breathing, catalog: catalog)
            case .invalidRecord(let record): message(for: record, catalog: catalog)
            case .store(let store): message(for: store, catalog: catalog)
            }
        case let error as FocusTimerError: message(for: error, catalog: catalog)
        case let error as FocusTimerServiceError:
            switch error {
            case .invalid(let focus): message(for: focus, catalog: catalog)
            case .store(let store): message(for: store, catalog: catalog)
            }
        case let error as WorkoutError: message(for: error, catalog: catalog)
        case let error as WorkoutServiceError:
            switch error {
            case .invalid(let workout): message(for: workout, catalog: catalog)
            case .invalidRecord(let record): message(for: record, catalog: catalog)
            case .store(let store): message(for: store, catalog: catalog)
            }
        case let error as AccessTokenError:
            switch error {
            case .nameTooLong: catalog[.errorTokenNameTooLong]
            case .name(let text): message(for: text, catalog: catalog)
            case .unknown(let id): catalog.format(.errorTokenUnknown, ["id": id])
            case .alreadyRevoked(let id): catalog.format(.errorTokenAlreadyRevoked, ["id": id])
            case .store(let store): message(for: store, catalog: catalog)
            }
        case let error as ReminderSettingsError: catalog.text(error.localized)
        case let error as QRCodeError: catalog.text(error.localized)
        case let error as ProgressSettingsError: error.message(in: catalog)
        case let error as TimeOfDayError: catalog.text(ReminderSettingsError.invalidTime(error).localized)
        case let error as MorseCourseSettingsError: message(for: error, catalog: catalog)
        case let error as MorseCourseServiceError: message(for: error, catalog: catalog)
        case let error as CallSignError: message(for: error, catalog: catalog)
        case let error as QSOError: message(for: error, catalog: catalog)
        case let error as MorseDecodingError: message(for: error, catalog: catalog)
        case let error as MorseError: morseMessage(for: error, catalog: catalog)
        case let error as MorseBandConditionsError: morseMessage(for: error, catalog: catalog)
        case let error as MorseToneError: morseMessage(for: error, catalog: catalog)
        case let error as HandsFreeError: message(for: error, catalog: catalog)
        case let error as HandsFreeServiceError: message(for: error, catalog: catalog)
        case let error as SpeechError: message(for: error, catalog: catalog)
        case let error as SyncClientError: message(for: error, catalog: catalog)
        case let error as SyncError: message(for: error, catalog: catalog)
        case let error as TimelineRunError: message(for: error, catalog: catalog)
        case let error as RunReportError: message(for: error, catalog: catalog)
        case let error as FocusTimerIntentError:
            switch error {
            case .tooMany(let count, let maximum):
                catalog.format(.errorSyncTooManyChanges, ["count": "\(count)", "maximum": "\(maximum)"])
            case .invalidNode: catalog[.errorTimerIntentsNode]
            case .invalidChange(let problem): message(for: problem, catalog: catalog)
            case .timers(let timers): message(describing: timers, catalog: catalog) ?? catalog[.errorUnexpected]
            case .sync(let sync): message(for: sync, catalog: catalog)
            }
        case let error as DayError:
            switch error {
            case .unreadable(let text): catalog.format(.errorInvalidDate, ["value": text])
            case .doesNotExist(let year, let month, let day):
                catalog.format(.errorInvalidDate, ["value": "\(year)-\(month)-\(day)"])
            }
        default:
            inputMessage(describing: error, catalog: catalog) ?? libraryMessage(describing: error, catalog: catalog)
                ?? peopleMessage(describing: error, catalog: catalog)
                ?? pushMessage(describing: error, catalog: catalog)
                ?? trackerMessage(describing: error, catalog: catalog)
        }
    }

    public static func message(for error: PracticeLogError, catalog: StringCatalog) -> String {
        switch error {
        case .lengthNotPositive: catalog[.errorLengthNotPositive]
        case .lengthTooLong: catalog[.errorLengthTooLong]
        case .noteTooLong: catalog.format(.errorLogNoteTooLong, ["count": String(PracticeRecord.maximumNoteLength)])
        case .invalidRecord(let record): message(for: record, catalog: catalog)
        case .instant(let instant): message(for: instant, catalog: catalog)
        case .text(let text): message(for: text, catalog: catalog)
        case .idTooShort(let id): catalog.format(.errorRecordIDTooShort, ["id": id])
        case .notFound(let id): catalog.format(.errorRecordNotFound, ["id": id])
        case .ambiguous(let id): catalog.format(.errorRecordAmbiguous, ["id": id])
        case .store(let store): message(for: store, catalog: catalog)
        }
    }

    /// A step a run cannot take now.
    public static func message(for error: TimelineRunError, catalog: StringCatalog) -> String {
        switch error {
        case .alreadyStarted: catalog[.errorRunAlreadyStarted]
        case .notStarted: catalog[.errorRunNotStarted]
        case .alreadyPaused: catalog[.errorRunAlreadyPaused]
        case .notPaused: catalog[.errorRunNotPaused]
        case .alreadyStopped: catalog[.errorRunAlreadyStopped]
        case .alreadyCompleted: catalog[.errorRunAlreadyCompleted]
        case .instantBeforeStart: catalog[.errorRunInstantBeforeStart]
        }
    }

    /// A practice reported after it was played away from the server that cannot be logged.
    public static func message(for error: RunReportError, catalog: StringCatalog) -> String {
        switch error {
        case .tooManySteps(let count, let maximum):
            catalog.format(.errorRunReportTooManySteps, ["count": String(count), "maximum": String(maximum)])
        case .notEnded: catalog[.errorRunReportNotEnded]
        case .tooOld(let days): catalog.format(.errorRunReportTooOld, ["days": String(days)])
        case .inTheFuture: catalog[.errorRunReportInTheFuture]
        }
    }

    public static func message(for error: MeditationPlanError, catalog: StringCatalog) -> String {
        switch error {
        case .durationTooShort: catalog[.errorDurationTooShort]
        case .durationTooLong: catalog[.errorDurationTooLong]
        case .countdownNegative: catalog[.errorCountdownNegative]
        case .countdownTooLong: catalog[.errorCountdownTooLong]
        case .intervalTooShort: catalog[.errorIntervalTooShort]
        case .intervalTooLong: catalog[.errorIntervalTooLong]
        case .intervalOffsetsEmpty: catalog[.errorIntervalOffsetsEmpty]
        case .tooManyIntervalOffsets: catalog[.errorTooManyIntervalOffsets]
        case .intervalOffsetNotAfterStart: catalog[.errorIntervalOffsetNotAfterStart]
        case .reflectionNegative: catalog[.errorReflectionNegative]
        case .reflectionTooLong: catalog[.errorReflectionTooLong]
        case .unknownAmbient(let id):
            catalog.format(
                .errorUnknownAmbient,
                ["id": id, "choices": AmbientCatalog.builtIn.entries.map(\.id).joined(separator: ", ")])
        case .ambientVolumeOutOfRange: catalog[.errorAmbientVolume]
        case .internalInconsistency: catalog.format(.errorInternal, ["detail": "meditation timeline"])
        case .intervalGongAtOrAfterEnd(let offset, let duration):
            catalog.format(
                .errorIntervalGongAtOrAfterEnd,
                [
                    "offset": DurationFormatting.words(offset, language: catalog.language),
                    "duration": DurationFormatting.words(duration, language: catalog.language),
                ])
        }
    }

    public static func message(for error: MeditationPresetError, catalog: StringCatalog) -> String {
        switch error {
        case .emptyName: catalog[.errorMeditationPresetName]
        case .nameTooLong: catalog.format(.errorNameTooLong, ["maximum": "\(MeditationPreset.maximumNameLength)"])
        case .text(let text): message(for: text, catalog: catalog)
        case .invalidPlan(let plan): message(for: plan, catalog: catalog)
        case .unknownPreset(let name): catalog.format(.errorMeditationUnknownPreset, ["name": name])
        case .nameTaken(let name): catalog.format(.errorMeditationPresetNameTaken, ["name": name])
        case .positionOutOfRange: catalog[.errorMeditationPresetPosition]
        }
    }

    public static func message(for error: BreathingError, catalog: StringCatalog) -> String {
        switch error {
        case .inhaleOutOfRange: catalog[.errorBreathingInhale]
        case .exhaleOutOfRange: catalog[.errorBreathingExhale]
        case .holdOutOfRange: catalog[.errorBreathingHold]
        case .notInHalfSecondSteps: catalog[.errorBreathingSteps]
        case .roundsOutOfRange: catalog[.errorBreathingRounds]
        case .minutesOutOfRange: catalog[.errorBreathingMinutes]
        case .unreadablePattern(let text): catalog.format(.errorBreathingPattern, ["value": text])
        case .emptyPresetName: catalog[.errorBreathingPresetName]
        case .text(let text): message(for: text, catalog: catalog)
        case .unknownPreset(let name): catalog.format(.errorBreathingUnknownPreset, ["name": name])
        case .presetNameTaken(let name): catalog.format(.errorBreathingNameTaken, ["name": name])
        case .builtInPresetCannotBeDeleted(let id):
            catalog.format(
                .errorBreathingBuiltIn,
                ["name": BreathingPreset.builtIn.first { $0.id == id }?.displayName(catalog) ?? id])
        case .internalInconsistency: catalog.format(.errorInternal, ["detail": "breathing timeline"])
        case .presetNameTooLong: catalog.format(.errorNameTooLong, ["maximum": "\(BreathingPreset.maximumNameLength)"])
        }
    }

    public static func message(for error: FocusTimerError, catalog: StringCatalog) -> String {
        switch error {
        case .blankName: catalog[.errorFocusBlankName]
        case .text(let text): message(for: text, catalog: catalog)
        case .nameTooLong: catalog[.errorFocusNameTooLong]
        case .durationOutOfRange: catalog[.errorFocusDuration]
        case .durationNotWholeSeconds: catalog[.errorFocusDurationWhole]
        case .invalidIcon(let icon):
            catalog.format(.errorUnknownIcon, ["value": icon, "icons": FocusTimer.icons.joined(separator: ", ")])
        case .invalidColor(let color): catalog.format(.errorFocusColor, ["value": color])
        case .notesTooLong: catalog[.errorFocusNotesTooLong]
        case .tooManyItems: catalog[.errorFocusTooManyItems]
        case .blankItemText: catalog[.errorFocusBlankItem]
        case .itemTextTooLong: catalog[.errorFocusItemTooLong]
        case .duplicateItemID(let id): catalog.format(.errorFocusDuplicateItem, ["id": id.uuidString.lowercased()])
        case .nameTaken(let name): catalog.format(.errorFocusNameTaken, ["name": name])
        case .unknownTimer(let name): catalog.format(.errorFocusUnknownTimer, ["name": name])
        case .ambiguousTimer(let name): catalog.format(.errorFocusAmbiguousTimer, ["name": name])
        case .unknownItem(let item): catalog.format(.errorFocusUnknownItem, ["item": item])
        case .positionOutOfRange(let position, let count):
            catalog.format(.errorFocusPosition, ["position": "\(position)", "count": "\(count)"])
        case .invalidRun: catalog[.errorFocusInvalidRun]
        case .alreadyRunning(let name): catalog.format(.errorFocusAlreadyRunning, ["name": name])
        case .notRunning(let name): catalog.format(.errorFocusNotRunning, ["name": name])
        case .notPaused(let name): catalog.format(.errorFocusNotPaused, ["name": name])
        case .notStarted(let name): catalog.format(.errorFocusNotStarted, ["name": name])
        case .internalInconsistency: catalog.format(.errorInternal, ["detail": "focus timeline"])
        }
    }

    public static func message(for error: WorkoutError, catalog: StringCatalog) -> String {
        switch error {
        case .getReadyOutOfRange: catalog[.errorWorkoutGetReady]
        case .warmUpOutOfRange: catalog[.errorWorkoutWarmUp]
        case .workOutOfRange: catalog[.errorWorkoutWork]
        case .restOutOfRange: catalog[.errorWorkoutRest]
        case .roundsOutOfRange: catalog[.errorWorkoutRounds]
        case .setsOutOfRange: catalog[.errorWorkoutSets]
        case .setRestOutOfRange: catalog[.errorWorkoutSetRest]
        case .coolDownOutOfRange: catalog[.errorWorkoutCoolDown]
        case .notWholeSeconds: catalog[.errorWorkoutWholeSeconds]
        case .blankExerciseName: catalog[.errorWorkoutBlankExercise]
        case .exerciseNameTooLong: catalog[.errorWorkoutExerciseTooLong]
        case .tooManyExerciseNames: catalog[.errorWorkoutTooManyExercises]
        case .emptyProgramName: catalog[.errorWorkoutProgramName]
        case .text(let text): message(for: text, catalog: catalog)
        case .unknownProgram(let name): catalog.format(.errorWorkoutUnknownProgram, ["name": name])
        case .programNameTaken(let name): catalog.format(.errorWorkoutNameTaken, ["name": name])
        case .builtInProgramCannotBeDeleted(let id):
            catalog.format(
                .errorWorkoutBuiltIn,
                ["name": WorkoutProgram.builtIn.first { $0.id == id }?.displayName(catalog) ?? id])
        case .internalInconsistency: catalog.format(.errorInternal, ["detail": "workout timeline"])
        case .programNameTooLong: catalog.format(.errorNameTooLong, ["maximum": "\(WorkoutProgram.maximumNameLength)"])
        }
    }

    public static func message(for error: SyncClientError, catalog: StringCatalog) -> String {
        switch error {
        case .invalidServerURL(let url): catalog.format(.errorSyncServerURL, ["url": url])
        case .unreachable(let server, _):
            // Never Foundation's or curl's text ("… (NSURLErrorDomain error -1004.)", "Failed to
            // connect to … after 0 ms"): English in every language; it is kept for the debug log.
            catalog.format(.errorSyncUnreachable, ["server": server, "reason": catalog[.errorSyncNoConnection]])
        case .unauthorized: catalog[.errorSyncUnauthorized]
        case .refused(let status, let code, let message):
            catalog.format(.errorSyncRefused, ["status": "\(status)", "code": code, "message": message])
        case .badAnswer(let server, let detail):
            catalog.format(.errorSyncBadAnswer, ["server": server, "detail": detail])
        case .sync(let error): message(for: error, catalog: catalog)
        case .store(let store): message(for: store, catalog: catalog)
        }
    }

    public static func message(for error: StoreError, catalog: StringCatalog) -> String {
        switch error {
        case .dataDirectoryNotWritable(let path, let reason):
            catalog.format(.errorDataDirectoryNotWritable, ["path": path, "reason": reason])
        case .readOnly(let path): catalog.format(.errorDataDirectoryReadOnly, ["path": path])
        case .notADatabase(let path): catalog.format(.errorNotADatabase, ["path": path])
        case .damaged(let path): catalog.format(.errorDatabaseDamaged, ["path": path])
        case .databaseFromNewerVersion(let path): catalog.format(.errorDatabaseFromNewerVersion, ["path": path])
        // The table, the reason and SQLite's own text are for the log, never for people.
        case .corruptRow(_, let id, _): catalog.format(.errorDatabaseCorruptRow, ["id": id])
        case .database: catalog[.errorDatabaseFailed]
        case .busy: catalog[.errorDatabaseBusy]
        case .diskFull: catalog[.errorDiskFull]
        case .unavailable: catalog[.errorStoreUnavailable]
        }
    }

    public static func message(for error: SettingValueError, catalog: StringCatalog) -> String {
        switch error {
        case .unreadable(let key, let value):
            catalog.format(
                .errorInvalidSettingValue, ["value": value, "key": key.rawValue, "hint": key.hint(in: catalog)])
        case .plan(let plan): message(for: plan, catalog: catalog)
        case .outOfRange(let key, let value):
            catalog.format(
                .errorSettingOutOfRange, ["value": value, "key": key.rawValue, "hint": key.hint(in: catalog)])
        }
    }
}

/// One form field's bounds and default, in the unit the form shows (minutes, seconds, wpm …).
///
/// Every value is read from the constant the field's validator checks, so a front end that
/// offers these bounds offers exactly what the core accepts.
public struct FieldBounds: Sendable, Equatable, Codable {
    public var min: Double?
    public var max: Double?
    public var step: Double?
    /// The value a new item starts with.
    public var defaultValue: Double?
    /// The most characters a text field takes.
    public var maxLength: Int?

    public init(
        min: Double? = nil, max: Double? = nil, step: Double? = nil, defaultValue: Double? = nil,
        maxLength: Int? = nil
    ) {
        self.min = min
        self.max = max
        self.step = step
        self.defaultValue = defaultValue
        self.maxLength = maxLength
    }

    private enum CodingKeys: String, CodingKey {
        case min, max, step, maxLength
        case defaultValue = "default"
    }

    /// A text field of at most `characters` characters.
    public static func text(_ characters: Int) -> FieldBounds { FieldBounds(maxLength: characters) }
}

/// The bounds and defaults of every form field a front end shows, by field id
/// (`breathing.rounds`, `focus.minutes`, `morse.toneHertz` …).
///
/// ```swift
/// FormBounds.all["breathing.rounds"]  // min 1, max 99, step 1, default 10
/// ```
public enum FormBounds {
    /// Every field, by id.
    public static let all: [String: FieldBounds] = {
        var fields: [String: FieldBounds] = [:]
        for (id, bounds) in breathing + focus + log + progress + library + morse + meditation + workout + offline {
            fields[id] = bounds
        }
        return fields
    }()

    static func seconds(_ duration: Duration) -> Double { Double(duration.wholeMilliseconds) / 1000 }
    static func minutes(_ duration: Duration) -> Double { Double(duration.wholeMilliseconds) / 60_000 }

    /// The breathing preset editor: name, the four phases in seconds (half-second steps), rounds.
    static var breathing: [(String, FieldBounds)] {
        let step = seconds(BreathingPattern.step)
        let new = BreathingPattern.newPreset
        func phase(_ bounds: ClosedRange<Duration>, _ value: Duration) -> FieldBounds {
            FieldBounds(
                min: seconds(bounds.lowerBound), max: seconds(bounds.upperBound), step: step,
                defaultValue: seconds(value))
        }
        return [
            ("breathing.name", .text(BreathingPreset.maximumNameLength)),
            ("breathing.inhale", phase(BreathingPattern.breathBounds, new.inhale)),
            ("breathing.holdAfterInhale", phase(BreathingPattern.holdBounds, new.holdAfterInhale)),
            ("breathing.exhale", phase(BreathingPattern.breathBounds, new.exhale)),
            ("breathing.holdAfterExhale", phase(BreathingPattern.holdBounds, new.holdAfterExhale)),
            (
                "breathing.rounds",
                FieldBounds(
                    min: Double(BreathingLength.roundBounds.lowerBound),
                    max: Double(BreathingLength.roundBounds.upperBound), step: 1,
                    defaultValue: Double(BreathingPreset.newPresetRounds))
            ),
        ]
    }

    /// The workout builder: a program's name, its times in whole seconds, rounds and sets, and an
    /// exercise name; the defaults are a new plan's (SPEC §5).
    static var workout: [(String, FieldBounds)] {
        let new = WorkoutPlan()
        func time(_ bounds: ClosedRange<Duration>, _ value: Duration) -> FieldBounds {
            FieldBounds(
                min: Swift.max(0, seconds(bounds.lowerBound)), max: seconds(bounds.upperBound), step: 1,
                defaultValue: seconds(value))
        }
        func count(_ bounds: ClosedRange<Int>, _ value: Int) -> FieldBounds {
            FieldBounds(
                min: Double(bounds.lowerBound), max: Double(bounds.upperBound), step: 1, defaultValue: Double(value))
        }
        return [
            ("workout.name", .text(WorkoutProgram.maximumNameLength)),
            ("workout.getReadySeconds", time(WorkoutPlan.getReadyBounds, new.getReady)),
            ("workout.warmUpSeconds", time(WorkoutPlan.warmUpBounds, new.warmUp)),
            ("workout.workSeconds", time(WorkoutPlan.workBounds, new.work)),
            ("workout.restSeconds", time(WorkoutPlan.restBounds, new.rest)),
            ("workout.rounds", count(WorkoutPlan.roundBounds, new.rounds)),
            ("workout.sets", count(WorkoutPlan.setBounds, new.sets)),
            ("workout.setRestSeconds", time(WorkoutPlan.setRestBounds, new.setRest)),
            ("workout.coolDownSeconds", time(WorkoutPlan.coolDownBounds, new.coolDown)),
            ("workout.exerciseName", .text(WorkoutPlan.maximumExerciseNameLength)),
        ]
    }

    /// The space a device gives sound kept for practising offline, in whole MB.
    static var offline: [(String, FieldBounds)] {
        [
            (
                "offline.budgetMB",
                FieldBounds(
                    min: Double(OfflineBudget.megabytes.lowerBound), max: Double(OfflineBudget.megabytes.upperBound),
                    step: 1, defaultValue: Double(OfflineBudget.defaultMegabytes))
            )
        ]
    }

    /// The new focus timer form (length in whole minutes) and a checklist item.
    static var focus: [(String, FieldBounds)] {
        [
            ("focus.name", .text(FocusTimer.maximumNameLength)),
            (
                "focus.minutes",
                FieldBounds(
                    min: Swift.max(1, minutes(FocusTimer.durationBounds.lowerBound).rounded(.up)),
                    max: minutes(FocusTimer.durationBounds.upperBound), step: 1,
                    defaultValue: minutes(FocusTimer.defaultDuration))
            ),
            ("focus.item", .text(ChecklistItem.maximumTextLength)),
        ]
    }

    /// Editing a logged session: its length in whole minutes and its note.
    static var log: [(String, FieldBounds)] {
        [
            ("log.minutes", FieldBounds(min: 1, max: PracticeRecord.maximumLength / 60, step: 1)),
            ("log.note", .text(PracticeRecord.maximumNoteLength)),
        ]
    }

    /// The progress settings: daily goals in minutes and the hour a day begins.
    static var progress: [(String, FieldBounds)] {
        func goal(_ category: PracticeCategory) -> FieldBounds {
            let bounds = ProgressSettings.goalBounds(for: category)
            return FieldBounds(
                min: Double(bounds.lowerBound), max: Double(bounds.upperBound), step: 1,
                defaultValue: ProgressSettings.defaultGoals[category].map(Double.init))
        }
        return [
            ("progress.mindfulnessGoal", goal(.mindfulness)),
            ("progress.workoutGoal", goal(.workout)),
            ("progress.focusGoal", goal(.focus)),
            (
                "progress.dayStartHour",
                FieldBounds(
                    min: Double(DayCalendar.dayStartHours.lowerBound),
                    max: Double(DayCalendar.dayStartHours.upperBound), step: 1,
                    defaultValue: Double(ProgressSettings().dayStartHour))
            ),
        ]
    }

    /// A library item's own teacher and name.
    static var library: [(String, FieldBounds)] {
        [
            ("library.teacher", .text(LibraryText.maximumCharacters)),
            ("library.name", .text(LibraryText.maximumCharacters)),
        ]
    }

    /// The Morse course settings, a typed answer, and the QSO's call sign and transmission.
    static var morse: [(String, FieldBounds)] {
        // try?: the defaults are within their own bounds (FormBoundsTests.morseCourseSettings shows
        // them as these fields' defaults); were they not, the form would only lack a default hint.
        let defaults = try? MorseCourseSettings()
        let speeds = MorseTiming.characterSpeedBounds
        return [
            (
                "morse.characterWPM",
                FieldBounds(
                    min: speeds.lowerBound, max: speeds.upperBound, step: 1,
                    defaultValue: defaults?.timing.characterWPM)
            ),
            (
                // The upper bound is the character speed the person chose; this is its highest.
                "morse.effectiveWPM",
                FieldBounds(
                    min: MorseTiming.minimumEffectiveSpeed, max: speeds.upperBound, step: 1,
                    defaultValue: defaults?.timing.effectiveWPM)
            ),
            (
                "morse.toneHertz",
                FieldBounds(
                    min: MorseTone.hertzBounds.lowerBound, max: MorseTone.hertzBounds.upperBound,
                    step: MorseTone.hertzStep, defaultValue: defaults?.tone.hertz)
            ),
            (
                "morse.riseMilliseconds",
                FieldBounds(
                    min: seconds(MorseTone.riseBounds.lowerBound) * 1000,
                    max: seconds(MorseTone.riseBounds.upperBound) * 1000, step: 1,
                    defaultValue: defaults.map { seconds($0.tone.rise) * 1000 })
            ),
            (
                "morse.sessionMinutes",
                FieldBounds(
                    min: minutes(MorseSession.lengthBounds.lowerBound),
                    max: minutes(MorseSession.lengthBounds.upperBound), step: 1,
                    defaultValue: minutes(MorseSession.defaultLength))
            ),
            ("morse.answer", .text(MorseAttempt.maximumAnswerLength)),
            // A straight key's signal in milliseconds (the browser caps a held key at this).
            ("morse.signalMilliseconds", FieldBounds(max: MorseAttempt.maximumSignalMilliseconds)),
            ("qso.callSign", .text(CallSign.maximumLength)),
            ("qso.transmission", .text(QSO.maximumTransmissionLength)),
        ]
    }

    /// The Meditate form's number fields (the sit itself comes from the saved plan) and a saved
    /// sit's name.
    static var meditation: [(String, FieldBounds)] {
        [
            ("meditation.presetName", .text(MeditationPreset.maximumNameLength)),
            (
                "meditation.durationMinutes",
                FieldBounds(
                    min: Swift.max(1, minutes(MeditationPlan.durationBounds.lowerBound).rounded(.up)),
                    max: minutes(MeditationPlan.durationBounds.upperBound), step: 1,
                    defaultValue: minutes(MeditationPlan.defaultDuration))
            ),
            (
                "meditation.countdownSeconds",
                FieldBounds(
                    min: seconds(MeditationPlan.countdownBounds.lowerBound),
                    max: seconds(MeditationPlan.countdownBounds.upperBound), step: 1,
                    defaultValue: seconds(MeditationPlan.defaultCountdown))
            ),
            (
                "meditation.reflectionMinutes",
                FieldBounds(
                    min: minutes(MeditationPlan.reflectionBounds.lowerBound),
                    max: minutes(MeditationPlan.reflectionBounds.upperBound), step: 1,
                    defaultValue: minutes(MeditationPlan().reflection))
            ),
            (
                "meditation.intervalMinutes",
                FieldBounds(
                    min: Double(MeditationPlan.intervalMinutesBounds.lowerBound),
                    max: Double(MeditationPlan.intervalMinutesBounds.upperBound), step: 1)
            ),
        ]
    }
}

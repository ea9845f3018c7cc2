import Foundation
import Testing

@testable import MomentumCore

/// Every bound the browser's forms offer (the catalog's `forms`) is what the core's validators
/// accept: the bound itself passes, one step beyond it is refused, and the default passes.
@Suite("Form bounds are the validators' bounds")
struct FormBoundsTests {
    func bounds(_ id: String) throws -> FieldBounds { try #require(FormBounds.all[id], "no bounds for \(id)") }

    /// The lowest, highest and default value, and the refused values one step beyond each end.
    func edges(_ id: String) throws -> (accepted: [Double], refused: [Double]) {
        let field = try bounds(id)
        let (low, high, step) = (try #require(field.min), try #require(field.max), try #require(field.step))
        return ([low, high] + (field.defaultValue.map { [$0] } ?? []), [low - step, high + step])
    }

    func text(_ count: Int) -> String { String(repeating: "a", count: count) }

    @Test(arguments: [
        "breathing.inhale", "breathing.holdAfterInhale", "breathing.exhale", "breathing.holdAfterExhale",
    ])
    func breathingPhases(_ id: String) throws {
        func pattern(_ seconds: Double) throws(BreathingError) -> BreathingPattern {
            switch id {
            case "breathing.inhale":
                try BreathingPattern(inhale: seconds, holdAfterInhale: 0, exhale: 4, holdAfterExhale: 0)
            case "breathing.holdAfterInhale":
                try BreathingPattern(inhale: 4, holdAfterInhale: seconds, exhale: 4, holdAfterExhale: 0)
            case "breathing.exhale":
                try BreathingPattern(inhale: 4, holdAfterInhale: 0, exhale: seconds, holdAfterExhale: 0)
            default: try BreathingPattern(inhale: 4, holdAfterInhale: 0, exhale: 4, holdAfterExhale: seconds)
            }
        }
        let (accepted, refused) = try edges(id)
        for value in accepted { #expect(throws: Never.self) { _ = try pattern(value) } }
        for value in refused { #expect(throws: BreathingError.self) { _ = try pattern(value) } }
        // Half a step is not a step: the form's step is the validator's.
        let step = try #require(try bounds(id).step)
        #expect(throws: BreathingError.notInHalfSecondSteps) { _ = try pattern(2 + step / 2) }
        let new = BreathingPattern.newPreset
        let defaults = [new.inhale, new.holdAfterInhale, new.exhale, new.holdAfterExhale].map(FormBounds.seconds)
        #expect(
            [
                "breathing.inhale", "breathing.holdAfterInhale", "breathing.exhale", "breathing.holdAfterExhale",
            ].map { FormBounds.all[$0]?.defaultValue } == defaults)
    }

    @Test func breathingRoundsAndName() throws {
        let (accepted, refused) = try edges("breathing.rounds")
        func preset(name: String = "Mine", rounds: Double) throws(BreathingError) -> BreathingPreset {
            try BreathingPreset(id: "mine", name: name, pattern: .newPreset, rounds: Int(rounds))
        }
        for value in accepted { #expect(throws: Never.self) { _ = try preset(rounds: value) } }
        for value in refused { #expect(throws: BreathingError.roundsOutOfRange) { _ = try preset(rounds: value) } }
        let length = try #require(try bounds("breathing.name").maxLength)
        #expect(throws: Never.self) { _ = try preset(name: text(length), rounds: 10) }
        #expect(throws: BreathingError.presetNameTooLong) { _ = try preset(name: text(length + 1), rounds: 10) }
    }

    @Test func focusTimer() throws {
        let (accepted, refused) = try edges("focus.minutes")
        func timer(name: String = "Focus", minutes: Double) throws(FocusTimerError) -> FocusTimer {
            try FocusTimer(
                id: UUID(), name: name, duration: .seconds(Int64(minutes * 60)), sortOrder: 0,
                createdAt: Date(timeIntervalSince1970: 0))
        }
        for value in accepted { #expect(throws: Never.self) { _ = try timer(minutes: value) } }
        for value in refused { #expect(throws: FocusTimerError.durationOutOfRange) { _ = try timer(minutes: value) } }
        #expect(try bounds("focus.minutes").defaultValue == 25)
        let name = try #require(try bounds("focus.name").maxLength)
        #expect(throws: Never.self) { _ = try timer(name: text(name), minutes: 25) }
        #expect(throws: FocusTimerError.nameTooLong) { _ = try timer(name: text(name + 1), minutes: 25) }
        let item = try #require(try bounds("focus.item").maxLength)
        func checklistItem(_ text: String) throws(FocusTimerError) -> ChecklistItem {
            try ChecklistItem(id: UUID(), text: text, sortOrder: 0, createdAt: Date(timeIntervalSince1970: 0))
        }
        #expect(throws: Never.self) { _ = try checklistItem(text(item)) }
        #expect(throws: FocusTimerError.itemTextTooLong) { _ = try checklistItem(text(item + 1)) }
    }

    @Test(arguments: [
        ("progress.mindfulnessGoal", SettingKey.mindfulnessGoal), ("progress.workoutGoal", .workoutGoal),
        ("progress.dayStartHour", .dayStartHour),
    ])
    func progressSettings(_ id: String, _ key: SettingKey) throws {
        let (accepted, refused) = try edges(id)
        for value in accepted {
            var settings = MomentumSettings()
            #expect(throws: Never.self) { try settings.set(key, to: String(Int(value))) }
        }
        for value in refused {
            var settings = MomentumSettings()
            #expect(throws: SettingValueError.self) { try settings.set(key, to: String(Int(value))) }
        }
    }

    @Test(arguments: LibraryField.allCases)
    func libraryTexts(_ field: LibraryField) throws {
        let length = try #require(try bounds("library.\(field.rawValue)").maxLength)
        #expect(try LibraryText.validated(text(length), field: field) == text(length))
        #expect(throws: LibraryEditError.self) { _ = try LibraryText.validated(text(length + 1), field: field) }
    }

    @Test func morseCourseSettings() throws {
        func settings(_ id: String, _ value: Double) throws(MorseCourseSettingsError) -> MorseCourseSettings {
            switch id {
            case "morse.characterWPM": try MorseCourseSettings(characterWPM: value, effectiveWPM: 5)
            case "morse.effectiveWPM": try MorseCourseSettings(characterWPM: 60, effectiveWPM: value)
            case "morse.toneHertz": try MorseCourseSettings(toneHertz: value)
            case "morse.riseMilliseconds": try MorseCourseSettings(riseTime: .milliseconds(Int64(value)))
            default: try MorseCourseSettings(sessionLength: .seconds(Int64(value * 60)))
            }
        }
        for id in [
            "morse.characterWPM", "morse.effectiveWPM", "morse.toneHertz", "morse.riseMilliseconds",
            "morse.sessionMinutes",
        ] {
            let (accepted, refused) = try edges(id)
            for value in accepted { #expect(throws: Never.self, "\(id) \(value)") { _ = try settings(id, value) } }
            for value in refused {
                #expect(throws: MorseCourseSettingsError.self, "\(id) \(value)") { _ = try settings(id, value) }
            }
        }
        let defaults = try MorseCourseSettings()
        #expect(try bounds("morse.characterWPM").defaultValue == defaults.timing.characterWPM)
        #expect(try bounds("morse.effectiveWPM").defaultValue == defaults.timing.effectiveWPM)
        #expect(try bounds("morse.toneHertz").defaultValue == defaults.tone.hertz)
        #expect(try bounds("morse.sessionMinutes").defaultValue == 5)
    }

    @Test func qsoCallSignAndTransmission() throws {
        let call = try #require(try bounds("qso.callSign").maxLength)
        #expect(throws: Never.self) { _ = try CallSign("K1ABC/" + String(repeating: "P", count: call - 6)) }
        #expect(throws: CallSignError.self) { _ = try CallSign("K1ABC/" + String(repeating: "P", count: call - 5)) }
        let transmission = try #require(try bounds("qso.transmission").maxLength)
        let qso = try scriptedQSO(.ragChew, .answer)
        #expect(throws: Never.self) { _ = try qso.receiving(String(repeating: "E", count: transmission)) }
        #expect(throws: QSOError.self) { _ = try qso.receiving(String(repeating: "E", count: transmission + 1)) }
    }

    @Test func meditationPlan() throws {
        func plan(_ id: String, _ value: Double) -> MeditationPlan {
            var plan = MeditationPlan(duration: .minutes(60))
            switch id {
            case "meditation.durationMinutes": plan.duration = .seconds(Int64(value * 60))
            case "meditation.countdownSeconds": plan.countdown = .seconds(Int64(value))
            case "meditation.reflectionMinutes": plan.reflection = .seconds(Int64(value * 60))
            default:
                plan.duration = .minutes(600)
                plan.intervalGongs = .every(minutes: Int(value))
            }
            return plan
        }
        for id in [
            "meditation.durationMinutes", "meditation.countdownSeconds", "meditation.reflectionMinutes",
            "meditation.intervalMinutes",
        ] {
            let (accepted, refused) = try edges(id)
            for value in accepted { #expect(throws: Never.self, "\(id) \(value)") { try plan(id, value).validate() } }
            for value in refused {
                #expect(throws: MeditationPlanError.self, "\(id) \(value)") { try plan(id, value).validate() }
            }
        }
    }

    @Test func aSavedSitsName() throws {
        let length = try #require(try bounds("meditation.presetName").maxLength)
        func preset(_ name: String) throws(MeditationPresetError) -> MeditationPreset {
            let instant = Date(timeIntervalSince1970: 0)
            return try MeditationPreset(
                id: "mine", name: name, plan: MeditationPlan(), createdAt: instant, updatedAt: instant)
        }
        #expect(throws: Never.self) { _ = try preset(text(length)) }
        #expect(throws: MeditationPresetError.nameTooLong) { _ = try preset(text(length + 1)) }
    }

    @Test func everyFieldHasABoundAndTheJSONNamesDefault() throws {
        for (id, field) in FormBounds.all {
            #expect(field.maxLength != nil || field.max != nil, "\(id) bounds nothing")
        }
        let json = try #require(
            String(data: try JSONEncoder().encode(try bounds("breathing.rounds")), encoding: .utf8))
        #expect(json.contains(#""default":10"#))
    }

    @Test(arguments: [
        "workout.getReadySeconds", "workout.warmUpSeconds", "workout.workSeconds", "workout.restSeconds",
        "workout.rounds", "workout.sets", "workout.setRestSeconds", "workout.coolDownSeconds",
    ])
    func workoutBuilder(_ id: String) throws {
        func plan(_ value: Double) -> WorkoutPlan {
            var plan = WorkoutPlan()
            let time = Duration.seconds(value)
            switch id {
            case "workout.getReadySeconds": plan.getReady = time
            case "workout.warmUpSeconds": plan.warmUp = time
            case "workout.workSeconds": plan.work = time
            case "workout.restSeconds": plan.rest = time
            case "workout.rounds": plan.rounds = Int(value)
            case "workout.sets": plan.sets = Int(value)
            case "workout.setRestSeconds": plan.setRest = time
            default: plan.coolDown = time
            }
            return plan
        }
        let (accepted, refused) = try edges(id)
        for value in accepted { #expect(throws: Never.self) { try plan(value).validate() } }
        for value in refused { #expect(throws: WorkoutError.self) { try plan(value).validate() } }
    }

    @Test func workoutNames() throws {
        let exercise = try #require(try bounds("workout.exerciseName").maxLength)
        var plan = WorkoutPlan(exerciseNames: [text(exercise)])
        #expect(throws: Never.self) { try plan.validate() }
        plan.exerciseNames = [text(exercise + 1)]
        #expect(throws: WorkoutError.self) { try plan.validate() }
        #expect(try bounds("workout.name").maxLength == WorkoutProgram.maximumNameLength)
    }
}

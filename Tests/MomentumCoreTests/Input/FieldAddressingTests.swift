import Testing

@testable import MomentumCore

/// Issue 39: a refused value names the field it is about, so a form shows the sentence beside it.
@Suite("Field addressing: every refusal of a form's value names its field")
struct FieldAddressingTests {
    /// A service-like error wrapping a core error, as the services' errors do.
    enum Wrapping: Error {
        case invalid(MeditationPresetError)
        case store(String)
    }

    @Test(
        arguments: [
            (MeditationPlanError.durationTooShort as any Error, "durationMs"),
            (MeditationPlanError.countdownTooLong, "countdownMs"),
            (
                MeditationPlanError.intervalGongAtOrAfterEnd(offset: .minutes(25), duration: .minutes(10)),
                "intervalGongs"
            ),
            (MeditationPlanError.reflectionNegative, "reflectionMs"),
            (MeditationPlanError.unknownAmbient("sea"), "ambientID"),
            (MeditationPlanError.ambientVolumeOutOfRange, "ambientVolume"),
            (MeditationPresetError.nameTaken("Zazen"), "name"),
            (MeditationPresetError.invalidPlan(.durationTooLong), "durationMs"),
            (BreathingError.roundsOutOfRange, "rounds"),
            (BreathingError.inhaleOutOfRange, "inhaleMs"),
            (WorkoutError.workOutOfRange, "workMs"),
            (WorkoutError.exerciseNameTooLong, "exerciseNames"),
            (WorkoutError.text(.controlCharacter(field: "name", code: 7)), "name"),
            (FocusTimerError.durationOutOfRange, "durationMs"),
            (FocusTimerError.itemTextTooLong, "items"),
            (MorseCourseSettingsError.tone(.toneOutOfRange(100)), "toneHertz"),
            (MorseCourseSettingsError.timing(.effectiveSpeedOutOfRange(3)), "effectiveWPM"),
            (MorseCourseSettingsError.sessionLengthOutOfRange(.zero), "sessionSeconds"),
            (Wrapping.invalid(.invalidPlan(.intervalTooLong)), "intervalGongs"),
        ] as [(any Error, String)])
    func anErrorNamesItsField(error: any Error, field: String) {
        #expect(FieldAddressing.field(of: error) == field)
    }

    @Test func anErrorAboutNoOneFieldNamesNone() {
        #expect(FieldAddressing.field(of: MeditationPlanError.internalInconsistency) == nil)
        #expect(FieldAddressing.field(of: BreathingError.holdOutOfRange) == nil)
        #expect(FieldAddressing.field(of: Wrapping.store("disk")) == nil)
        #expect(FieldAddressing.field(of: FocusTimerError.alreadyRunning("Tea")) == nil)
    }
}

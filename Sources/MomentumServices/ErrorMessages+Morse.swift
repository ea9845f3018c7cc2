import MomentumAudio
import MomentumCore

extension ErrorMessages {
    /// A Morse timing or text that cannot be used, in the person's words.
    public static func morseMessage(for error: MorseError, catalog: StringCatalog) -> String {
        switch error {
        case .characterSpeedOutOfRange(let wpm):
            catalog.format(.errorMorseCharacterSpeed, ["value": catalog.language.number(wpm)])
        case .effectiveSpeedOutOfRange(let wpm):
            catalog.format(.errorMorseEffectiveSpeed, ["value": catalog.language.number(wpm)])
        case .extraWordSpaceOutOfRange: catalog[.errorMorseWordSpace]
        case .unencodableCharacter(let character, let position):
            catalog.format(.errorMorseUnencodable, ["character": String(character), "position": "\(position + 1)"])
        case .unknownProsign(let name): catalog.format(.errorMorseUnknownProsign, ["name": name])
        case .unclosedProsign(let position): catalog.format(.errorMorseUnclosedProsign, ["position": "\(position + 1)"])
        case .nothingToSend: catalog[.errorMorseNothingToSend]
        }
    }

    /// Band conditions out of bounds or unreadable.
    public static func morseMessage(for error: MorseBandConditionsError, catalog: StringCatalog) -> String {
        let number = { (value: Double) in catalog.language.number(value) }
        return switch error {
        case .signalToNoiseOutOfRange(let value): catalog.format(.errorMorseConditionsSnr, ["value": number(value)])
        case .fadingDepthOutOfRange(let value):
            catalog.format(.errorMorseConditionsFadingDepth, ["value": number(value)])
        case .fadingPeriodOutOfRange(let period):
            catalog.format(.errorMorseConditionsFadingPeriod, ["value": number(period.inSeconds)])
        case .interferenceOffsetOutOfRange(let value):
            catalog.format(.errorMorseConditionsQrmOffset, ["value": number(value)])
        case .interferenceLevelOutOfRange(let value):
            catalog.format(.errorMorseConditionsQrmLevel, ["value": number(value)])
        case .interferenceOutsidePassband(let value):
            catalog.format(.errorMorseConditionsQrmPassband, ["value": number(value)])
        case .unreadable(let text): catalog.format(.errorMorseConditionsUnreadable, ["value": text])
        case .unknownPreset(let name): catalog.format(.errorMorseConditionsUnknownPreset, ["value": name])
        case .chirpOutOfRange(let value): catalog.format(.errorMorseConditionsChirp, ["value": number(value)])
        case .fistOutOfRange: catalog[.errorMorseConditionsFist]
        case .unknownFist(let name): catalog.format(.errorMorseConditionsUnknownFist, ["value": name])
        case .unknownNoise(let name): catalog.format(.errorMorseConditionsUnknownNoise, ["value": name])
        case .noiseWithoutLevel: catalog[.errorMorseConditionsNoiseWithoutLevel]
        case .text(let error): morseMessage(for: error, catalog: catalog)
        }
    }

    /// A tone or envelope out of bounds.
    public static func morseMessage(for error: MorseToneError, catalog: StringCatalog) -> String {
        switch error {
        case .toneOutOfRange(let hertz): catalog.format(.errorMorseTone, ["value": catalog.language.number(hertz)])
        case .riseOutOfRange(let rise):
            catalog.format(.errorMorseRise, ["value": catalog.language.number(rise.inSeconds * 1000)])
        }
    }

    /// Course settings out of bounds.
    public static func message(for error: MorseCourseSettingsError, catalog: StringCatalog) -> String {
        switch error {
        case .timing(let error): morseMessage(for: error, catalog: catalog)
        case .tone(let error): morseMessage(for: error, catalog: catalog)
        case .sessionLengthOutOfRange(let length):
            catalog.format(.errorMorseSessionLength, ["value": catalog.language.number(length.inSeconds / 60)])
        }
    }

    /// What the course could not do; nothing was stored.
    public static func message(for error: MorseCourseServiceError, catalog: StringCatalog) -> String {
        switch error {
        case .corruptProgress: catalog[.errorMorseCorruptProgress]
        case .session(.lengthOutOfRange(let length)):
            message(for: MorseCourseSettingsError.sessionLengthOutOfRange(length), catalog: catalog)
        case .session(.groupSizeOutOfRange(let size)): catalog.format(.errorMorseGroupSize, ["value": "\(size)"])
        case .session(.timeIsUp): catalog[.errorMorseTimeUp]
        case .session(.instantBeforeLastEvent): catalog[.errorMorseInstantBeforeLastEvent]
        case .session: catalog[.errorMorseSession]
        case .progress: catalog[.errorMorseProgressMismatch]
        case .record(let problem): message(for: PracticeLogError.invalidRecord(problem), catalog: catalog)
        case .store(let problem): message(for: problem, catalog: catalog)
        }
    }
}

extension ErrorMessages {
    /// Dits and dahs, or key timings, that cannot be read, in the person's words.
    public static func message(for error: MorseDecodingError, catalog: StringCatalog) -> String {
        switch error {
        case .emptyPattern: catalog[.errorMorseDecodeEmptyPattern]
        case .unknownPattern(let pattern): catalog.format(.errorMorseDecodeUnknownPattern, ["pattern": pattern])
        case .expectedSpeedOutOfRange(let wpm):
            catalog.format(.errorMorseDecodeSpeed, ["value": catalog.language.number(wpm)])
        case .nonPositiveDuration(let position):
            catalog.format(.errorMorseDecodeDuration, ["position": "\(position + 1)"])
        case .noKeyPress: catalog[.errorMorseDecodeNoPress]
        case .keyingTooFast(let wpm):
            catalog.format(.errorMorseDecodeTooFast, ["value": catalog.language.number(wpm.rounded())])
        case .keyingTooSlow(let wpm):
            catalog.format(.errorMorseDecodeTooSlow, ["value": catalog.language.number(wpm, fractionDigits: 1)])
        }
    }
}

extension ErrorMessages {
    /// A hands-free plan out of bounds, in the person's words.
    public static func message(for error: HandsFreeError, catalog: StringCatalog) -> String {
        let seconds = { (duration: Duration) in catalog.language.number(duration.inSeconds) }
        return switch error {
        case .countOutOfRange:
            catalog.format(
                .errorHandsFreeCount,
                ["min": "\(HandsFreePlan.countBounds.lowerBound)", "max": "\(HandsFreePlan.countBounds.upperBound)"])
        case .pauseOutOfRange:
            catalog.format(
                .errorHandsFreePause,
                [
                    "min": seconds(HandsFreePlan.pauseBounds.lowerBound),
                    "max": seconds(HandsFreePlan.pauseBounds.upperBound),
                ])
        case .itemGapOutOfRange:
            catalog.format(
                .errorHandsFreeItemGap,
                [
                    "min": seconds(HandsFreePlan.itemGapBounds.lowerBound),
                    "max": seconds(HandsFreePlan.itemGapBounds.upperBound),
                ])
        case .emptyList: catalog[.errorHandsFreeEmptyList]
        case .entryLength(let entry):
            catalog.format(
                .errorHandsFreeEntryLength, ["entry": entry, "max": "\(HandsFreePlan.entryLength.upperBound)"])
        case .unsendable(let entry): catalog.format(.errorHandsFreeUnsendable, ["entry": entry])
        }
    }

    /// Why speech could not be made, in the person's words: never the engine's own output.
    public static func message(for error: SpeechError, catalog: StringCatalog) -> String {
        switch error {
        case .engineMissing: catalog[.errorSpeechMissing]
        case .voiceMissing(let language):
            catalog.format(
                .errorSpeechVoice,
                ["language": catalog[language == .german ? .morseHandsFreeLanguageDe : .morseHandsFreeLanguageEn]])
        case .engineFailed(let status): catalog.format(.errorSpeechFailed, ["status": "\(status)"])
        case .timedOut: catalog[.errorSpeechTimedOut]
        case .unreadableOutput: catalog[.errorSpeechUnreadable]
        }
    }

    /// Why listening to a hands-free session was not logged.
    public static func message(for error: HandsFreeServiceError, catalog: StringCatalog) -> String {
        switch error {
        case .listenedOutOfRange: catalog[.errorHandsFreeListened]
        case .record(let problem): message(for: PracticeLogError.invalidRecord(problem), catalog: catalog)
        case .store(let problem): message(for: problem, catalog: catalog)
        }
    }
}

/// Speech that cannot be made is the machine's lack, not the person's mistake: the terminal exits
/// with "unavailable" (69), the web answers 503 with the sentence.
extension SpeechError: ClassifiedFailure {
    public var failureKind: FailureKind { .unavailable }
    public var failureCode: String? { "speech_unavailable" }
}

/// Everything a person sets once and keeps: the meditation defaults, language, sound, progress
/// and reminders.
///
/// Reminder settings are not ``SettingKey``s: their daily reminders are a list, not one value,
/// so `momentum remind settings` changes them through ``ReminderSettings``' own methods.
public struct MomentumSettings: Sendable, Equatable {
    /// The last used (or chosen) meditation plan, the defaults for the next sit.
    public var meditation: MeditationPlan = MeditationPlan()
    /// The chosen language; `nil` follows the browser or `LANG`.
    public var language: Language?
    public var isSoundOn: Bool = true
    /// Advances by one each time a sit starts; picks the affirmations.
    public var affirmationRotation: Int = 0
    /// Day boundaries, jokers, streak visibility and goals.
    public var progress = ProgressSettings()
    /// Which reminders are planned, quiet hours, the preferred time and daily reminders.
    public var reminders = ReminderSettings()

    public init() {}
}

/// The settings a person can change by name, e.g. `momentum settings set meditation.duration 20`.
public enum SettingKey: String, Sendable, CaseIterable {
    case meditationDuration = "meditation.duration"
    case meditationCountdown = "meditation.countdown"
    case meditationInterval = "meditation.interval"
    case meditationReflection = "meditation.reflection"
    case meditationAmbient = "meditation.ambient"
    case meditationVolume = "meditation.volume"
    case meditationOpenEnded = "meditation.open-ended"
    case language
    case sound
    case timeZone = "progress.time-zone"
    case dayStartHour = "progress.day-start"
    case jokers = "progress.jokers"
    case hideStreaks = "progress.hide-streaks"
    case mindfulnessGoal = "goal.mindfulness"
    case workoutGoal = "goal.workout"
    case focusGoal = "goal.focus"

    /// The catalog key of the setting's human name.
    public var nameKey: StringKey {
        switch self {
        case .meditationDuration: .settingsDuration
        case .meditationCountdown: .settingsCountdown
        case .meditationInterval: .settingsInterval
        case .meditationReflection: .settingsReflection
        case .meditationAmbient: .settingsAmbient
        case .meditationVolume: .settingsVolume
        case .meditationOpenEnded: .settingsOpenEnded
        case .language: .settingsLanguage
        case .sound: .settingsSound
        case .timeZone: .settingsTimeZone
        case .dayStartHour: .settingsDayStart
        case .jokers: .settingsJokers
        case .hideStreaks: .settingsHideStreaks
        case .mindfulnessGoal: .settingsMindfulnessGoal
        case .workoutGoal: .settingsWorkoutGoal
        case .focusGoal: .settingsGoalFocus
        }
    }

    /// What the setting takes, in the person's language (a refusal ends with it).
    public func hint(in catalog: StringCatalog) -> String {
        switch self {
        case .meditationAmbient: AmbientCatalog.builtIn.entries.map(\.id).joined(separator: ", ")
        case .meditationVolume: "0–1"
        case .meditationDuration: catalog[.settingHintMeditationDuration]
        case .meditationCountdown: catalog[.settingHintSecondsToSixty]
        case .meditationInterval: catalog[.settingHintInterval]
        case .meditationReflection: catalog[.settingHintMinutesToSixty]
        case .meditationOpenEnded, .sound, .jokers, .hideStreaks: catalog[.settingHintOnOff]
        case .language: catalog[.settingHintLanguage]
        case .timeZone: catalog[.settingHintTimeZone]
        case .dayStartHour: catalog[.settingHintDayStart]
        case .mindfulnessGoal, .workoutGoal: catalog[.settingHintGoal120]
        case .focusGoal: catalog[.settingHintGoal480]
        }
    }

    /// What the setting takes, in English (for `settings set --help`).
    public var hint: String { hint(in: .shared(for: .english)) }
}

/// Why a setting cannot take a value.
public enum SettingValueError: Error, Equatable, Sendable {
    /// The text is not of the setting's form (see ``SettingKey/hint``).
    case unreadable(key: SettingKey, value: String)
    /// The value reads, but the meditation plan it makes is out of bounds.
    case plan(MeditationPlanError)
    /// The value reads, but is outside the setting's bounds (see ``SettingKey/hint``).
    case outOfRange(key: SettingKey, value: String)
}

extension MomentumSettings {
    /// Sets `key` from the text a person typed, checking the result before keeping it.
    public mutating func set(
        _ key: SettingKey, to text: String, ambientCatalog: AmbientCatalog = .builtIn
    ) throws(SettingValueError) {
        var changed = self
        let value = text.trimmingCharacters(in: .whitespaces)
        func unreadable() -> SettingValueError { .unreadable(key: key, value: text) }
        switch key {
        case .meditationDuration:
            guard let duration = DurationText.parse(value, defaultUnit: .minutes) else { throw unreadable() }
            changed.meditation.duration = duration
        case .meditationCountdown:
            guard let duration = DurationText.parse(value, defaultUnit: .seconds) else { throw unreadable() }
            changed.meditation.countdown = duration
        case .meditationInterval:
            guard let gongs = IntervalGongs(parsing: value) else { throw unreadable() }
            changed.meditation.intervalGongs = gongs
        case .meditationReflection:
            guard let duration = DurationText.parse(value, defaultUnit: .minutes) else { throw unreadable() }
            changed.meditation.reflection = duration
        case .meditationAmbient:
            changed.meditation.ambientID = value
            if let sound = ambientCatalog.sound(id: value) { changed.meditation.ambientVolume = sound.defaultVolume }
        case .meditationVolume:
            guard let volume = Double(value) else { throw unreadable() }
            changed.meditation.ambientVolume = volume
        case .meditationOpenEnded:
            guard let flag = Self.flag(value) else { throw unreadable() }
            changed.meditation.isOpenEnded = flag
        case .language:
            if value.lowercased() == "auto" {
                changed.language = nil
            } else {
                guard let language = Language(rawValue: value.lowercased()) else { throw unreadable() }
                changed.language = language
            }
        case .sound:
            guard let flag = Self.flag(value) else { throw unreadable() }
            changed.isSoundOn = flag
        default:
            try changed.progress.set(key, to: value)
        }
        do {
            try changed.meditation.validate(ambientCatalog: ambientCatalog)
        } catch {
            throw .plan(error)
        }
        self = changed
    }

    /// The value of `key` in the form ``set(_:to:ambientCatalog:)`` reads back.
    public func text(for key: SettingKey) -> String {
        switch key {
        case .meditationDuration: DurationText.minutesText(meditation.duration)
        case .meditationCountdown: "\(meditation.countdown.inSeconds.formatted())"
        case .meditationInterval: meditation.intervalGongs.text
        case .meditationReflection: DurationText.minutesText(meditation.reflection)
        case .meditationAmbient: meditation.ambientID
        case .meditationVolume: "\(meditation.ambientVolume)"
        case .meditationOpenEnded: meditation.isOpenEnded ? "on" : "off"
        case .language: language?.rawValue ?? "auto"
        case .sound: isSoundOn ? "on" : "off"
        case .timeZone: progress.timeZoneIdentifier ?? "auto"
        case .dayStartHour: "\(progress.dayStartHour)"
        case .jokers: progress.jokersEnabled ? "on" : "off"
        case .hideStreaks: progress.hideStreaks ? "on" : "off"
        case .mindfulnessGoal: "\(progress.goal(for: .mindfulness) ?? 0)"
        case .workoutGoal: "\(progress.goal(for: .workout) ?? 0)"
        case .focusGoal: "\(progress.goal(for: .focus) ?? 0)"
        }
    }

    static func flag(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "on", "true", "yes", "1": true
        case "off", "false", "no", "0": false
        default: nil
        }
    }
}

private extension Double {
    /// `15` for whole numbers, `2.5` otherwise.
    func formatted() -> String { self == rounded() ? String(Int(self)) : String(self) }
}

import Foundation

// The settings as a backup writes them. Decoding checks every value against the same bounds the
// command line and the browser use, and names the one that is wrong.
extension MomentumSettings: Codable {
    private enum CodingKeys: String, CodingKey {
        case meditation, language, sound, affirmationRotation, progress, reminders
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        if let plan = try container.decodeIfPresent(MeditationPlan.self, forKey: .meditation) {
            do {
                try plan.validate()
            } catch {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: container.codingPath + [CodingKeys.meditation],
                        debugDescription: "not a valid meditation plan (\(error))", underlyingError: error))
            }
            meditation = plan
        }
        language = try container.decodeIfPresent(Language.self, forKey: .language)
        isSoundOn = try container.decodeIfPresent(Bool.self, forKey: .sound) ?? isSoundOn
        affirmationRotation = try container.decodeIfPresent(Int.self, forKey: .affirmationRotation) ?? 0
        if let progress = try container.decodeIfPresent(ProgressSettings.self, forKey: .progress) {
            if let problem = progress.problem {
                throw DecodingError.dataCorruptedError(forKey: .progress, in: container, debugDescription: problem)
            }
            self.progress = progress
        }
        // Validated while decoding; older backups without the key get the defaults.
        reminders = try container.decodeIfPresent(ReminderSettings.self, forKey: .reminders) ?? ReminderSettings()
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(meditation, forKey: .meditation)
        try container.encodeIfPresent(language, forKey: .language)
        try container.encode(isSoundOn, forKey: .sound)
        try container.encode(affirmationRotation, forKey: .affirmationRotation)
        try container.encode(progress, forKey: .progress)
        try container.encode(reminders, forKey: .reminders)
    }
}

extension ProgressSettings {
    /// What is out of bounds, if anything (for values that did not come through ``set(_:to:)``).
    var problem: String? {
        if let identifier = timeZoneIdentifier, TimeZone(identifier: identifier) == nil {
            return "unknown time zone \(identifier)"
        }
        if !DayCalendar.dayStartHours.contains(dayStartHour) { return "day start hour \(dayStartHour) is not 0–6" }
        for (category, goal) in goals.sorted(by: { $0.key.rawValue < $1.key.rawValue })
        where !Self.goalBounds.contains(goal) {
            return "goal for \(category.rawValue) \(goal) is not 1–120"
        }
        return nil
    }
}

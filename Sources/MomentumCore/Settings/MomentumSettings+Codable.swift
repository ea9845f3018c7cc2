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
            if let refusal = progress.refusal {
                // The path names the refused field, so a front end shows the message next to it.
                let path = refusal.field.split(separator: ".").dropFirst().map { FieldKey(stringValue: String($0)) }
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: container.codingPath + [CodingKeys.progress] + path,
                        debugDescription: refusal.message(in: .shared(for: .english)), underlyingError: refusal))
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

/// A key of a path named in text (`goals.focus`).
struct FieldKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

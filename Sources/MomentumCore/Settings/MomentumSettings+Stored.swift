import Foundation

/// How settings are kept in a database: a few keys, each holding JSON text.
extension MomentumSettings {
    fileprivate enum StoredKey {
        static let meditation = "meditation.plan"
        static let language = "language"
        static let sound = "sound"
        static let affirmationRotation = "meditation.affirmationRotation"
        static let progress = "progress"
        static let reminders = "reminders"
    }

    /// Settings from stored JSON values; a value that does not decode keeps its default.
    public init(storedValues values: [String: String]) {
        self.init()
        let decoder = JSONDecoder()
        func decode<T: Decodable>(_ type: T.Type, _ key: String) -> T? {
            // try?: a value this version cannot read (written by a newer Momentum, or a database
            // edited by hand) keeps its default, as documented above; a backup's values are
            // checked before they are stored (storedValueProblem below).
            values[key].flatMap { try? decoder.decode(T.self, from: Data($0.utf8)) }
        }
        if let plan = decode(MeditationPlan.self, StoredKey.meditation) { meditation = plan }
        if let code = decode(String.self, StoredKey.language) { language = Language(rawValue: code) }
        if let sound = decode(Bool.self, StoredKey.sound) { isSoundOn = sound }
        if let rotation = decode(Int.self, StoredKey.affirmationRotation) { affirmationRotation = rotation }
        if let progress = decode(ProgressSettings.self, StoredKey.progress) { self.progress = progress }
        if let reminders = decode(ReminderSettings.self, StoredKey.reminders) { self.reminders = reminders }
    }

    /// The settings as stored JSON values.
    public var storedValues: [String: String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func encode<T: Encodable>(_ value: T) -> String {
            do {
                return String(decoding: try encoder.encode(value), as: UTF8.self)
            } catch {
                // JSONEncoder refuses only non-finite numbers. The settings' one number that is
                // not an integer is the meditation's ambient volume, kept within 0…1 by set(_:to:)
                // and MeditationPlan.validate; decoded JSON has no NaN or infinity. "null" in its
                // place would have reset the setting at the next load.
                preconditionFailure("a setting JSON cannot hold: \(error)")
            }
        }
        return [
            StoredKey.meditation: encode(meditation),
            StoredKey.language: encode(language?.rawValue),
            StoredKey.sound: encode(isSoundOn),
            StoredKey.affirmationRotation: encode(affirmationRotation),
            StoredKey.progress: encode(progress),
            StoredKey.reminders: encode(reminders),
        ]
    }
}

extension MomentumSettings {
    /// Every key a setting row may have: the settings above and the Morse course's own two.
    public static let storedKeys: Set<String> = [
        StoredKey.meditation, StoredKey.language, StoredKey.sound, StoredKey.affirmationRotation, StoredKey.progress,
        StoredKey.reminders, morseCourseKey, morseCallSignKey,
    ]
    /// The Morse course's settings (``MorseCourseSettings`` as JSON).
    public static let morseCourseKey = "morse.course"
    /// The person's call sign for QSO practice (a JSON string, or `null`).
    public static let morseCallSignKey = "morse.callSign"

    /// Why a stored setting (from a backup) cannot be kept, or `nil` when it reads as the
    /// setting it names: an unknown key, or JSON that is not that setting's value.
    public static func storedValueProblem(key: String, value: String) -> String? {
        let decoder = JSONDecoder()
        let data = Data(value.utf8)
        // try?: a value that does not decode is the problem this function reports.
        func reads<T: Decodable>(_ type: T.Type) -> Bool { (try? decoder.decode(T.self, from: data)) != nil }
        guard storedKeys.contains(key) else { return "\(key) is not a setting" }
        let readable: Bool =
            switch key {
            case StoredKey.meditation: reads(MeditationPlan.self)
            case StoredKey.language:
                // try?: not JSON text or null: reported below as not a valid value.
                (try? decoder.decode(String?.self, from: data)).map { $0.map { Language(rawValue: $0) != nil } ?? true }
                    ?? false
            case StoredKey.sound: reads(Bool.self)
            case StoredKey.affirmationRotation: reads(Int.self)
            case StoredKey.progress: reads(ProgressSettings.self)
            case StoredKey.reminders: reads(ReminderSettings.self)
            case morseCourseKey: reads(MorseCourseSettings.self)
            case morseCallSignKey:
                // try?: not JSON text or null, or text that is no call sign: reported below.
                (try? decoder.decode(String?.self, from: data)).map { $0.map { (try? CallSign($0)) != nil } ?? true }
                    ?? false
            default: false
            }
        return readable ? nil : "\(key) does not hold a valid value"
    }
}

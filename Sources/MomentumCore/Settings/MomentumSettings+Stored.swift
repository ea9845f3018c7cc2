import Foundation

/// How settings are kept in a database: a few keys, each holding JSON text.
extension MomentumSettings {
    private enum StoredKey {
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
            (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
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

import Foundation

// The stored form:
//
//     {"kinds": {"practiceDue": true, "streak": false, …},
//      "quietHours": {"start": "22:00", "end": "08:00"},
//      "preferredTime": "09:00",
//      "daily": [{"id": "1", "time": "07:30", "weekdays": ["mon", "fri"], "category": "mindfulness"}]}
//
// Every key may be missing (it keeps its default, so older files read); a value that is present
// must be valid, and the error names it.
extension ReminderSettings: Codable {
    private enum CodingKeys: String, CodingKey {
        case kinds, quietHours, preferredTime, daily
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var kindsOff: Set<ReminderKind> = []
        for (name, isOn) in try container.decodeIfPresent([String: Bool].self, forKey: .kinds) ?? [:] {
            guard let kind = ReminderKind(rawValue: name) else {
                throw Self.refusal(.unknownKind(name), at: container.codingPath + [CodingKeys.kinds])
            }
            if !isOn { kindsOff.insert(kind) }
        }
        let daily = try container.decodeIfPresent([DailyReminder].self, forKey: .daily) ?? []
        do {
            try self.init(
                kindsOff: kindsOff,
                quietHours: try container.decodeIfPresent(QuietHours.self, forKey: .quietHours) ?? .standard,
                preferredTime: try container.decodeIfPresent(TimeOfDay.self, forKey: .preferredTime)
                    ?? Self.defaultPreferredTime,
                dailyReminders: daily)
        } catch let error as ReminderSettingsError {
            throw Self.refusal(error, at: container.codingPath + [CodingKeys.daily] + Self.path(of: error, in: daily))
        }
    }

    /// Where in the daily list `error` lies: the reminder it names (and its weekdays when it has
    /// none), so a front end shows the message next to it.
    private static func path(of error: ReminderSettingsError, in daily: [DailyReminder]) -> [any CodingKey] {
        let named: (id: String, field: String?)? =
            switch error {
            case .noWeekdays(let id): (id, "weekdays")
            case .duplicateDailyID(let id), .invalidDailyID(let id): (id, nil)
            default: nil
            }
        guard let named, let index = daily.lastIndex(where: { $0.id == named.id }) else { return [] }
        return [FieldKey(intValue: index)] + (named.field.map { [FieldKey(stringValue: $0)] } ?? [])
    }

    /// A refused value as a decoding error that carries the typed error, so a front end can show
    /// its localized message instead of the English description.
    private static func refusal(_ error: ReminderSettingsError, at codingPath: [any CodingKey]) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: error.description, underlyingError: error))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let kinds = Dictionary(uniqueKeysWithValues: ReminderKind.allCases.map { ($0.rawValue, isOn($0)) })
        try container.encode(kinds, forKey: .kinds)
        try container.encode(quietHours, forKey: .quietHours)
        try container.encode(preferredTime, forKey: .preferredTime)
        try container.encode(dailyReminders, forKey: .daily)
    }
}

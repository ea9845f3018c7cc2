import Foundation

/// One of the person's own reminders: a time of day, the weekdays it sounds on and the category
/// it is for ("mindfulness at 07:30 on workdays").
public struct DailyReminder: Sendable, Hashable, Identifiable {
    /// Names the reminder in its planned id (`daily.<id>`) and for removing it.
    public let id: String
    public let time: TimeOfDay
    /// Never empty.
    public let weekdays: Set<Weekday>
    public let category: PracticeCategory

    public static let idLengths = 1...32

    public init(id: String, time: TimeOfDay, weekdays: Set<Weekday>, category: PracticeCategory)
        throws(ReminderSettingsError)
    {
        guard Self.isValidID(id) else { throw .invalidDailyID(id) }
        guard !weekdays.isEmpty else { throw .noWeekdays(dailyID: id) }
        self.id = id
        self.time = time
        self.weekdays = weekdays
        self.category = category
    }

    /// Ids go into calendar-feed UIDs and command lines, so they keep to a plain alphabet.
    static func isValidID(_ id: String) -> Bool {
        idLengths.contains(id.count)
            && id.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
            }
    }
}

extension DailyReminder: Codable {
    private enum CodingKeys: String, CodingKey { case id, time, weekdays, category }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .id)
        let time = try container.decode(TimeOfDay.self, forKey: .time)
        let weekdays = try container.decode([Weekday].self, forKey: .weekdays)
        let categoryText = try container.decode(String.self, forKey: .category)
        do {
            try self.init(
                id: id, time: time, weekdays: Set(weekdays), category: try PracticeCategory(parsing: categoryText))
        } catch {
            // The path names the refused field, so a front end shows the message next to it.
            let field: [CodingKeys] =
                switch error {
                case .noWeekdays: [.weekdays]
                case .unknownCategory: [.category]
                default: [.id]
                }
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath + field, debugDescription: error.description,
                    underlyingError: error))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(time, forKey: .time)
        try container.encode(weekdays.sorted(), forKey: .weekdays)
        try container.encode(category.rawValue, forKey: .category)
    }
}

extension PracticeCategory {
    /// Reads a category's name (`mindfulness`, `workout`, `morse`, `focus`), in any case.
    public init(parsing text: String) throws(ReminderSettingsError) {
        guard let category = PracticeCategory(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased())
        else { throw .unknownCategory(text) }
        self = category
    }
}

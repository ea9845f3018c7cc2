import Foundation

// The wire form of a planned reminder, as `momentum remind --json` and the API answer it: the
// texts in one language, the kind and category as their stored names, and `category` and
// `movedFrom` always present (`null` when there is none), so a client never guesses.

extension PlannedReminder {
    public struct JSONForm: Codable, Sendable, Equatable {
        public var id: String
        public var occurrenceID: String
        public var kind: ReminderKind
        /// `null` for welcome back, which invites to any practice.
        public var category: PracticeCategory?
        public var fireAt: Date
        public var title: String
        public var body: String
        /// The first planned instant when the anti-nag policy moved the reminder, else `null`.
        public var movedFrom: Date?
        /// Why and how far it was moved, in the same language ("Quiet hours 22:00–08:00 move this
        /// reminder from 22:30 to 08:00 the next day."), else `null`.
        public var movedText: String?

        public init(
            id: String, occurrenceID: String, kind: ReminderKind, category: PracticeCategory?, fireAt: Date,
            title: String, body: String, movedFrom: Date?, movedText: String? = nil
        ) {
            self.id = id
            self.occurrenceID = occurrenceID
            self.kind = kind
            self.category = category
            self.fireAt = fireAt
            self.title = title
            self.body = body
            self.movedFrom = movedFrom
            self.movedText = movedText
        }

        private enum CodingKeys: String, CodingKey {
            case id, occurrenceID, kind, category, fireAt, title, body, movedFrom, movedText
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(occurrenceID, forKey: .occurrenceID)
            try container.encode(kind, forKey: .kind)
            // Written as `null` rather than left out: the key is part of the form.
            try container.encode(category, forKey: .category)
            try container.encode(fireAt, forKey: .fireAt)
            try container.encode(title, forKey: .title)
            try container.encode(body, forKey: .body)
            try container.encode(movedFrom, forKey: .movedFrom)
            try container.encode(movedText, forKey: .movedText)
        }
    }

    /// The wire form with the title and body in `language`; with the plan's `quietHours` and
    /// `timeZone`, also the sentence that says why it was moved.
    public func jsonForm(in language: Language, quietHours: QuietHours? = nil, timeZone: TimeZone? = nil) -> JSONForm {
        let catalog = StringCatalog.shared(for: language)
        let movedText = quietHours.flatMap { quiet in
            timeZone.flatMap { moveSentence(quietHours: quiet, timeZone: $0, language: language) }
        }
        return JSONForm(
            id: id, occurrenceID: occurrenceID, kind: kind, category: category, fireAt: fireAt,
            title: catalog.text(title), body: catalog.text(body), movedFrom: movedFrom, movedText: movedText)
    }
}

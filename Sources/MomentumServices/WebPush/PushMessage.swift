import Foundation
import MomentumCore

/// What a push carries: the notification the service worker shows (`sw.js`, its `push` handler),
/// in the person's language. Every push shows one — browsers revoke subscriptions whose pushes
/// show nothing.
public struct PushMessage: Codable, Sendable, Equatable {
    public struct Action: Codable, Sendable, Equatable {
        /// `start` (open the practice ready to start), or a tracker's `yes` / `no`.
        public var action: String
        public var title: String
    }

    /// What the service worker records when a tracker's question is answered from its actions.
    public struct Answer: Codable, Sendable, Equatable {
        /// The API path the answer is `PUT` to: `/api/v1/trackers/{id}/days/{YYYY-MM-DD}`.
        public var path: String
    }

    /// `reminder`, `tracker` or `test`.
    public var kind: String
    public var title: String
    public var body: String
    /// The notification's tag: a newer one of the same tag replaces it on the device. A reminder's
    /// is its occurrence, as the open page's own notifier tags it, so the two never both show.
    public var tag: String
    /// Where tapping it goes: a deep link of the web app, relative to the server.
    public var url: String
    public var actions: [Action]
    /// The reminder's instant (milliseconds since 1970), for the notification's timestamp.
    public var timestamp: Int64
    /// A tracker's question: where its Yes or No is recorded.
    public var answer: Answer?

    /// The notification of `reminder` in `language`.
    public init(reminder: PlannedReminder, language: Language) {
        let catalog = StringCatalog.shared(for: language)
        kind = "reminder"
        title = catalog.text(reminder.title)
        body = catalog.text(reminder.body)
        tag = reminder.occurrenceID
        url = Self.link(to: reminder.category)
        actions = [Action(action: "start", title: catalog[.pushActionStart])]
        timestamp = reminder.fireAt.millisecondsSince1970
    }

    /// The question of `tracker` about `question`'s day, asked on `today`, with Yes and No.
    public init(question: TrackerQuestion, tracker: Tracker, today: Day, language: Language) {
        let catalog = StringCatalog.shared(for: language)
        kind = "tracker"
        title = TrackerView.question(tracker.name, day: question.day, today: today, catalog: catalog)
        body = catalog[.pushTrackerBody]
        tag = question.occurrenceID
        url = "/#progress"
        actions = [
            Action(action: "yes", title: catalog[.pushActionYes]), Action(action: "no", title: catalog[.pushActionNo]),
        ]
        timestamp = question.askAt.millisecondsSince1970
        answer = Answer(path: "/api/v1/trackers/\(tracker.id.uuidString.lowercased())/days/\(question.day)")
    }

    /// The test notification `momentum push test` and Settings' button send to `device`.
    public init(testFor device: String, language: Language, at now: Date) {
        let catalog = StringCatalog.shared(for: language)
        kind = "test"
        title = catalog[.pushTestTitle]
        body = catalog.text(LocalizedText(.pushTestBody, ["device": device]))
        tag = "test"
        url = "/#settings"
        actions = []
        timestamp = now.millisecondsSince1970
    }

    /// The JSON the service worker reads (keys sorted, so equal messages are equal bytes).
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // try?: strings, numbers and arrays of them always encode.
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }

    /// The web app's section for a practice (the start page for welcome back, which invites to any).
    static func link(to category: PracticeCategory?) -> String {
        switch category {
        case .mindfulness: "/#meditate"
        case .workout: "/#workout"
        case .morse: "/#morse"
        case .focus: "/#timers"
        case nil: "/"
        }
    }
}

import Foundation
import MomentumCore

/// A quiet daily tracker as stored: its hour as minutes since midnight.
public struct TrackerRow: Codable, Sendable, Equatable {
    /// The table SQLite keeps these rows in, and their kind's name in errors.
    public static let tableName = "tracker"
    public var id: String
    public var name: String
    public var askMinute: Int
    public var about: String
    public var createdAtMs: Int64
    public var updatedAtMs: Int64

    public init(id: String, name: String, askMinute: Int, about: String, createdAtMs: Int64, updatedAtMs: Int64) {
        (self.id, self.name, self.askMinute, self.about) = (id, name, askMinute, about)
        (self.createdAtMs, self.updatedAtMs) = (createdAtMs, updatedAtMs)
    }

    public init(_ tracker: Tracker, at now: Date) {
        id = tracker.id.uuidString.lowercased()
        name = tracker.name
        askMinute = tracker.askAt.minutesSinceMidnight
        about = tracker.about.rawValue
        createdAtMs = tracker.createdAt.millisecondsSince1970
        updatedAtMs = now.millisecondsSince1970
    }

    public func tracker() throws(StoreError) -> Tracker {
        func corrupt(_ reason: String) -> StoreError { .corruptRow(table: Self.tableName, id: id, reason: reason) }
        guard let uuid = UUID(uuidString: id) else { throw corrupt("id is not a UUID") }
        let askAt: TimeOfDay
        do {
            guard (0..<1440).contains(askMinute) else { throw TimeOfDayError.hourOutOfRange("\(askMinute / 60)") }
            askAt = try TimeOfDay(hour: askMinute / 60, minute: askMinute % 60)
        } catch {
            throw corrupt("askMinute \(askMinute) is not a time of day")
        }
        guard let about = Tracker.About(rawValue: about) else { throw corrupt("about is \(about)") }
        do {
            return try Tracker(
                id: uuid, name: name, askAt: askAt, about: about, createdAt: Date(millisecondsSince1970: createdAtMs))
        } catch {
            throw corrupt("\(error)")
        }
    }
}

/// One answered day of a tracker as stored: the day as `YYYY-MM-DD`.
public struct TrackerDayRow: Codable, Sendable, Equatable {
    /// The table SQLite keeps these rows in, and their kind's name in errors.
    public static let tableName = "trackerDay"
    public var id: String
    public var trackerId: String
    public var day: String
    public var answer: Bool
    public var answeredAtMs: Int64

    public init(id: String, trackerId: String, day: String, answer: Bool, answeredAtMs: Int64) {
        (self.id, self.trackerId, self.day, self.answer, self.answeredAtMs) = (id, trackerId, day, answer, answeredAtMs)
    }

    public init(id: UUID, trackerID: UUID, answer: TrackerAnswer) {
        self.id = id.uuidString.lowercased()
        trackerId = trackerID.uuidString.lowercased()
        day = answer.day.description
        self.answer = answer.answer
        answeredAtMs = answer.answeredAt.millisecondsSince1970
    }

    /// The tracker it belongs to, and its answer.
    public func answered() throws(StoreError) -> (trackerID: UUID, answer: TrackerAnswer) {
        func corrupt(_ reason: String) -> StoreError { .corruptRow(table: Self.tableName, id: id, reason: reason) }
        guard UUID(uuidString: id) != nil else { throw corrupt("id is not a UUID") }
        guard let trackerID = UUID(uuidString: trackerId) else { throw corrupt("trackerId is not a UUID") }
        let parsed: Day
        do { parsed = try Day(parsing: day) } catch { throw corrupt("day \(day) is not a date") }
        guard parsed >= TrackerRules.earliestDay else { throw corrupt("day \(day) is before 2000") }
        return (
            trackerID, TrackerAnswer(day: parsed, answer: answer, answeredAt: Date(millisecondsSince1970: answeredAtMs))
        )
    }
}

import Foundation

/// The hours no reminder sounds in, from `start` up to (not including) `end`, local wall-clock
/// time; they may span midnight (22:00 – 08:00, the default).
///
/// Zero length (start equal to end) is refused: it would mean either "never quiet" or "always
/// quiet", and the person cannot tell which one they get.
public struct QuietHours: Sendable, Hashable, Codable {
    public let start: TimeOfDay
    public let end: TimeOfDay

    public static let standard = QuietHours(validStart: TimeOfDay(validHour: 22), end: TimeOfDay(validHour: 8))

    public init(start: TimeOfDay, end: TimeOfDay) throws(ReminderSettingsError) {
        guard start != end else { throw .quietHoursZeroLength(start: start, end: end) }
        self.init(validStart: start, end: end)
    }

    private init(validStart start: TimeOfDay, end: TimeOfDay) {
        self.start = start
        self.end = end
    }

    /// Whether a wall-clock time lies inside the quiet hours.
    public func contains(_ time: TimeOfDay) -> Bool {
        if start < end { return start <= time && time < end }
        return time >= start || time < end
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let start = try container.decode(TimeOfDay.self, forKey: .start)
        let end = try container.decode(TimeOfDay.self, forKey: .end)
        do {
            try self.init(start: start, end: end)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath, debugDescription: error.description, underlyingError: error))
        }
    }

    private enum CodingKeys: String, CodingKey { case start, end }
}

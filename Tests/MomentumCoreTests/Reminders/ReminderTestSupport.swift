import Foundation
import Testing

@testable import MomentumCore

/// Wall-clock instants and ready-made inputs for reminder tests. "Today" is Monday 2026-11-23 in
/// Berlin unless a test says otherwise.
enum ReminderClock {
    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt
    static let newYork = TimeZone(identifier: "America/New_York") ?? .gmt

    /// The instant `text` (`YYYY-MM-DD HH:MM`, or `HH:MM` on 2026-11-23) shows in `zone`.
    static func at(_ text: String, in zone: TimeZone = berlin) throws -> Date {
        let full = text.count <= 5 ? "2026-11-23 \(text)" : text
        let parts = full.split(separator: " ")
        try #require(parts.count == 2)
        let day = try Day(parsing: String(parts[0]))
        let time = try TimeOfDay(parsing: String(parts[1]))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(
            year: day.year, month: day.month, day: day.dayOfMonth, hour: time.hour, minute: time.minute)
        return try #require(calendar.date(from: components))
    }

    /// `instant` as `YYYY-MM-DD HH:MM` in `zone`, for readable expectations.
    static func text(_ instant: Date, in zone: TimeZone = berlin) -> String {
        let clock = LocalClock(timeZone: zone)
        return "\(clock.day(of: instant)) \(clock.time(of: instant))"
    }

    /// Inputs at `now` in Berlin with every kind on and nothing else.
    static func inputs(
        now: String, in zone: TimeZone = berlin, settings: ReminderSettings = ReminderSettings()
    ) throws -> ReminderInputs {
        ReminderInputs(now: try at(now, in: zone), timeZone: zone, settings: settings)
    }

    /// Settings with only `kinds` on.
    static func only(_ kinds: ReminderKind..., from settings: ReminderSettings = ReminderSettings()) -> ReminderSettings
    {
        ReminderKind.allCases.reduce(settings) { $0.setting(kind: $1, on: kinds.contains($1)) }
    }
}

extension [PlannedReminder] {
    /// Each reminder as `id @ YYYY-MM-DD HH:MM` in `zone`, in plan order.
    func lines(in zone: TimeZone = ReminderClock.berlin) -> [String] {
        map { "\($0.id) @ \(ReminderClock.text($0.fireAt, in: zone))" }
    }
}

import Foundation

/// The stretch of time an instant from outside must lie in, around the (injected) now.
///
/// A run before 1970 or in the year 9999 is a typing mistake or an attack, and such instants
/// break what is built on them (sync stamps count milliseconds from 1970), so they are refused
/// where they come in.
///
/// ```swift
/// try InstantWindow.run(around: now).check(startedAt, field: "at")
/// try InstantWindow.record(now: now).check(record.start, field: "start")
/// ```
public struct InstantWindow: Sendable, Equatable {
    public var earliest: Date
    public var latest: Date

    public init(earliest: Date, latest: Date) {
        self.earliest = earliest
        self.latest = latest
    }

    /// How far from now the clocks of the person's devices may reasonably be.
    public static let slack: TimeInterval = 24 * 3600

    /// A run starts, pauses, resumes and stops within a day of now, either way.
    public static func run(around now: Date) -> InstantWindow {
        InstantWindow(earliest: now.addingTimeInterval(-slack), latest: now.addingTimeInterval(slack))
    }

    /// Practice records and sync stamps lie between 1970-01-01T00:00:00Z and a day after now.
    public static func record(now: Date) -> InstantWindow {
        InstantWindow(earliest: Date(timeIntervalSince1970: 0), latest: now.addingTimeInterval(slack))
    }

    public func contains(_ instant: Date) -> Bool { instant >= earliest && instant <= latest }

    /// Refuses `instant` when it lies outside; `field` names it in the message.
    public func check(_ instant: Date, field: String) throws(InstantWindowError) {
        if instant < earliest { throw .tooEarly(field: field, instant: instant, earliest: earliest) }
        if instant > latest { throw .tooLate(field: field, instant: instant, latest: latest) }
    }
}

/// Why an instant from outside cannot be used.
public enum InstantWindowError: Error, Equatable, Sendable {
    case tooEarly(field: String, instant: Date, earliest: Date)
    case tooLate(field: String, instant: Date, latest: Date)
}

import Foundation

/// What the server checks of a practice played away from it — started, paused and stopped on a
/// phone with the server out of reach, and reported when it is reachable again (docs/offline.md)
/// — before it replays the report's steps through the practice's own run and logs it by the one
/// rule of every run (``PracticeOutcome``, ``MeditationSit``). The report's id, made on the device,
/// becomes the logged record's id, so a report sent twice is logged once.
public enum RunReportRules {
    /// How long after its practice a report is still accepted: a month away from home.
    public static let maximumAge: TimeInterval = 30 * 24 * 3600

    /// The most steps (start, pauses, resumes, stop) one report may hold.
    public static let maximumSteps = 1000

    /// A report's instants lie within ``maximumAge`` before now and a day after it (a device's
    /// clock may be off by that much, as for every run, ``InstantWindow/slack``).
    public static func window(around now: Date) -> InstantWindow {
        InstantWindow(
            earliest: now.addingTimeInterval(-maximumAge), latest: now.addingTimeInterval(InstantWindow.slack))
    }

    /// Refuses a report whose instants lie outside ``window(around:)``: played too long ago, or
    /// (a device's clock far off) in the future.
    public static func check(instants: [Date], now: Date) throws(RunReportError) {
        let window = window(around: now)
        for instant in instants where !window.contains(instant) {
            if instant < window.earliest { throw .tooOld(maximumDays: Int(maximumAge / 86_400)) }
            throw .inTheFuture
        }
    }

    /// Refuses a report with more steps than a practice can have had.
    public static func check(stepCount: Int) throws(RunReportError) {
        if stepCount > maximumSteps { throw .tooManySteps(count: stepCount, maximum: maximumSteps) }
    }

    /// Refuses steps out of order: each must come at or after the one before it (a stop too,
    /// which a run itself checks only against its start).
    public static func checkOrder(_ instants: [Date]) throws(TimelineRunError) {
        for (earlier, later) in zip(instants, instants.dropFirst()) where later < earlier {
            throw .instantBeforeStart
        }
    }

    /// The instant a replayed report ended: its stop, else its timeline's end when that has come
    /// by `now` (a practice that played to its end needs no stop). A report that neither stopped
    /// nor played to its end — an open-ended sit not stopped, a practice still going — is refused.
    public static func end<Instant>(of run: TimelineRun<Instant>, now: Instant) throws(RunReportError) -> Instant
    where Instant: InstantProtocol & Sendable, Instant.Duration == Duration {
        if let stoppedAt = run.stoppedAt { return stoppedAt }
        if let end = run.endInstant, run.isCompleted(at: now) { return end }
        throw .notEnded
    }
}

/// Why a run report is refused before its steps are replayed.
public enum RunReportError: Error, Equatable, Sendable {
    case tooManySteps(count: Int, maximum: Int)
    /// Played longer ago than ``RunReportRules/maximumAge``.
    case tooOld(maximumDays: Int)
    /// Its instants lie more than a day ahead of the server's clock.
    case inTheFuture
    /// The practice neither stopped nor played to its end.
    case notEnded
}

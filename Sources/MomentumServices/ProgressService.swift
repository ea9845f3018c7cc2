import Foundation
import MomentumCore
import MomentumStoreContract
import Synchronization

/// Builds the progress report (calendar, streaks, strength, statistics) from the stored log.
public struct ProgressService: Sendable {
    private let log: any PracticeLogRepository
    private let settings: SettingsService
    public let systemTimeZone: TimeZone
    private let now: @Sendable () -> Date
    private let cache = ProgressCache()

    public init(
        log: any PracticeLogRepository, settings: SettingsService, systemTimeZone: TimeZone,
        now: @escaping @Sendable () -> Date
    ) {
        self.log = log
        self.settings = settings
        self.systemTimeZone = systemTimeZone
        self.now = now
    }

    /// Which day an instant counts for, by the person's `progress.time-zone` and day start: what
    /// the report, the log's `day` and every front end go by.
    public func dayCalendar() async throws(StoreError) -> DayCalendar {
        try await settings.load().progress.dayCalendar(systemTimeZone: systemTimeZone)
    }

    /// The first instant of the log's "recent" list: the start of the day
    /// ``PracticeRecord/recentDays`` − 1 days before today, as ``dayCalendar()`` counts days.
    public func recentSince() async throws(StoreError) -> Date {
        let calendar = try await dayCalendar()
        return calendar.start(of: calendar.day(of: now()).adding(days: -(PracticeRecord.recentDays - 1)))
    }

    /// The report as of now, from every record.
    ///
    /// The report is kept while the store's revision and the day stay the same, so the server
    /// answers streak and calendar requests without reading 20 years of log each time; any write
    /// to the log or the settings, from any process, makes the next call read again.
    public func report() async throws(StoreError) -> ProgressReport {
        try await revisedReport().report
    }

    /// The report as of `instant` (a front end's reported instant), from every record.
    public func report(at instant: Date) async throws(StoreError) -> ProgressReport {
        try await revisedReport(at: instant).report
    }

    /// The report with the store revision it reflects, for callers that keep what they derive
    /// from it (the server keeps its encoded answers while revision and day stay the same).
    public func revisedReport(at reported: Date? = nil) async throws(StoreError) -> (
        revision: Int64, report: ProgressReport
    ) {
        let revision = try await log.logRevision()
        let instant = reported ?? now()
        if let cached = cache.report(revision: revision, now: instant) {
            return (revision, cached)
        }
        let progress = try await settings.load().progress
        let entries = try await log.practiceEntries()
        let report = ProgressReport(entries: entries, settings: progress, systemTimeZone: systemTimeZone, now: instant)
        cache.keep(report, revision: revision, systemTimeZone: systemTimeZone)
        return (revision, report)
    }
}

/// The last progress report and the store revision it was computed at; shared by copies of the
/// service, safe across threads. It also keeps the instants its day runs between, so checking
/// whether now still falls on that day is two comparisons, not a calendar computation (this runs
/// on every streak and calendar request).
final class ProgressCache: Sendable {
    private struct Kept {
        var revision: Int64
        var report: ProgressReport
        var day: Range<Date>
    }

    private let last = Mutex<Kept?>(nil)

    /// The kept report, if it was computed at `revision` and `now` falls on its day.
    func report(revision: Int64, now: Date) -> ProgressReport? {
        guard let last = last.withLock({ $0 }), last.revision == revision, last.day.contains(now) else { return nil }
        return last.report
    }

    func keep(_ report: ProgressReport, revision: Int64, systemTimeZone: TimeZone) {
        let calendar = report.settings.dayCalendar(systemTimeZone: systemTimeZone)
        let day = calendar.start(of: report.today)..<calendar.start(of: Day(number: report.today.number + 1))
        last.withLock { $0 = Kept(revision: revision, report: report, day: day) }
    }
}

import Foundation
import MomentumCore
import MomentumStore
import Synchronization

/// Builds the progress report (calendar, streaks, strength, statistics) from the stored log.
public struct ProgressService: Sendable {
    private let log: any PracticeLogRepository
    private let settings: SettingsService
    private let systemTimeZone: TimeZone
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

    /// The report as of now, from every record.
    ///
    /// The report is kept while the store's revision and the day stay the same, so the server
    /// answers streak and calendar requests without reading 20 years of log each time; any write
    /// to the log or the settings, from any process, makes the next call read again.
    public func report() throws(StoreError) -> ProgressReport {
        try revisedReport().report
    }

    /// The report with the store revision it reflects, for callers that keep what they derive
    /// from it (the server keeps its encoded answers while revision and day stay the same).
    public func revisedReport() throws(StoreError) -> (revision: Int64, report: ProgressReport) {
        let revision = try log.logRevision()
        let instant = now()
        if let cached = cache.report(revision: revision, systemTimeZone: systemTimeZone, now: instant) {
            return (revision, cached)
        }
        let progress = try settings.load().progress
        let entries = try log.practiceEntries()
        let report = ProgressReport(entries: entries, settings: progress, systemTimeZone: systemTimeZone, now: instant)
        cache.keep(report, revision: revision)
        return (revision, report)
    }
}

/// The last progress report and the store revision it was computed at; shared by copies of the
/// service, safe across threads.
final class ProgressCache: Sendable {
    private let last = Mutex<(revision: Int64, report: ProgressReport)?>(nil)

    /// The kept report, if it was computed at `revision` and `now` falls on its day.
    func report(revision: Int64, systemTimeZone: TimeZone, now: Date) -> ProgressReport? {
        guard let last = last.withLock({ $0 }), last.revision == revision else { return nil }
        let today = last.report.settings.dayCalendar(systemTimeZone: systemTimeZone).day(of: now)
        return today == last.report.today ? last.report : nil
    }

    func keep(_ report: ProgressReport, revision: Int64) {
        last.withLock { $0 = (revision, report) }
    }
}

import Foundation
import MomentumCore
import MomentumStore

/// Builds the progress report (calendar, streaks, strength, statistics) from the stored log.
public struct ProgressService: Sendable {
    private let log: any PracticeLogRepository
    private let settings: SettingsService
    private let systemTimeZone: TimeZone
    private let now: @Sendable () -> Date

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
    public func report() throws(StoreError) -> ProgressReport {
        let progress = try settings.load().progress
        let entries = try log.practiceEntries()
        return ProgressReport(entries: entries, settings: progress, systemTimeZone: systemTimeZone, now: now())
    }
}

import Foundation
import MomentumCore
import MomentumStoreContract

/// Every service wired to one person's data, whichever store keeps it. Which store that is, is
/// decided in one place, MomentumComposition (`MomentumServices.open`), which both front ends use.
public struct MomentumServices: Sendable {
    /// The person's data, whichever store keeps it.
    public let store: any PersonDataStore
    public let settings: SettingsService
    public let meditation: MeditationService
    public let practiceLog: PracticeLogService
    public let progress: ProgressService
    public let exchange: ExchangeService
    public let breathing: BreathingService
    public let meditationPresets: MeditationPresetService
    public let focusTimers: FocusTimerService
    public let workouts: WorkoutService
    public let accessTokens: AccessTokenService
    public let morse: MorseCourseService
    public let reminders: ReminderService
    public let library: LibraryService
    public let sync: SyncService
    public let backup: BackupService
    public let pushSubscriptions: PushSubscriptionService
    public let trackers: TrackerService
    public let handsFree: HandsFreeService

    /// What every person's services are made with, whichever store keeps them.
    package struct Parts {
        var device: String
        var timeZone: TimeZone
        var now: @Sendable () -> Date
        var makeID: @Sendable () -> UUID
        var librarySizeLimit: Int64
        var libraryFileSystem: any LibraryFileSystem
        var libraryDirectory: URL

        package init(
            device: String, timeZone: TimeZone, now: @escaping @Sendable () -> Date,
            makeID: @escaping @Sendable () -> UUID, librarySizeLimit: Int64, libraryFileSystem: any LibraryFileSystem,
            libraryDirectory: URL
        ) {
            (self.device, self.timeZone, self.now, self.makeID) = (device, timeZone, now, makeID)
            (self.librarySizeLimit, self.libraryFileSystem, self.libraryDirectory) =
                (librarySizeLimit, libraryFileSystem, libraryDirectory)
        }
    }

    /// A person's services over `store`; `replica` is the terminal's full replica, which only an
    /// SQLite data directory has (`nil` on PostgreSQL); `backups` is where their backups are
    /// read from and restored into.
    package static func compose(
        store: any PersonDataStore, replica: (any TerminalReplicaStore & SyncLogStore)?,
        backups: any BackupTableStore,
        tokens: any AccessTokenRepository,
        library shared: any SharedLibraryStore, _ parts: Parts
    ) async -> MomentumServices {
        let (device, timeZone, now, makeID) = (parts.device, parts.timeZone, parts.now, parts.makeID)
        let settings = SettingsService(repository: store, now: now)
        let progress = ProgressService(log: store, settings: settings, systemTimeZone: timeZone, now: now)
        let morse = MorseCourseService(
            repository: store, settingValues: store, settings: settings, progressReports: progress,
            now: now, makeID: makeID, device: device)
        let library = LibraryService(
            repository: PersonalLibrary(household: shared, personal: store), log: store,
            directory: parts.libraryDirectory,
            fileSystem: parts.libraryFileSystem, sizeLimit: parts.librarySizeLimit, now: now, makeID: makeID,
            device: device)
        // try?: opening must not fail over housekeeping: a store that cannot be read now removes
        // nothing (the leftovers wait for the next opening), and one that stays unreadable fails
        // the first real use with its error.
        _ = try? await library.removeLeftovers()
        return MomentumServices(
            store: store,
            settings: settings,
            meditation: MeditationService(settings: settings, log: store, now: now, makeID: makeID, device: device),
            practiceLog: PracticeLogService(repository: store, now: now, makeID: makeID, device: device),
            progress: progress,
            exchange: ExchangeService(
                log: store, settings: settings, systemTimeZone: timeZone, now: now, makeID: makeID, device: device),
            breathing: BreathingService(presets: store, log: store, now: now, makeID: makeID, device: device),
            meditationPresets: MeditationPresetService(repository: store, now: now, makeID: makeID),
            focusTimers: FocusTimerService(repository: store, now: now, makeID: makeID, device: device),
            workouts: WorkoutService(programs: store, log: store, now: now, makeID: makeID, device: device),
            accessTokens: AccessTokenService(repository: tokens, now: now, makeID: makeID),
            morse: morse,
            reminders: ReminderService(progress: progress, morse: morse, settings: settings, now: now),
            library: library,
            sync: replica.map { SyncService(replica: $0, now: now) } ?? SyncService(log: store, now: now),
            backup: BackupService(
                database: backups, libraryDirectory: parts.libraryDirectory, fileSystem: parts.libraryFileSystem,
                fileSizeLimit: parts.librarySizeLimit, now: now, makeID: makeID),
            pushSubscriptions: PushSubscriptionService(repository: store, now: now, makeID: makeID),
            trackers: TrackerService(
                repository: store, progress: progress, settings: settings, now: now, makeID: makeID),
            handsFree: HandsFreeService(
                morse: morse, settings: settings, log: store, now: now, makeID: makeID, device: device)
        )
    }
}

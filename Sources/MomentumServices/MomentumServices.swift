import Foundation
import MomentumCore
import MomentumStore

/// Every service wired to one data directory: the composition root both front ends use.
public struct MomentumServices: Sendable {
    public let database: MomentumDatabase
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

    /// Opens the data directory's database and wires the services to the real clock and ids.
    /// A household member's services (see ``HouseholdService``) pass the `household` database,
    /// which keeps the tokens and the library's rows, and the household's `libraryDirectory`.
    public static func open(
        dataDirectory: URL,
        device: String,
        timeZone: TimeZone = .current,
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> UUID = { UUID() },
        librarySizeLimit: Int64 = LibraryService.defaultSizeLimit,
        libraryFileSystem: any LibraryFileSystem = LocalLibraryFileSystem(),
        household: MomentumDatabase? = nil, libraryDirectory: URL? = nil
    ) throws(StoreError) -> MomentumServices {
        let database = try MomentumDatabase.open(directory: dataDirectory, device: device)
        // A household member's services: tokens and the library rows are the household's (the
        // founder's database), their practice is their own.
        let household = household ?? database
        let settings = SettingsService(repository: database, now: now)
        let progress = ProgressService(log: database, settings: settings, systemTimeZone: timeZone, now: now)
        let morse = MorseCourseService(
            repository: database, settingValues: database, settings: settings, progressReports: progress,
            systemTimeZone: timeZone, now: now,
            makeID: makeID, device: device)
        let libraryDirectory =
            libraryDirectory ?? dataDirectory.appendingPathComponent(LibraryService.folderName, isDirectory: true)
        let library = LibraryService(
            repository: PersonalLibrary(household: household, personal: database), log: database,
            directory: libraryDirectory,
            fileSystem: libraryFileSystem, sizeLimit: librarySizeLimit, now: now, makeID: makeID, device: device)
        library.removeLeftovers()
        return MomentumServices(
            database: database,
            settings: settings,
            meditation: MeditationService(settings: settings, log: database, now: now, makeID: makeID, device: device),
            practiceLog: PracticeLogService(repository: database, now: now, makeID: makeID, device: device),
            progress: progress,
            exchange: ExchangeService(
                log: database, settings: settings, systemTimeZone: timeZone, now: now, makeID: makeID, device: device),
            breathing: BreathingService(presets: database, log: database, now: now, makeID: makeID, device: device),
            meditationPresets: MeditationPresetService(repository: database, now: now, makeID: makeID),
            focusTimers: FocusTimerService(repository: database, now: now, makeID: makeID, device: device),
            workouts: WorkoutService(programs: database, log: database, now: now, makeID: makeID, device: device),
            accessTokens: AccessTokenService(repository: household, now: now, makeID: makeID),
            morse: morse,
            reminders: ReminderService(progress: progress, morse: morse, settings: settings, now: now),
            library: library,
            sync: SyncService(database: database, now: now),
            backup: BackupService(
                database: database, libraryDirectory: libraryDirectory, fileSystem: libraryFileSystem,
                fileSizeLimit: librarySizeLimit, now: now, makeID: makeID)
        )
    }
}

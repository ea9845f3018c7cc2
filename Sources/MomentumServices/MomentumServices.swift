import Foundation
import MomentumCore
import MomentumPostgres
import MomentumStore
import MomentumStoreContract

/// Every service wired to one person's data: the composition root both front ends use.
public struct MomentumServices: Sendable {
    /// The person's SQLite database (a data directory); `nil` when they are kept on PostgreSQL.
    public let database: MomentumDatabase?
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
        let parts = Parts(
            device: device, timeZone: timeZone, now: now, makeID: makeID, librarySizeLimit: librarySizeLimit,
            libraryFileSystem: libraryFileSystem,
            libraryDirectory: libraryDirectory
                ?? dataDirectory.appendingPathComponent(LibraryService.folderName, isDirectory: true))
        return compose(store: database, sqlite: database, tokens: household, library: household, parts)
    }

    /// One person's services on PostgreSQL (docs/postgres.md): their data is `store`'s rows with
    /// their `person_id`, the household's tables are `store`'s own, and the library's audio files
    /// are in `libraryDirectory` (a folder every server shares, docs/deploy.md).
    public static func open(
        postgres store: PostgresStore,
        person: Person.ID,
        libraryDirectory: URL,
        device: String,
        timeZone: TimeZone = .current,
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> UUID = { UUID() },
        librarySizeLimit: Int64 = LibraryService.defaultSizeLimit,
        libraryFileSystem: any LibraryFileSystem = LocalLibraryFileSystem()
    ) -> MomentumServices {
        let parts = Parts(
            device: device, timeZone: timeZone, now: now, makeID: makeID, librarySizeLimit: librarySizeLimit,
            libraryFileSystem: libraryFileSystem, libraryDirectory: libraryDirectory)
        return compose(store: store.scoped(to: person), sqlite: nil, tokens: store, library: store, parts)
    }

    /// What every person's services are made with, whichever store keeps them.
    private struct Parts {
        var device: String
        var timeZone: TimeZone
        var now: @Sendable () -> Date
        var makeID: @Sendable () -> UUID
        var librarySizeLimit: Int64
        var libraryFileSystem: any LibraryFileSystem
        var libraryDirectory: URL
    }

    private static func compose(
        store: any PersonDataStore, sqlite: MomentumDatabase?, tokens: any AccessTokenRepository,
        library shared: any SharedLibraryStore, _ parts: Parts
    ) -> MomentumServices {
        let (device, timeZone, now, makeID) = (parts.device, parts.timeZone, parts.now, parts.makeID)
        let settings = SettingsService(repository: store, now: now)
        let progress = ProgressService(log: store, settings: settings, systemTimeZone: timeZone, now: now)
        let morse = MorseCourseService(
            repository: store, settingValues: store, settings: settings, progressReports: progress,
            systemTimeZone: timeZone, now: now,
            makeID: makeID, device: device)
        let library = LibraryService(
            repository: PersonalLibrary(household: shared, personal: store), log: store,
            directory: parts.libraryDirectory,
            fileSystem: parts.libraryFileSystem, sizeLimit: parts.librarySizeLimit, now: now, makeID: makeID,
            device: device)
        library.removeLeftovers()
        return MomentumServices(
            database: sqlite,
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
            sync: sqlite.map { SyncService(replica: $0, now: now) } ?? SyncService(log: store, now: now),
            backup: BackupService(
                database: sqlite, libraryDirectory: parts.libraryDirectory, fileSystem: parts.libraryFileSystem,
                fileSizeLimit: parts.librarySizeLimit, now: now, makeID: makeID)
        )
    }
}

import Foundation
import MomentumCore
import MomentumPostgres
import MomentumServices
import MomentumStore
import MomentumStoreContract

/// The composition root: which store keeps a person's data — an SQLite database in a data
/// directory, or their rows of a PostgreSQL database — is decided here and nowhere else. The
/// terminal and the server both open their services through it (docs/architecture.md).
extension MomentumServices {
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
    ) async throws(StoreError) -> MomentumServices {
        let database = try MomentumDatabase.open(directory: dataDirectory, device: device)
        // A household member's services: tokens and the library rows are the household's (the
        // founder's database), their practice is their own.
        return await compose(
            sqlite: database, household: household ?? database, device: device, timeZone: timeZone, now: now,
            makeID: makeID, librarySizeLimit: librarySizeLimit, libraryFileSystem: libraryFileSystem,
            libraryDirectory: libraryDirectory
                ?? dataDirectory.appendingPathComponent(LibraryService.folderName, isDirectory: true))
    }

    /// A person's services over their open SQLite `database`, with the `household`'s tokens and
    /// library rows.
    static func compose(
        sqlite database: MomentumDatabase, household: MomentumDatabase, device: String, timeZone: TimeZone,
        now: @escaping @Sendable () -> Date, makeID: @escaping @Sendable () -> UUID, librarySizeLimit: Int64,
        libraryFileSystem: any LibraryFileSystem, libraryDirectory: URL
    ) async -> MomentumServices {
        let parts = Parts(
            device: device, timeZone: timeZone, now: now, makeID: makeID, librarySizeLimit: librarySizeLimit,
            libraryFileSystem: libraryFileSystem, libraryDirectory: libraryDirectory)
        return await compose(
            store: database, replica: database, backups: database, tokens: household, library: household, parts)
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
    ) async -> MomentumServices {
        let parts = Parts(
            device: device, timeZone: timeZone, now: now, makeID: makeID, librarySizeLimit: librarySizeLimit,
            libraryFileSystem: libraryFileSystem, libraryDirectory: libraryDirectory)
        let personal = store.scoped(to: person)
        return await compose(store: personal, replica: nil, backups: personal, tokens: store, library: store, parts)
    }
}

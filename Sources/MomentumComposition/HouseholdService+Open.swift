import Foundation
import MomentumCore
import MomentumPostgres
import MomentumServices
import MomentumStore
import MomentumStoreContract

/// A household on either store (docs/people.md, docs/postgres.md): composed here, the one place
/// that knows the stores (docs/architecture.md).
extension HouseholdService {
    /// Opens the data directory's database (writing its founder, named after `login`, the first
    /// time) and wires every person's services the same way.
    public static func open(
        dataDirectory: URL,
        device: String,
        login: String? = ProcessInfo.processInfo.environment["USER"],
        timeZone: TimeZone = .current,
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> UUID = { UUID() },
        makeSecret: @escaping @Sendable () -> String = AccessTokenService.randomSecret,
        librarySizeLimit: Int64 = LibraryService.defaultSizeLimit,
        libraryFileSystem: any LibraryFileSystem = LocalLibraryFileSystem()
    ) async throws(StoreError) -> HouseholdService {
        let household = try MomentumDatabase.open(directory: dataDirectory, device: device)
        let libraryDirectory = dataDirectory.appendingPathComponent(LibraryService.folderName, isDirectory: true)
        let founder = await MomentumServices.compose(
            sqlite: household, household: household, device: device, timeZone: timeZone, now: now, makeID: makeID,
            librarySizeLimit: librarySizeLimit, libraryFileSystem: libraryFileSystem,
            libraryDirectory: libraryDirectory)
        _ = try household.ensureFounder(named: PersonName.founder(login: login), at: now())
        return HouseholdService(
            dataDirectory: dataDirectory, founder: founder, store: household, now: now, makeID: makeID,
            makeSecret: makeSecret,
            openPerson: { (id: Person.ID) async throws(StoreError) -> MomentumServices in
                try await MomentumServices.open(
                    dataDirectory: personDirectory(id, in: dataDirectory), device: device, timeZone: timeZone,
                    now: now, makeID: makeID, librarySizeLimit: librarySizeLimit,
                    libraryFileSystem: libraryFileSystem, household: household, libraryDirectory: libraryDirectory)
            },
            removePersonData: { (id: Person.ID) async throws(StoreError) in
                let directory = personDirectory(id, in: dataDirectory)
                guard FileManager.default.fileExists(atPath: directory.path) else { return }
                do { try FileManager.default.removeItem(at: directory) } catch {
                    throw .dataDirectoryNotWritable(path: directory.path, reason: "it cannot be removed")
                }
            })
    }

    /// The household kept on PostgreSQL (docs/postgres.md): every person's data is `store`'s,
    /// whichever server opens it; `dataDirectory` is this server's folder for caches, and
    /// `libraryDirectory` the library's audio files (a folder every server shares).
    public static func open(
        postgres store: PostgresStore,
        dataDirectory: URL,
        libraryDirectory: URL? = nil,
        device: String,
        login: String? = ProcessInfo.processInfo.environment["USER"],
        timeZone: TimeZone = .current,
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> UUID = { UUID() },
        makeSecret: @escaping @Sendable () -> String = AccessTokenService.randomSecret,
        librarySizeLimit: Int64 = LibraryService.defaultSizeLimit,
        libraryFileSystem: any LibraryFileSystem = LocalLibraryFileSystem()
    ) async throws(StoreError) -> HouseholdService {
        _ = try await store.ensureFounder(named: PersonName.founder(login: login), at: now())
        let libraryDirectory =
            libraryDirectory ?? dataDirectory.appendingPathComponent(LibraryService.folderName, isDirectory: true)
        let open = { @Sendable (id: Person.ID) async -> MomentumServices in
            await MomentumServices.open(
                postgres: store, person: id, libraryDirectory: libraryDirectory, device: device, timeZone: timeZone,
                now: now, makeID: makeID, librarySizeLimit: librarySizeLimit, libraryFileSystem: libraryFileSystem)
        }
        return HouseholdService(
            dataDirectory: dataDirectory, founder: await open(Person.founderID), store: store, now: now, makeID: makeID,
            makeSecret: makeSecret, openPerson: { id async throws(StoreError) in await open(id) },
            removePersonData: { (id: Person.ID) async throws(StoreError) in try await store.deletePersonData(id: id) })
    }
}

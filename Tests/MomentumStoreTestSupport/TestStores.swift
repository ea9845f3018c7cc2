import Foundation
import MomentumCore
import MomentumPostgres
import MomentumServices
import MomentumStore
import MomentumStoreContract
import MomentumTestSupport
import PostgresNIO

/// Which store a parameterized test runs on.
public enum StoreKind: String, Sendable, CaseIterable {
    case sqlite
    case postgres

    /// The PostgreSQL the tests use: `MOMENTUM_TEST_POSTGRES_URL` (`scripts/test-postgres.sh` and CI
    /// start a private cluster and set it).
    public static var postgresURL: String? {
        ProcessInfo.processInfo.environment["MOMENTUM_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// SQLite always; PostgreSQL too when `MOMENTUM_TEST_POSTGRES_URL` is set.
    public static var available: [StoreKind] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }
}

/// The settings and practice log of one person, as both stores keep them.
public typealias LogStore = SettingsRepository & PracticeLogRepository

/// Everything of one person that both stores keep so far: the log and settings, focus timers,
/// presets, programs and the Morse course.
public typealias PersonStore = LogStore & FocusTimerRepository & BreathingPresetRepository
    & MeditationPresetRepository & WorkoutProgramRepository & MorseCourseRepository

/// A fresh, empty store for one test: a temporary SQLite directory, or a PostgreSQL schema of its
/// own (dropped when the test lets go of it).
public final class StoreUnderTest: Sendable {
    public let kind: StoreKind
    /// The person the tests write as (PostgreSQL: their `person_id`).
    public let personID: Person.ID
    private let directory: UncheckedBox<TemporaryDirectory>?
    private let postgres: PostgresStore?
    /// The schema of this test (PostgreSQL).
    public let schema: String?
    public let store: any PersonStore
    /// The household's tables (people, pairing codes, timer shares, tokens and sign-in sessions):
    /// the SQLite database itself, or the PostgreSQL store.
    public let household: any HouseholdPeopleStore
    /// The server's side of sync for the person: the SQLite database, or the person's PostgreSQL view.
    public let syncLog: any SyncLogStore
    /// The same, with its log's compaction.
    public let compaction: any SyncLogCompaction

    /// `makeNodeID` makes the person's sync node id (as the server's store would).
    public init(
        _ kind: StoreKind, personID: Person.ID = Person.founderID,
        makeNodeID: @escaping @Sendable () -> String = { SyncNodeID.random() }
    ) async throws {
        self.kind = kind
        self.personID = personID
        switch kind {
        case .sqlite:
            let directory = try TemporaryDirectory()
            self.directory = UncheckedBox(directory)
            postgres = nil
            schema = nil
            let database = try MomentumDatabase.open(directory: directory.url, device: "test", makeNodeID: makeNodeID)
            store = database
            household = database
            syncLog = database
            compaction = database
        case .postgres:
            await Self.postgresSlots.take()
            let schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            let opened: PostgresStore
            do {
                opened = try await PostgresStore.open(
                    try Self.location(), schema: schema, poolSize: 4, device: "test", makeNodeID: makeNodeID)
            } catch {
                await Self.postgresSlots.give()
                throw error
            }
            directory = nil
            postgres = opened
            self.schema = schema
            let person = opened.scoped(to: personID)
            store = person
            household = opened
            syncLog = person
            compaction = person
        }
    }

    /// The PostgreSQL store itself (nil on SQLite).
    public var postgresStore: PostgresStore? { postgres }

    /// A second, independent handle on the same data: what another process (the terminal while
    /// the server runs, or a second server) opens.
    public func reopened() async throws -> any PersonStore {
        switch try await secondHandle() {
        case .sqlite(let database): database
        case .postgres(let store): store.scoped(to: personID)
        }
    }

    /// The person's sync log through a second, independent handle (another server's).
    public func reopenedSyncLog() async throws -> any SyncLogStore {
        switch try await secondHandle() {
        case .sqlite(let database): database
        case .postgres(let store): store.scoped(to: personID)
        }
    }

    /// The household's tables through a second, independent handle (another server's).
    public func reopenedHousehold() async throws -> any HouseholdPeopleStore {
        switch try await secondHandle() {
        case .sqlite(let database): database
        case .postgres(let store): store
        }
    }

    private enum Handle {
        case sqlite(MomentumDatabase)
        case postgres(PostgresStore)
    }

    /// The store opened again (a PostgreSQL one is closed with this one).
    private func secondHandle() async throws -> Handle {
        switch kind {
        case .sqlite:
            guard let directory else { preconditionFailure("an SQLite store has its directory") }
            return .sqlite(try MomentumDatabase.open(directory: directory.value.url, device: "terminal"))
        case .postgres:
            let other = try await PostgresStore.open(try Self.location(), schema: schema, poolSize: 2)
            opened.withLock { $0.append(other) }
            return .postgres(other)
        }
    }

    private let opened = LockedArray<PostgresStore>()

    /// Runs `sql` on this test's PostgreSQL schema past the store (what a hand edit does); the
    /// first column of the first row as a number, if there is one.
    @discardableResult
    public func postgres(_ sql: String) async throws -> Int? {
        guard let postgres else { preconditionFailure("only a PostgreSQL store runs PostgreSQL") }
        return try await postgres.read { session throws(StoreError) -> Int? in
            guard let row = try await session.query(PostgresQuery(unsafeSQL: sql)).first else { return nil }
            let (number) = try row.columns((Int).self)
            return number
        }
    }

    public static func location() throws -> PostgresLocation {
        guard let url = StoreKind.postgresURL else { throw TestStoreError.noPostgres }
        return try PostgresLocation(url: url)
    }

    deinit {
        for store in opened.withLock({ $0 }) { store.close() }
        guard let postgres, let schema else { return }
        // The schema goes with everything in it, after the test (a deinit cannot await); a failure
        // here, or a process that ends first, leaves a schema behind, never a failed test.
        Task {
            _ = try? await postgres.read { session throws(StoreError) in
                try await session.execute(.init(unsafeSQL: "DROP SCHEMA IF EXISTS \(schema) CASCADE"))
            }
            postgres.close()
            await Self.postgresSlots.give()
        }
    }

    /// PostgreSQL stores open at once in the test process. Tests run concurrently and each store
    /// holds up to six connections (its pool of four, two listeners), more with a second server;
    /// the test cluster takes 500 (`scripts/postgres-cluster.sh`).
    static let postgresSlots = TestSlots(10)
}

/// A few slots, taken in turn (tests wait for one without holding a thread).
public actor TestSlots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(_ count: Int) { free = count }

    public func take() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    public func give() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

/// The household's tables as both stores keep them (``HouseholdStore``).
public typealias HouseholdPeopleStore = HouseholdStore

/// The sync log's compaction, as both stores have it (no repository protocol yet: the server
/// compacts after pushes by itself).
public protocol SyncLogCompaction: SyncLogStore {
    @discardableResult func compactSyncLog() async throws(StoreError) -> Int
    @discardableResult func compactSyncLogIfDue() async throws(StoreError) -> Int
    func syncLogSize() async throws(StoreError) -> SyncLogSize
}

extension MomentumDatabase: SyncLogCompaction {}
extension PostgresPersonStore: SyncLogCompaction {}

public enum TestStoreError: Error {
    case noPostgres
    case noSQLite
}

extension MomentumServices {
    /// The SQLite database of services composed on a data directory (what most tests make).
    public var sqlite: MomentumDatabase {
        get throws {
            guard let database = store as? MomentumDatabase else { throw TestStoreError.noSQLite }
            return database
        }
    }
}

/// A value that is only ever read after it was set (a test's temporary directory).
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// An array behind a lock.
final class LockedArray<Element>: @unchecked Sendable {
    private var elements: [Element] = []
    private let lock = NSLock()
    func withLock<T>(_ body: (inout [Element]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&elements)
    }
}

/// The services that stand on settings and the practice log alone, wired to one store the way
/// `MomentumServices.open` wires them to a database.
public struct LogServices: Sendable {
    public let store: StoreUnderTest
    public let settings: SettingsService
    public let practiceLog: PracticeLogService
    public let progress: ProgressService
    public let exchange: ExchangeService
    public let meditation: MeditationService
    public let focusTimers: FocusTimerService
    public let breathing: BreathingService
    public let meditationPresets: MeditationPresetService
    public let workouts: WorkoutService
    public let morse: MorseCourseService

    /// On `repository` (another handle on `store`'s data) or on `store` itself.
    public init(
        store: StoreUnderTest, repository: (any PersonStore)? = nil, timeZone: TimeZone = .gmt, device: String = "test",
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        let repository = repository ?? store.store
        settings = SettingsService(repository: repository, now: now)
        practiceLog = PracticeLogService(repository: repository, now: now, makeID: { UUID() }, device: device)
        progress = ProgressService(log: repository, settings: settings, systemTimeZone: timeZone, now: now)
        exchange = ExchangeService(
            log: repository, settings: settings, systemTimeZone: timeZone, now: now, makeID: { UUID() }, device: device)
        meditation = MeditationService(
            settings: settings, log: repository, now: now, makeID: { UUID() }, device: device)
        focusTimers = FocusTimerService(repository: repository, now: now, makeID: { UUID() }, device: device)
        breathing = BreathingService(presets: repository, log: repository, now: now, makeID: { UUID() }, device: device)
        meditationPresets = MeditationPresetService(repository: repository, now: now, makeID: { UUID() })
        workouts = WorkoutService(programs: repository, log: repository, now: now, makeID: { UUID() }, device: device)
        morse = MorseCourseService(
            repository: repository, settingValues: repository, settings: settings, progressReports: progress,
            now: now, makeID: { UUID() }, device: device)
    }
}

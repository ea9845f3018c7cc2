import Foundation
import MomentumComposition
import MomentumCore
import MomentumPostgres
import MomentumStoreContract
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

@testable import MomentumServices

/// One backup document for both stores (docs/backup.md): an archive made on SQLite restores into
/// a person kept on PostgreSQL and back again, the same rows each way, and PostgreSQL refuses a
/// damaged backup as SQLite does, keeping nothing of it.
@Suite("Backups across the two stores")
struct BackupAcrossStoresTests {
    let store: StoreUnderTest?
    let folder: TemporaryDirectory

    init() async throws {
        store = await StoreKind.postgresURL == nil ? nil : try StoreUnderTest(.postgres)
        folder = try TemporaryDirectory()
    }

    /// The household's founder on PostgreSQL, on `clock`.
    func postgresFounder(clock: ManualWallClock) async throws -> HouseholdService {
        try await HouseholdService.open(
            postgres: try #require(store?.postgresStore), dataDirectory: folder.url, device: "laptop", login: "ada",
            timeZone: TimeZone(identifier: "UTC") ?? .gmt, now: { clock.now })
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func anArchiveMadeOnSQLiteRestoresIntoPostgreSQLAndBackIdentically() async throws {
        let side = try BackupServiceTests()
        let source = try await side.everything("source")
        let archive = side.directory.file("from-sqlite.zip")
        let written = try await source.backup.writeArchive(to: archive)

        let household = try await postgresFounder(clock: side.clock)
        let postgres = household.founder
        let summary = try await postgres.backup.restore(from: archive, dryRun: false)
        #expect(summary.added == written.counts)
        #expect(summary.kept.isEmpty)
        await #expect(try postgres.backup.document().encoded() == source.backup.document().encoded())
        await #expect(try side.listings(postgres) == side.listings(source))
        await #expect(try side.libraryFiles(postgres) == side.libraryFiles(source))
        // Other devices hear of what was restored: each record, timer and item is logged.
        for (type, kind) in [
            ("practiceRecord", "practiceLog"), ("focusTimer", "focusTimers"), ("checklistItem", "checklistItems"),
        ] {
            let logged = try await store?.postgres(
                "SELECT count(DISTINCT entity_id)::int FROM sync_log WHERE person_id = 1 AND entity_type = '\(type)'")
            #expect(logged == written.counts[kind], "\(type)")
        }
        // Restored again, everything is found there already.
        let again = try await postgres.backup.restore(from: archive, dryRun: false)
        #expect(again.added.isEmpty)
        #expect(again.kept == written.counts)

        let back = side.directory.file("from-postgres.zip")
        await #expect(try postgres.backup.writeArchive(to: back).counts == written.counts)
        let target = try await side.services("target")
        let restored = try await target.backup.restore(from: back, dryRun: false)
        #expect(restored.added == written.counts)
        await #expect(try target.backup.document().encoded() == source.backup.document().encoded())
        await #expect(try side.listings(target) == side.listings(source))
        await #expect(try side.libraryFiles(target) == side.libraryFiles(source))
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func aDamagedBackupIsRefusedOnPostgreSQLAndKeepsNothing() async throws {
        let side = try BackupServiceTests()
        let source = try await side.everything("source")
        var document = try await source.backup.document()
        // A valid first record, then a breathing preset with a breath longer than a minute.
        document.tables["breathingPresets"]?[0]["inhaleMs"] = .integer(600_000)
        let file = side.directory.file("damaged.json")
        try document.encoded().write(to: file)

        let postgres = try await postgresFounder(clock: side.clock).founder
        let before = try await postgres.backup.document().encoded()
        await #expect(throws: BackupFailure.self) { try await postgres.backup.restore(from: file, dryRun: false) }
        await #expect(try postgres.backup.document().encoded() == before)
        await #expect(try postgres.practiceLog.records().isEmpty)
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func bothStoresGiveEachKindTheSameColumns() async throws {
        let side = try BackupServiceTests()
        let sqlite = try await side.services("source")
        let postgres = try await postgresFounder(clock: side.clock).founder
        for kind in BackupKind.allCases {
            await #expect(
                try postgres.backup.columns(of: kind).sorted() == sqlite.backup.columns(of: kind).sorted(), "\(kind)")
        }
    }
}

import Foundation
import MomentumComposition
import MomentumCore
import MomentumPostgres
import MomentumServices
import MomentumStore
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

/// The household's services composed on either store (`HouseholdService.open(dataDirectory:)` or
/// `open(postgres:)`): the same use cases, the same answers; on PostgreSQL also through a second
/// server's handle.
@Suite("Household services on both stores")
struct HouseholdServicesOnBothStoresTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A household on `store` with its own folder (caches, and the library's audio files).
    private func household(on store: StoreUnderTest, folder: TemporaryDirectory, second: Bool = false) async throws
        -> HouseholdService
    {
        switch store.kind {
        case .sqlite:
            return try await HouseholdService.open(
                dataDirectory: folder.url, device: "test", login: "ada", now: { Self.start })
        case .postgres:
            let postgres = await second ? try store.reopenedHousehold() as? PostgresStore : store.postgresStore
            return try await HouseholdService.open(
                postgres: try #require(postgres), dataDirectory: folder.url, device: "test", login: "ada",
                now: { Self.start })
        }
    }

    @Test(arguments: StoreKind.available)
    func eachPersonKeepsTheirOwnPracticeAndRemovingSomeoneRemovesIt(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let folder = try TemporaryDirectory()
        let household = try await household(on: store, folder: folder)
        await #expect(try household.people().map(\.name) == ["ada"])
        let ben = try await household.add(named: "Ben", language: .german)
        let bens = try await household.services(for: ben)
        try await bens.practiceLog.addRecord(kind: .meditation, start: Self.start.addingTimeInterval(-900), length: 600)
        await #expect(try bens.practiceLog.records().count == 1)
        #expect(try await bens.settings.load().language == .german)
        await #expect(try household.founder.practiceLog.records().isEmpty)

        try await household.remove("Ben")
        await #expect(try household.people().map(\.name) == ["ada"])
        // Whoever is added next starts with nothing of Ben's.
        let cleo = try await household.add(named: "Cleo")
        await #expect(try household.services(for: cleo).practiceLog.records().isEmpty)
        if kind == .postgres {
            await #expect(
                try store.postgres("SELECT count(*)::int FROM practice_record WHERE person_id = \(ben.id)") == 0)
            await #expect(try store.postgres("SELECT count(*)::int FROM setting WHERE person_id = \(ben.id)") == 0)
        }
    }

    @Test(arguments: StoreKind.available)
    func theLibraryIsTheHouseholdsAndEachPersonsEditsAreTheirOwn(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let folder = try TemporaryDirectory()
        let household = try await household(on: store, folder: folder)
        let ben = try await household.services(for: try await household.add(named: "Ben"))
        let outcome = try await household.founder.library.importFile(at: SharedAudioFixtures.url("id3v23-latin1.mp3"))
        guard case .imported(let item) = outcome else {
            Issue.record("the fixture was not imported: \(outcome)")
            return
        }
        await #expect(try ben.library.items().map(\.id) == [item.id])
        try await ben.library.edit(id: item.id, name: .set("Bens Sitzung"))
        let place = item.duration / 2
        try await ben.library.savePosition(id: item.id, place)
        await #expect(try ben.library.item(id: item.id).name == "Bens Sitzung")
        await #expect(try ben.library.item(id: item.id).position == place)
        await #expect(try household.founder.library.item(id: item.id).name == item.name)
        await #expect(try household.founder.library.item(id: item.id).position == .zero)
        try await household.founder.library.delete(id: item.id)
        await #expect(try ben.library.items().isEmpty)
    }

    @Test func twoServersOnOneDatabaseServeTheSamePeopleAndData() async throws {
        guard StoreKind.postgresURL != nil else { return }
        let store = try await StoreUnderTest(.postgres)
        let (folderA, folderB) = (try TemporaryDirectory(), try TemporaryDirectory())
        let a = try await household(on: store, folder: folderA)
        let b = try await household(on: store, folder: folderB, second: true)
        let ben = try await a.add(named: "Ben")
        await #expect(try b.people().map(\.name) == ["ada", "Ben"])
        try await a.services(for: ben).practiceLog.addRecord(
            kind: .breathing, start: Self.start.addingTimeInterval(-300), length: 240)
        await #expect(try b.services(for: ben).practiceLog.records().map(\.kind) == [.breathing])
        let timer = try await b.services(for: ben).focusTimers.addTimer(name: "Deep work")
        await #expect(try a.services(for: ben).focusTimers.timers().map(\.id) == [timer.id])
        // Either server's backup of a person is the same document.
        await #expect(try a.services(for: ben).backup.document().tables["focusTimers"]?.count == 1)
        await #expect(try a.services(for: ben).backup.document() == b.services(for: ben).backup.document())
    }

    /// The household's Web Push key is made once and kept: the same after reopening, and on
    /// PostgreSQL the same for a second server — whichever asked first made it.
    @Test(arguments: StoreKind.available)
    func theWebPushKeyIsMadeOnceAndKeptForEveryone(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let folder = try TemporaryDirectory()
        let household = try await household(on: store, folder: folder)
        let key = try await household.push.publicKey()
        #expect(Base64URL.decode(key)?.count == 65)
        await #expect(try household.push.publicKey() == key)
        // Another handle of the same data (another process, or another server) finds it kept.
        let other = try await self.household(on: store, folder: folder, second: kind == .postgres)
        await #expect(try other.push.publicKey() == key)
        // A store offered another candidate keeps the first.
        let candidate = VAPIDKey.generate().rawRepresentation
        let kept = try await household.store.pushServerKey(keeping: candidate, at: Self.start)
        #expect(kept != candidate)
        #expect(try VAPIDKey(rawRepresentation: kept).publicKey == key)
    }
}

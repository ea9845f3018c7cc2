import Foundation
import MomentumComposition
import MomentumCore
import MomentumStore
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

@testable import MomentumServices

/// The household's library (docs/people.md): one list of items and files for everyone, and each
/// person's own edits, ambient choices and places.
@Suite("A household's library, each person's own view")
struct PersonalLibraryTests {
    let directory: TemporaryDirectory
    let household: HouseholdService
    let item: LibraryItem
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    init() async throws {
        directory = try TemporaryDirectory()
        household = try await HouseholdService.open(dataDirectory: directory.url, device: "test", login: "Ada")
        let id = UUID()
        item = LibraryItem(
            id: id, originalTeacher: "Mara", originalName: "Body Scan", originalAlbum: nil,
            duration: .seconds(1200), format: .mp3, fileName: LibraryItem.storedFileName(id: id, format: .mp3),
            originalFileName: "scan.mp3", byteSize: 1000, contentHash: String(repeating: "a", count: 64),
            importedAt: now)
        try household.founder.sqlite.insertLibraryItem(item, at: now)
        try await household.add(named: "Ben")
    }

    func library(of name: String) async throws -> PersonalLibrary {
        let services = try await household.services(for: try household.person(named: name))
        return PersonalLibrary(household: try household.founder.sqlite, personal: try services.sqlite)
    }

    @Test func everyoneSeesTheHouseholdsItemsAndEachKeepsTheirOwnPlace() async throws {
        let ada = try await library(of: "Ada")
        let ben = try await library(of: "Ben")
        await #expect(try ben.libraryItems().map(\.id) == [item.id])
        await #expect(try ada.setLibraryItemPosition(id: item.id, .seconds(312), at: now))
        await #expect(try ada.libraryItem(id: item.id)?.position == .seconds(312))
        await #expect(try ben.libraryItem(id: item.id)?.position == .zero)
        await #expect(try ben.setLibraryItemPosition(id: item.id, .seconds(60), at: now))
        await #expect(try ada.libraryItems().first?.position == .seconds(312))
    }

    @Test func anEditAndAnAmbientChoiceAreThePersonsOwn() async throws {
        let ada = try await library(of: "Ada")
        let ben = try await library(of: "Ben")
        await #expect(try ben.updateLibraryItemEdits(id: item.id, teacher: "Mara L.", name: "Evening scan", at: now))
        await #expect(try ben.setLibraryItemAmbientBed(id: item.id, true, at: now))
        let bens = try await #require(try ben.libraryItem(contentHash: item.contentHash))
        #expect(bens.name == "Evening scan" && bens.editedTeacher == "Mara L." && bens.isAmbientBed)
        let adas = try await #require(try ada.libraryItem(id: item.id))
        #expect(adas.name == "Body Scan" && adas.editedTeacher == nil && !adas.isAmbientBed)
        // Back to the original for Ben: his view says so, whatever the household's entry says.
        await #expect(try ben.updateLibraryItemEdits(id: item.id, teacher: nil, name: nil, at: now))
        await #expect(try ben.libraryItem(id: item.id)?.name == "Body Scan")
    }

    @Test func aViewOfAnItemTheHouseholdDoesNotHaveIsNotWritten() async throws {
        let ben = try await library(of: "Ben")
        await #expect(try ben.setLibraryItemPosition(id: UUID(), .seconds(5), at: now) == false)
        await #expect(try household.services(for: try household.person(named: "Ben")).sqlite.libraryViews().isEmpty)
    }

    @Test func deletingAnItemTakesItFromEveryone() async throws {
        let ben = try await library(of: "Ben")
        await #expect(try ben.deleteLibraryItem(id: item.id))
        await #expect(try library(of: "Ada").libraryItems().isEmpty)
    }

    @Test func theCoreRuleStartsSomeoneWithoutAViewAtTheBeginning() {
        var withPlace = item
        withPlace.position = .seconds(90)
        #expect(withPlace.seen(through: nil).position == .zero)
        let view = LibraryPersonalView(itemID: item.id, isAmbientBed: nil, position: .seconds(30))
        #expect(withPlace.seen(through: view).position == .seconds(30))
        #expect(withPlace.seen(through: view).isAmbientBed == item.isAmbientBed)
    }
}

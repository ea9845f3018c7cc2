import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract
import MomentumTestSupport
import Testing

@testable import MomentumStore

@Suite("Library store: the library_items table and its writes")
struct LibraryStoreTests {
    let directory: TemporaryDirectory
    let database: MomentumDatabase
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws {
        directory = try TemporaryDirectory()
        database = try MomentumDatabase.open(directory: directory.url)
    }

    func item(_ index: Int, hash: Character = "a") -> LibraryItem {
        let id = UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", index)) ?? UUID()
        return LibraryItem(
            id: id, originalTeacher: "Mara", originalName: "Body Scan \(index)", originalAlbum: "Evening",
            duration: .milliseconds(3030), format: .mp3, fileName: LibraryItem.storedFileName(id: id, format: .mp3),
            originalFileName: "scan.mp3", byteSize: 12_345, contentHash: String(repeating: hash, count: 64),
            importedAt: now.addingTimeInterval(Double(index)))
    }

    @Test func theLibraryMigrationIsV8RightAfterV7() {
        let identifiers = MomentumDatabase.migrationIdentifiers
        let v7 = identifiers.firstIndex(of: "v7: the Morse course")
        let v8 = identifiers.firstIndex(of: "v8: guided meditation library")
        #expect(v7 != nil && v8 == v7.map { $0 + 1 })
    }

    @Test func anItemIsStoredReadChangedAndDeleted() throws {
        let first = item(1)
        try database.insertLibraryItem(first, at: now)
        try database.insertLibraryItem(item(2, hash: "b"), at: now)
        #expect(try database.libraryItems().map(\.id) == [first.id, item(2).id])
        #expect(try database.libraryItem(id: first.id) == first)
        #expect(try database.libraryItem(contentHash: String(repeating: "a", count: 64)) == first)
        #expect(try database.updateLibraryItemEdits(id: first.id, teacher: "M.", name: nil, at: now))
        #expect(try database.setLibraryItemAmbientBed(id: first.id, true, at: now))
        #expect(try database.setLibraryItemPosition(id: first.id, .milliseconds(1500), at: now))
        var expected = first
        expected.editedTeacher = "M."
        expected.isAmbientBed = true
        expected.position = .milliseconds(1500)
        #expect(try database.libraryItem(id: first.id) == expected)
        #expect(try database.deleteLibraryItem(id: first.id))
        #expect(try !database.deleteLibraryItem(id: first.id))
        #expect(try !database.setLibraryItemPosition(id: first.id, .zero, at: now))
        #expect(try database.libraryItems().map(\.id) == [item(2).id])
    }

    @Test func theSchemaRefusesDuplicatesAndFileNamesThatAreNotTheID() throws {
        try database.insertLibraryItem(item(1), at: now)
        #expect(throws: StoreError.self) { try database.insertLibraryItem(item(2), at: now) }
        var foreign = item(3, hash: "c")
        foreign.fileName = "../../evil.mp3"
        #expect(throws: StoreError.self) { try database.insertLibraryItem(foreign, at: now) }
        #expect(try database.libraryItems().count == 1)
    }
}

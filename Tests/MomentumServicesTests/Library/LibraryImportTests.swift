import Foundation
import MomentumComposition
import MomentumCore
import MomentumStore
import MomentumStoreContract
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

@testable import MomentumServices

/// A data directory with the library service, and a way to see everything the library holds.
struct LibraryTestBed {
    let directory: TemporaryDirectory
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))
    let ids = SequentialIDs()
    let services: MomentumServices
    /// The services' SQLite database.
    let database: MomentumDatabase

    init() async throws {
        directory = try TemporaryDirectory()
        let clock = self.clock
        let ids = self.ids
        services = try await MomentumServices.open(
            dataDirectory: directory.url, device: "test-device", now: { clock.now }, makeID: { ids.make() })
        database = try services.sqlite
    }

    var library: LibraryService { services.library }
    var libraryFolder: URL { directory.url.appendingPathComponent("library") }

    /// The library service over the same data, with `fileSystem`, `repository` or a size limit swapped in.
    func library(
        fileSystem: any LibraryFileSystem = LocalLibraryFileSystem(), repository: (any LibraryRepository)? = nil,
        sizeLimit: Int64 = LibraryService.defaultSizeLimit
    ) -> LibraryService {
        let clock = self.clock
        let ids = self.ids
        return LibraryService(
            repository: repository ?? database, log: database, directory: libraryFolder,
            fileSystem: fileSystem, sizeLimit: sizeLimit, now: { clock.now }, makeID: { ids.make() },
            device: "test-device")
    }

    /// Every row and every file (hidden ones included) of the library.
    struct Snapshot: Equatable {
        var rows: [LibraryItem]
        var files: [String: Data]
    }

    func snapshot() throws -> Snapshot {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: libraryFolder.path)) ?? []
        var files: [String: Data] = [:]
        for name in names { files[name] = try Data(contentsOf: libraryFolder.appendingPathComponent(name)) }
        return Snapshot(rows: try database.libraryItems(), files: files)
    }

    /// Imports `fixture` and returns the item, failing the test when it is not imported.
    @discardableResult
    func importFixture(_ fixture: String, into library: LibraryService? = nil) async throws -> LibraryItem {
        let outcome = try await (library ?? self.library).importFile(at: SharedAudioFixtures.url(fixture))
        guard case .imported(let item) = outcome else { throw TestFailure("\(fixture) was not imported: \(outcome)") }
        return item
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

@Suite("Library import: copied in, read with our readers, atomic")
struct LibraryImportTests {
    @Test func theManifestCanBeRead() throws {
        #expect(try SharedAudioFixtures.manifest().count >= 10)
    }

    @Test(arguments: SharedAudioFixtures.entries)
    func everyFixtureIsImportedOrRejectedAsItsManifestSays(_ entry: SharedAudioFixtures.Entry) async throws {
        let bed = try await LibraryTestBed()
        let source = SharedAudioFixtures.url(entry.file)
        if entry.isRejected {
            let error = await #expect(throws: LibraryImportError.self) { try await bed.library.importFile(at: source) }
            #expect(error?.fileName == entry.file)
            guard case .unreadableAudio = error else {
                Issue.record("expected an audio error, got \(String(describing: error))")
                return
            }
            #expect(try bed.snapshot() == LibraryTestBed.Snapshot(rows: [], files: [:]))
            return
        }
        let item = try await bed.importFixture(entry.file)
        #expect(item.originalTeacher == entry.artist)
        #expect(item.originalName == entry.title ?? (entry.file as NSString).deletingPathExtension)
        #expect(item.originalAlbum == entry.album)
        #expect(abs(item.duration.inSeconds - (entry.duration ?? -1)) <= 0.1)
        #expect(item.originalFileName == entry.file)
        #expect(item.fileName == "\(item.id.uuidString.lowercased()).\(item.format.rawValue)")
        let original = try Data(contentsOf: source)
        #expect(item.byteSize == Int64(original.count))
        // The copy is byte for byte the original, the only file, and the row says so.
        let snapshot = try bed.snapshot()
        #expect(snapshot.files == [item.fileName: original])
        #expect(snapshot.rows == [item])
    }

    @Test func aFileWithoutTagsIsNamedAfterItsFileAndHasNoTeacher() async throws {
        let bed = try await LibraryTestBed()
        let item = try await bed.importFixture("no-tags.mp3")
        #expect(item.name == "no-tags")
        #expect(item.teacher == nil)
        #expect(item.shownTeacher(.shared(for: .german)) == "Unbekannte Lehrperson")
    }

    @Test func theSameBytesTwiceAreSkippedWithTheExistingItem() async throws {
        let bed = try await LibraryTestBed()
        let first = try await bed.importFixture("id3v23-latin1.mp3")
        let before = try bed.snapshot()
        let staged = try bed.library.beginImport(originalFileName: "renamed copy.mp3")
        try staged.write(try Data(contentsOf: SharedAudioFixtures.url("id3v23-latin1.mp3")))
        await #expect(try staged.finish() == .duplicate(fileName: "renamed copy.mp3", existing: first))
        #expect(try bed.snapshot() == before)
        let message = ErrorMessages.duplicateMessage(
            fileName: "renamed copy.mp3", existing: first, catalog: .shared(for: .english))
        #expect(message == "“renamed copy.mp3” is already in the library as “Body Scan” (\(first.shortID)).")
    }

    @Test(arguments: ["../../evil.mp3", "/etc/passwd", "..\\..\\evil.mp3", "a\u{0}b\n.mp3", "..", ""])
    func anOriginalNameNeverReachesAPath(_ name: String) async throws {
        let bed = try await LibraryTestBed()
        let staged = try bed.library.beginImport(originalFileName: name)
        try staged.write(try Data(contentsOf: SharedAudioFixtures.url("no-tags.mp3")))
        guard case .imported(let item) = try await staged.finish() else {
            Issue.record("not imported")
            return
        }
        #expect(item.fileName == "\(item.id.uuidString.lowercased()).mp3")
        #expect(!item.originalFileName.contains("/") && !item.originalFileName.contains("\\"))
        #expect(!item.originalName.unicodeScalars.contains { $0.properties.generalCategory == .control })
        // Nothing was written outside the library folder.
        let dataEntries = try FileManager.default.contentsOfDirectory(atPath: bed.directory.url.path)
        #expect(
            Set(dataEntries).subtracting(["momentum.sqlite", "momentum.sqlite-wal", "momentum.sqlite-shm"]) == [
                "library"
            ])
        #expect(try bed.snapshot().files.keys.sorted() == [item.fileName])
    }

    @Test func progressIsReportedUpToTheFilesSize() async throws {
        let bed = try await LibraryTestBed()
        var reports: [(Int64, Int64)] = []
        let source = SharedAudioFixtures.url("vbr-xing.mp3")
        _ = try await bed.library.importFile(at: source, chunkSize: 4096) { reports.append(($0, $1)) }
        let size = Int64(try Data(contentsOf: source).count)
        #expect(reports.first?.0 == 0)
        #expect(reports.last.map { $0.0 == size && $0.1 == size } == true)
        #expect(reports.count > 2)
    }

    @Test func aMissingSourceFileIsAClearErrorNamingIt() async throws {
        let bed = try await LibraryTestBed()
        let error = await #expect(throws: LibraryImportError.self) {
            try await bed.library.importFile(at: bed.directory.file("gone.mp3"))
        }
        #expect(error?.fileName == "gone.mp3")
        let message = error.map { ErrorMessages.message(for: $0, catalog: .shared(for: .english)) } ?? ""
        #expect(message.hasPrefix("“gone.mp3” cannot be read"))
    }
}

@Suite("Library import atomicity: a failure at any step leaves the library as it was")
struct LibraryImportAtomicityTests {
    let bed: LibraryTestBed
    let before: LibraryTestBed.Snapshot
    let fixture = SharedAudioFixtures.url("with-cover.mp3")

    init() async throws {
        bed = try await LibraryTestBed()
        try await bed.importFixture("id3v23-latin1.mp3")
        before = try bed.snapshot()
        #expect(before.rows.count == 1 && before.files.count == 1)
    }

    @Test func aFileThatIsNotAudio() async throws {
        for bad in ["not-audio.mp3", "truncated.mp3"] {
            let error = await #expect(throws: LibraryImportError.self) {
                try await bed.library.importFile(at: SharedAudioFixtures.url(bad))
            }
            #expect(error?.fileName == bad)
            #expect(try bed.snapshot() == before)
        }
    }

    @Test func aFileOverTheSizeLimitAsIfTheDiskWereFull() async throws {
        let small = bed.library(sizeLimit: 10_000)
        await #expect(throws: LibraryImportError.tooLarge(fileName: "with-cover.mp3", limit: 10_000)) {
            try await small.importFile(at: fixture, chunkSize: 4096)
        }
        #expect(try bed.snapshot() == before)
        // An upload that says its size up front is refused before a byte is written.
        #expect(throws: LibraryImportError.tooLarge(fileName: "big.mp3", limit: 10_000)) {
            try small.beginImport(originalFileName: "big.mp3", expectedByteCount: 10_001)
        }
        #expect(try bed.snapshot() == before)
        let message = ErrorMessages.message(
            for: .tooLarge(fileName: "big.mp3", limit: 500 * 1024 * 1024), catalog: .shared(for: .english))
        #expect(message == "“big.mp3” is larger than the library's limit of 500 MB. Nothing was imported.")
    }

    @Test func anErrorMidCopy() async throws {
        let library = bed.library(fileSystem: FailingLibraryFileSystem(failing: .write(3)))
        let error = await #expect(throws: LibraryImportError.self) {
            try await library.importFile(at: fixture, chunkSize: 1024)
        }
        guard case .writeFailed(let name, let reason) = error else {
            Issue.record("expected a write failure, got \(String(describing: error))")
            return
        }
        #expect(name == "with-cover.mp3")
        #expect(reason.contains("write 3"))
        #expect(try bed.snapshot() == before)
    }

    /// A full disk mid-copy (`ENOSPC`) is said as such (issue 46): the API answers it 507.
    @Test func aFullDiskMidCopy() async throws {
        let library = bed.library(fileSystem: FailingLibraryFileSystem(failing: .writeOutOfSpace(2)))
        await #expect(throws: LibraryImportError.diskFull(fileName: "with-cover.mp3")) {
            try await library.importFile(at: fixture, chunkSize: 1024)
        }
        #expect(FailureKind.of(LibraryImportError.diskFull(fileName: "with-cover.mp3")) == .storageFull)
        #expect(try bed.snapshot() == before)
    }

    @Test func anErrorCreatingTheCopy() async throws {
        let library = bed.library(fileSystem: FailingLibraryFileSystem(failing: .createFile))
        await #expect(throws: LibraryImportError.self) { try await library.importFile(at: fixture) }
        #expect(try bed.snapshot() == before)
    }

    @Test func anErrorAtTheRename() async throws {
        let library = bed.library(fileSystem: FailingLibraryFileSystem(failing: .move))
        let error = await #expect(throws: LibraryImportError.self) { try await library.importFile(at: fixture) }
        #expect(error == .saveFailed(fileName: "with-cover.mp3", reason: "injected failure at rename"))
        #expect(try bed.snapshot() == before)
    }

    @Test func anErrorAtTheInsert() async throws {
        let library = bed.library(repository: FailingInsertRepository(database: bed.database))
        let error = await #expect(throws: LibraryImportError.self) { try await library.importFile(at: fixture) }
        #expect(error == .saveFailed(fileName: "with-cover.mp3", reason: "injected failure at insert"))
        #expect(try bed.snapshot() == before)
    }

    @Test func anAbandonedOrDroppedImportLeavesNothing() async throws {
        let staged = try bed.library.beginImport(originalFileName: "upload.mp3")
        try staged.write(Data(repeating: 1, count: 5000))
        #expect(try bed.snapshot() != before)
        staged.abandon()
        #expect(try bed.snapshot() == before)
        #expect(throws: LibraryImportError.alreadyEnded(fileName: "upload.mp3")) { try staged.write(Data([1])) }
        await #expect(throws: LibraryImportError.alreadyEnded(fileName: "upload.mp3")) { try await staged.finish() }
        do {
            let dropped = try bed.library.beginImport(originalFileName: "dropped.mp3")
            try dropped.write(Data(repeating: 2, count: 100))
        }
        #expect(try bed.snapshot() == before)
    }

    @Test func whatACrashLeftIsRemovedWhenTheServicesOpen() async throws {
        let folder = bed.libraryFolder
        // A copy in progress, a copy moved into place without its row, and a file that is not ours.
        try Data("partial".utf8).write(to: folder.appendingPathComponent(".incoming-\(UUID().uuidString.lowercased())"))
        try Data("orphan".utf8).write(to: folder.appendingPathComponent("\(UUID().uuidString.lowercased()).mp3"))
        try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let clock = bed.clock
        _ = try await MomentumServices.open(dataDirectory: bed.directory.url, device: "test", now: { clock.now })
        var expected = before
        expected.files["notes.txt"] = Data("mine".utf8)
        #expect(try bed.snapshot() == expected)
    }

    @Test func aFileBetweenItsRenameAndItsInsertIsNotTakenForALeftover() async throws {
        // Another process opens the data directory exactly between the rename and the insert.
        let sweeper = bed.library
        let swept = SweptNames()
        let repository = FailingInsertRepository(
            database: bed.database, failsInsert: false,
            beforeInsert: {
                do { swept.add(try await sweeper.removeLeftovers()) } catch { Issue.record(error) }
            })
        let item = try await bed.importFixture("with-cover.mp3", into: bed.library(repository: repository))
        #expect(swept.names.isEmpty)
        #expect(try bed.snapshot().files.keys.contains(item.fileName))
        #expect(try bed.snapshot().rows.contains(item))
    }

    @Test func anImportInProgressIsNotTakenForALeftover() async throws {
        let staged = try bed.library.beginImport(originalFileName: "slow upload.mp3")
        try staged.write(try Data(contentsOf: fixture))
        // Another process opening the data directory meanwhile.
        await #expect(try bed.library.removeLeftovers().isEmpty)
        guard case .imported(let item) = try await staged.finish() else {
            Issue.record("not imported")
            return
        }
        #expect(try bed.snapshot().rows.map(\.id).contains(item.id))
        await #expect(try bed.library.removeLeftovers().isEmpty)
    }
}

/// Names a sweep removed, collected from inside a repository double.
final class SweptNames: @unchecked Sendable {
    // Only touched while `lock` is held.
    private let lock = NSLock()
    private var collected: [String] = []
    func add(_ names: [String]) { lock.withLock { collected += names } }
    var names: [String] { lock.withLock { collected } }
}

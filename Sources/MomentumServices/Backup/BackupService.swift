import Crypto
import Foundation
import MomentumCore
import MomentumStoreContract
import ZIPFoundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a backup or restore did not happen. A restore that throws has changed nothing.
public enum BackupFailure: Error, Sendable, Equatable {
    case backup(BackupError)
    /// A practice record outside the instants the log keeps.
    case instant(InstantWindowError)
    case text(TextInputError)
    case store(StoreError)
}

/// A whole backup: `momentum export` (JSON or ZIP archive with the library's audio) and its
/// restore. See docs/backup.md.
///
/// A restore reads and checks everything first — the archive's structure, every row, every
/// audio file's size and SHA-256 — and only then writes: the audio into the library (locked
/// against cleanup), then every row in one transaction. Nothing is kept of a refused backup.
public struct BackupService: Sendable {
    /// Where the person's rows are read from and restored into: their SQLite database, or their
    /// rows of a PostgreSQL database.
    private let database: any BackupTableStore
    private let libraryDirectory: URL
    private let fileSystem: any LibraryFileSystem
    /// The largest audio file an archive may carry (the library's own limit).
    private let fileSizeLimit: Int64
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID

    public init(
        database: any BackupTableStore, libraryDirectory: URL, fileSystem: any LibraryFileSystem,
        fileSizeLimit: Int64,
        now: @escaping @Sendable () -> Date, makeID: @escaping @Sendable () -> UUID
    ) {
        self.database = database
        self.libraryDirectory = libraryDirectory
        self.fileSystem = fileSystem
        self.fileSizeLimit = fileSizeLimit
        self.now = now
        self.makeID = makeID
    }

    static let chunkSize = 256 * 1024
    /// ZIP entries get one fixed time, so equal data gives an equal archive.
    static let entryDate = Date(timeIntervalSince1970: 946_684_800)

    // MARK: - Export

    /// The backup document of everything stored now (the audio only described).
    public func document() async throws(BackupFailure) -> BackupDocument {
        do {
            return await BackupDocument(tables: try database.backupRows())
        } catch {
            throw .store(error)
        }
    }

    /// The columns a row of `kind` has in this store, by the document's names.
    func columns(of kind: BackupKind) async throws(StoreError) -> [String] {
        try await database.backupColumns(of: kind)
    }

    /// Writes the JSON document to `url` (atomically) and says what it holds.
    @discardableResult
    public func writeDocument(to url: URL) async throws(BackupFailure) -> BackupContents {
        let document = try await document()
        let data: Data
        do {
            data = try document.encoded()
        } catch {
            throw .backup(error)
        }
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw .backup(.cannotWrite(path: url.path, problem: FileProblem(error)))
        }
        return Self.contents(of: document, audioBytes: 0, includesAudio: false)
    }

    /// Writes the archive — the document and every library file, streamed — to `url`. The file
    /// appears whole or not at all: it is written beside `url` and renamed when complete.
    @discardableResult
    public func writeArchive(to url: URL) async throws(BackupFailure) -> BackupContents {
        let document = try await document()
        let partial = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(makeID().uuidString.lowercased()).partial")
        var audioBytes: Int64 = 0
        do {
            defer {
                // try?: after the rename there is no partial file left; after a failure, which is
                // thrown, removing the hidden `.partial` beside the backup is best-effort.
                try? FileManager.default.removeItem(at: partial)
            }
            let archive: Archive
            do {
                archive = try Archive(url: partial, accessMode: .create)
            } catch {
                throw BackupError.cannotWrite(path: url.path, problem: FileProblem(error))
            }
            let data = try document.encoded()
            try Self.writing(url) {
                try archive.addEntry(
                    with: BackupArchiveLayout.documentPath, type: .file, uncompressedSize: Int64(data.count),
                    modificationDate: Self.entryDate, compressionMethod: .none
                ) { position, size in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
            for row in document.tables[BackupKind.library.rawValue] ?? [] {
                guard case .text(let fileName) = row["fileName"] ?? .null else { continue }
                let source = libraryDirectory.appendingPathComponent(fileName)
                // A library file that cannot be read fails the backup: missing, or with the reason
                // (as a read that fails while it is copied does).
                let handle: FileHandle
                do {
                    handle = try FileHandle(forReadingFrom: source)
                } catch {
                    let problem = FileProblem(error)
                    throw problem == .missing
                        ? BackupError.libraryFileMissing(fileName: fileName)
                        : BackupError.cannotWrite(path: url.path, problem: problem)
                }
                defer { try? handle.close() }  // try?: the library file was only read; closing it loses nothing
                let size: UInt64
                do {
                    size = try handle.seekToEnd()
                } catch {
                    throw BackupError.cannotWrite(path: url.path, problem: FileProblem(error))
                }
                try Self.writing(url) {
                    try archive.addEntry(
                        with: BackupArchiveLayout.libraryFolder + fileName, type: .file, uncompressedSize: Int64(size),
                        modificationDate: Self.entryDate, compressionMethod: .none, bufferSize: Self.chunkSize
                    ) { position, size in
                        try handle.seek(toOffset: UInt64(position))
                        return try handle.read(upToCount: size) ?? Data()
                    }
                }
                audioBytes += Int64(size)
            }
            // rename(2) replaces an earlier backup of the same name in one step; Foundation's
            // replaceItemAt removes it first on Linux, and loses it if the move then fails.
            guard rename(partial.path, url.path) == 0 else {
                throw BackupError.cannotWrite(path: url.path, problem: FileProblem(POSIXError.current))
            }
        } catch let error as BackupError {
            throw .backup(error)
        } catch {
            throw .backup(.cannotWrite(path: url.path, problem: FileProblem(error)))
        }
        return Self.contents(of: document, audioBytes: audioBytes, includesAudio: true)
    }

    private static func writing(_ url: URL, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as BackupError {
            throw error
        } catch {
            throw BackupError.cannotWrite(path: url.path, problem: FileProblem(error))
        }
    }

    // MARK: - Restore

    /// Whether the file at `url` is a backup this service restores: a ZIP archive, or a JSON
    /// document of version 2 or later. Version 1 documents and CSV logs go to the log import.
    public static func recognizes(_ url: URL) -> Bool {
        // try?: a file that cannot be opened is not recognized; the log import it goes to next
        // says why it cannot be read.
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }  // try?: the file was only read; closing it cannot lose anything
        // try?: likewise for a file that cannot be read: the log import reports it.
        guard let start = try? handle.read(upToCount: 4) else { return false }
        if start == Data([0x50, 0x4B, 0x03, 0x04]) || start == Data([0x50, 0x4B, 0x05, 0x06]) { return true }
        // Read through (not held) to its format and version, which come after the tables.
        do {
            _ = try BackupDocumentReader(url: url)
            return true
        } catch {
            switch error {
            case .notABackup, .olderVersion, .cannotRead: return false
            default: return true
            }
        }
    }

    /// Checks the backup at `url` completely and restores what the data directory does not
    /// have yet (or, with `dryRun`, only says what it would do).
    public func restore(from url: URL, dryRun: Bool) async throws(BackupFailure) -> RestoreSummary {
        do {
            let source = try BackupSource(url: url, fileSizeLimit: fileSizeLimit)
            // An archive's document is copied out beside the database (not into a temporary
            // folder that may be memory) and read from there.
            let folder = libraryDirectory.deletingLastPathComponent()
            let staged = folder.appendingPathComponent(".restore-\(makeID().uuidString.lowercased()).json")
            // A person kept on PostgreSQL may have no data directory yet: the restore makes it
            // (as it makes the library's folder for the audio).
            if source.isArchive, !FileManager.default.fileExists(atPath: folder.path) {
                do {
                    try fileSystem.createDirectory(at: folder)
                } catch {
                    throw BackupError.cannotWrite(path: staged.path, problem: FileProblem(error))
                }
            }
            defer {
                // try?: for a JSON document no copy was made; a copy that stays is a hidden file
                // holding only what the backup itself holds, so removing it is best-effort.
                try? FileManager.default.removeItem(at: staged)
            }
            let document = try BackupDocumentReader(url: try source.documentFile(staged: staged))
            let window = InstantWindow.record(now: now())
            let plan = try await database.planRestore(document) { item in
                source.isArchive ? source.hasFile(item.fileName) : false
            } checkRecord: { record, index in
                try ExchangeService.checkInstantsAndTexts(of: record, index: index, in: window)
            }
            try source.checkFiles(against: document)
            let counts = Dictionary(
                uniqueKeysWithValues: document.tableNames.map { ($0, document.count(of: $0)) }.filter { $0.1 > 0 })
            let contents = BackupContents(
                counts: counts, audioBytes: source.audioBytes, includesAudio: source.isArchive)
            let summary = RestoreSummary(
                contents: contents, added: Self.named(plan.added), kept: Self.named(plan.kept), renamed: plan.renamed,
                skippedWithoutAudio: plan.skippedWithoutAudio, dryRun: dryRun)
            guard !dryRun else { return summary }
            try await placeFilesAndRestore(plan, document, from: source)
            return summary
        } catch let error as BackupFailure {
            throw error
        } catch let error as BackupError {
            throw .backup(error)
        } catch let error as ImportError {
            switch error {
            case .instant(let instant): throw .instant(instant)
            case .text(let text): throw .text(text)
            case .store(let store): throw .store(store)
            case .cannotRead(let problem): throw .backup(.cannotRead(problem))
            case .file: throw .backup(.notABackup)
            }
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .backup(.damagedArchive(detail: Self.reason(error)))
        }
    }

    /// Extracts each added item's audio into the library as a locked incoming file (checked
    /// again while written), renames them in place, then writes every row in one transaction.
    /// If anything fails, the files are removed again.
    private func placeFilesAndRestore(
        _ plan: BackupRestorePlan, _ document: BackupDocumentReader, from source: BackupSource
    ) async throws {
        var placed: [(url: URL, handle: any LibraryFileHandle)] = []
        var createdDirectory = false
        defer { for file in placed { file.handle.close() } }
        do {
            if !plan.libraryItems.isEmpty, !FileManager.default.fileExists(atPath: libraryDirectory.path) {
                try fileSystem.createDirectory(at: libraryDirectory)
                createdDirectory = true
            }
            for item in plan.libraryItems {
                let incoming = libraryDirectory.appendingPathComponent(".incoming-\(makeID().uuidString.lowercased())")
                let handle = try fileSystem.createLockedFile(at: incoming)
                placed.append((incoming, handle))
                try source.extract(item.fileName, expecting: item) { chunk in try handle.write(chunk) }
                try handle.synchronize()
                let final = libraryDirectory.appendingPathComponent(item.fileName)
                try fileSystem.moveItem(at: incoming, to: final)
                placed[placed.count - 1].url = final
            }
            let placedNames = Set(plan.libraryItems.map(\.fileName))
            try await database.restore(document, libraryFileAvailable: { placedNames.contains($0.fileName) }, at: now())
        } catch {
            // try?: the failure is thrown below; a file that stays is named by no row (`.incoming-*`
            // or `<uuid>.<ext>`), so the library's cleanup removes it when the services next open.
            for file in placed { try? fileSystem.removeItem(at: file.url) }
            // try?: this restore made the folder; one that stays holds at most the files above, and
            // the next import uses it.
            if createdDirectory { try? fileSystem.removeItem(at: libraryDirectory) }
            throw error
        }
    }

    static func contents(of document: BackupDocument, audioBytes: Int64, includesAudio: Bool) -> BackupContents {
        BackupContents(
            counts: document.tables.mapValues(\.count).filter { $0.value > 0 }, audioBytes: audioBytes,
            includesAudio: includesAudio)
    }

    static func named(_ counts: [BackupKind: Int]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: counts.filter { $0.value > 0 }.map { ($0.key.rawValue, $0.value) })
    }

    static func reason(_ error: any Error) -> String { LibraryImporter.reason(error) }
}

import Foundation
import MomentumCore
import MomentumStoreContract

/// The guided meditation library: importing files, listing them by teacher, editing, deleting,
/// ambient beds, remembered positions, and logging what was listened to.
///
/// Files live in `<data dir>/library/`, each named `<id>.<ext>`; rows in the database. An
/// import is atomic: a rejected or failed file leaves neither a row nor a file, and what a
/// crashed import left is removed when the service is opened.
///
/// ```swift
/// let outcome = try services.library.importFile(at: url)
/// let groups = try services.library.groupedItems(locale: Locale(identifier: "de_DE"))
/// ```
public struct LibraryService: Sendable {
    /// The largest file imported by default: 500 MB (MiB, 524,288,000 bytes).
    public static let defaultSizeLimit: Int64 = 500 * 1024 * 1024

    /// The name of the library folder inside the data directory.
    public static let folderName = "library"

    /// The folder the library's files are in.
    public var directory: URL { importer.directory }
    /// The largest file an import accepts, in bytes.
    public var sizeLimit: Int64 { importer.sizeLimit }

    private let importer: LibraryImporter
    private let log: any PracticeLogRepository
    private let makeID: @Sendable () -> UUID
    private let device: String
    private var repository: any LibraryRepository { importer.repository }
    private var now: @Sendable () -> Date { importer.now }

    /// A service keeping its files in `directory`; nothing is touched until it is used (see
    /// ``removeLeftovers()``).
    public init(
        repository: any LibraryRepository, log: any PracticeLogRepository, directory: URL,
        fileSystem: any LibraryFileSystem = LocalLibraryFileSystem(), sizeLimit: Int64 = defaultSizeLimit,
        now: @escaping @Sendable () -> Date, makeID: @escaping @Sendable () -> UUID, device: String
    ) {
        importer = LibraryImporter(
            repository: repository, fileSystem: fileSystem, directory: directory, sizeLimit: sizeLimit, now: now)
        self.log = log
        self.makeID = makeID
        self.device = device
    }

    // MARK: - Importing

    /// Starts importing a file named `originalFileName` (only its last component is kept, cleaned;
    /// it never becomes a path). A known `expectedByteCount` over the limit is refused at once.
    public func beginImport(originalFileName: String, expectedByteCount: Int64? = nil)
        throws(LibraryImportError) -> LibraryStagedImport
    {
        let fileName = LibraryFileName.sanitized(originalFileName)
        if let expectedByteCount, expectedByteCount > sizeLimit {
            throw .tooLarge(fileName: fileName, limit: sizeLimit)
        }
        do {
            try importer.fileSystem.createDirectory(at: directory)
        } catch {
            throw .folderUnusable(path: directory.path, reason: LibraryImporter.reason(error))
        }
        let id = makeID()
        let handle: any LibraryFileHandle
        do {
            handle = try importer.fileSystem.createLockedFile(at: importer.incomingURL(for: id))
        } catch {
            throw LibraryImporter.writeFailure(fileName, error)
        }
        return LibraryStagedImport(fileName: fileName, id: id, importer: importer, handle: handle)
    }

    /// Copies the file at `url` into the library in chunks, calling `progress` with the bytes
    /// copied and the file's size.
    public func importFile(
        at url: URL, chunkSize: Int = 256 * 1024, progress: (_ done: Int64, _ total: Int64) -> Void = { _, _ in }
    ) async throws(LibraryImportError) -> LibraryImportOutcome {
        let fileName = LibraryFileName.sanitized(url.lastPathComponent)
        let source: FileHandle
        let total: Int64
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            guard (attributes[.type] as? FileAttributeType) != .typeDirectory else {
                throw POSIXError(.EISDIR)
            }
            total = (attributes[.size] as? NSNumber)?.int64Value ?? 0
            source = try FileHandle(forReadingFrom: url)
        } catch {
            throw .sourceUnreadable(fileName: fileName, problem: FileProblem(error))
        }
        defer { try? source.close() }  // try?: the source was only read; closing it loses nothing
        let staged = try beginImport(originalFileName: url.lastPathComponent, expectedByteCount: total)
        progress(0, total)
        while true {
            let chunk: Data
            do {
                chunk = try source.read(upToCount: max(1, chunkSize)) ?? Data()
            } catch {
                staged.abandon()
                throw .sourceUnreadable(fileName: fileName, problem: FileProblem(error))
            }
            if chunk.isEmpty { break }
            try staged.write(chunk)
            progress(staged.byteCount, max(total, staged.byteCount))
        }
        return try await staged.finish()
    }

    /// Removes what imports that died left in the library folder (see the docs); returns the
    /// names removed. Called when the services are opened. Throws when the store cannot be read:
    /// then nothing is removed.
    @discardableResult
    public func removeLeftovers() async throws(StoreError) -> [String] { try await importer.removeLeftovers() }

    // MARK: - Reading

    /// Every item, oldest import first.
    public func items() async throws(LibraryError) -> [LibraryItem] {
        do { return try await repository.libraryItems() } catch { throw .store(error) }
    }

    /// The items grouped by teacher A–Z, names sorted within, in `locale` (see ``LibraryOrder``).
    public func groupedItems(locale: Locale) async throws(LibraryError) -> [LibraryTeacherGroup] {
        await LibraryOrder.grouped(try items(), locale: locale)
    }

    /// The items marked as ambient beds, sorted by name in `locale`.
    public func ambientBeds(locale: Locale) async throws(LibraryError) -> [LibraryItem] {
        await LibraryOrder.sortedByName(try items().filter(\.isAmbientBed), locale: locale)
    }

    /// The item with `id`.
    public func item(id: UUID) async throws(LibraryError) -> LibraryItem {
        let found: LibraryItem?
        do { found = try await repository.libraryItem(id: id) } catch { throw .store(error) }
        guard let found else { throw .notFound(id.uuidString.lowercased()) }
        return found
    }

    /// The item whose id starts with `prefix` (at least 4 characters, unambiguous), as the
    /// terminal takes ids.
    public func item(idPrefix prefix: String) async throws(LibraryError) -> LibraryItem {
        let items = try await items()
        do {
            return try IDPrefix.find(prefix, in: items, id: \.id)
        } catch .tooShort {
            throw .idTooShort(prefix)
        } catch .notFound {
            throw .notFound(prefix)
        } catch {
            throw .ambiguous(prefix)
        }
    }

    /// The copied file of `item`, for playing or streaming.
    public func fileURL(for item: LibraryItem) -> URL { importer.fileURL(named: item.fileName) }

    /// Up to five existing teachers containing `text` (see ``LibraryTeacherSuggestions``).
    public func teacherSuggestions(for text: String, locale: Locale) async throws(LibraryError) -> [String] {
        await LibraryTeacherSuggestions.suggestions(for: text, among: try items(), locale: locale)
    }

    // MARK: - Changing

    /// Edits item `id`'s teacher and name; `.set("")` and `.restoreOriginal` show the original
    /// again. Invalid text changes nothing.
    @discardableResult
    public func edit(id: UUID, teacher: LibraryFieldEdit = .keep, name: LibraryFieldEdit = .keep)
        async
        throws(LibraryError) -> LibraryItem
    {
        let edited: LibraryItem
        do {
            edited = try await item(id: id).editing(teacher: teacher, name: name)
        } catch let error as LibraryEditError {
            throw .invalidEdit(error)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .store(.database(message: "\(error)"))
        }
        try await changed(id) { () async throws(StoreError) in
            try await repository.updateLibraryItemEdits(
                id: id, teacher: edited.editedTeacher, name: edited.editedName, at: now())
        }
        return edited
    }

    /// Marks item `id` as an ambient bed (offered among a meditation's ambient sounds) or not.
    @discardableResult
    public func setAmbientBed(id: UUID, _ isAmbientBed: Bool) async throws(LibraryError) -> LibraryItem {
        try await changed(id) { () async throws(StoreError) in
            try await repository.setLibraryItemAmbientBed(id: id, isAmbientBed, at: now())
        }
        return try await item(id: id)
    }

    /// Remembers where the player left item `id`; a position past the end is kept as the end.
    @discardableResult
    public func savePosition(id: UUID, _ position: Duration) async throws(LibraryError) -> LibraryItem {
        guard position >= .zero else { throw .negativePosition }
        let length = try await item(id: id).duration
        try await changed(id) { () async throws(StoreError) in
            try await repository.setLibraryItemPosition(id: id, min(position, length), at: now())
        }
        return try await item(id: id)
    }

    /// Deletes item `id`: its row, then its file. A file that cannot be removed is a leftover
    /// the next opening removes; the item is gone either way.
    @discardableResult
    public func delete(id: UUID) async throws(LibraryError) -> LibraryItem {
        let deleted = try await item(id: id)
        try await changed(id) { () async throws(StoreError) in try await repository.deleteLibraryItem(id: id) }
        importer.remove(fileURL(for: deleted))
        return deleted
    }

    /// Logs listening to item `id` for `listened` until `endedAt` (default now) as a guided
    /// practice, if it counts (``GuidedListening``): finishing, or stopping after a minute.
    /// Finishing also resets the remembered position to the start. Returns the record logged.
    @discardableResult
    public func logListening(itemID: UUID, listened: Duration, finished: Bool, endedAt: Date? = nil)
        async
        throws(LibraryError) -> PracticeRecord?
    {
        guard listened >= .zero, listened.inSeconds <= PracticeRecord.maximumLength else {
            throw .listenedOutOfRange
        }
        let listenedItem = try await item(id: itemID)
        let end = endedAt ?? now()
        let record: PracticeRecord?
        do {
            record = try GuidedListening.record(
                item: listenedItem, listened: listened, finished: finished, endedAt: end, id: makeID(),
                device: device)
        } catch {
            throw .invalidRecord(error)
        }
        do {
            if let record { try await log.savePracticeRecord(record, at: end) }
            if finished { _ = try await repository.setLibraryItemPosition(id: itemID, .zero, at: now()) }
        } catch {
            throw .store(error)
        }
        return record
    }

    /// Runs a store change of item `id` that reports whether the item existed.
    private func changed(_ id: UUID, _ change: () async throws(StoreError) -> Bool) async throws(LibraryError) {
        let existed: Bool
        do { existed = try await change() } catch { throw .store(error) }
        guard existed else { throw .notFound(id.uuidString.lowercased()) }
    }
}

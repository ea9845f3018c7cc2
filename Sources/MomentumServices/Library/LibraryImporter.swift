import Foundation
import MomentumAudio
import MomentumCore
import MomentumStoreContract

/// The steps of an import after its bytes are written, and the cleanup of what a crash left:
/// shared by ``LibraryService`` and every ``LibraryStagedImport`` it begins.
struct LibraryImporter: Sendable {
    let repository: any LibraryRepository
    let fileSystem: any LibraryFileSystem
    let directory: URL
    let sizeLimit: Int64
    let now: @Sendable () -> Date

    static let incomingPrefix = ".incoming-"

    func incomingURL(for id: UUID) -> URL {
        directory.appendingPathComponent(Self.incomingPrefix + id.uuidString.lowercased())
    }

    func fileURL(named fileName: String) -> URL { directory.appendingPathComponent(fileName) }

    /// Removes `url`, ignoring a failure: whatever stays behind is a leftover the next cleanup
    /// removes.
    func remove(_ url: URL) {
        // try?: every caller removes a file no row names (an `.incoming-*` copy, or a `<uuid>.<ext>`
        // whose row was never written or was deleted); one that stays is removed by
        // removeLeftovers() when the services next open.
        try? fileSystem.removeItem(at: url)
    }

    /// Reads the written copy's metadata, then moves it into place and adds its row; on any
    /// failure removes what it made.
    func store(incomingURL: URL, id: UUID, fileName: String, byteCount: Int64, contentHash: String)
        async
        throws(LibraryImportError) -> LibraryImportOutcome
    {
        let metadata: AudioMetadata
        do {
            metadata = try AudioMetadataReader.read(from: try FileByteSource(url: incomingURL), fileName: fileName)
        } catch let error as AudioMetadataError {
            remove(incomingURL)
            throw .unreadableAudio(error)
        } catch {
            remove(incomingURL)
            throw .unreadableAudio(.unreadable(fileName: fileName, reason: Self.reason(error)))
        }
        // A store that cannot say whether the bytes are there already stops the import: taking
        // its failure for "not there" would import them twice.
        let existing: LibraryItem?
        do {
            existing = try await repository.libraryItem(contentHash: contentHash)
        } catch {
            remove(incomingURL)
            if Self.isDiskFull(error) { throw .diskFull(fileName: fileName) }
            throw .saveFailed(fileName: fileName, reason: Self.reason(error))
        }
        if let existing {
            remove(incomingURL)
            return .duplicate(fileName: fileName, existing: existing)
        }
        let format = LibraryAudioFormat(metadata.format)
        let item = LibraryItem(
            id: id, originalTeacher: metadata.artist,
            originalName: metadata.title ?? LibraryFileName.defaultTitle(for: fileName),
            originalAlbum: metadata.album, duration: .milliseconds(metadata.duration.wholeMilliseconds), format: format,
            fileName: LibraryItem.storedFileName(id: id, format: format), originalFileName: fileName,
            byteSize: byteCount, contentHash: contentHash, importedAt: now())
        let finalURL = fileURL(named: item.fileName)
        do {
            try fileSystem.moveItem(at: incomingURL, to: finalURL)
        } catch {
            remove(incomingURL)
            throw .saveFailed(fileName: fileName, reason: Self.reason(error))
        }
        do {
            try await repository.insertLibraryItem(item, at: now())
        } catch {
            remove(finalURL)
            // Another import of the same bytes may have won the race since the check above.
            // try?: if the store cannot say, the insert's own failure below is what is reported;
            // either way nothing was imported and the copy is gone.
            if let existing = try? await repository.libraryItem(contentHash: contentHash) {
                return .duplicate(fileName: fileName, existing: existing)
            }
            if Self.isDiskFull(error) { throw .diskFull(fileName: fileName) }
            throw .saveFailed(fileName: fileName, reason: Self.reason(error))
        }
        return .imported(item)
    }

    /// Removes what an import that died left behind: `.incoming-*` files, and `<uuid>.<ext>`
    /// files without a row (the process died between the rename and the insert). Files another
    /// process is importing are locked and left alone; files of other names are never touched.
    /// Returns the names removed. A store that cannot be read stops the cleanup with its error:
    /// without the rows, no file can be told to be a leftover.
    @discardableResult
    func removeLeftovers() async throws(StoreError) -> [String] {
        // try?: a folder that cannot be listed (most often: not made yet, before the first import)
        // shows no leftover, and nothing is removed.
        guard let names = try? fileSystem.fileNames(in: directory),
            names.contains(where: { Self.isIncoming($0) || Self.isStoredFileName($0) })
        else { return [] }
        let known = await Set(try repository.libraryItems().map(\.fileName))
        let candidates = names.filter { Self.isIncoming($0) || (Self.isStoredFileName($0) && !known.contains($0)) }
        var locked: [(name: String, handle: any LibraryFileHandle)] = []
        for name in candidates.sorted() {
            if let handle = fileSystem.lockIfUnused(fileURL(named: name)) { locked.append((name, handle)) }
        }
        defer { for entry in locked { entry.handle.close() } }
        // The rows are read again once the files are locked: an import that finished meanwhile has its row.
        guard !locked.isEmpty else { return [] }
        let kept = await Set(try repository.libraryItems().map(\.fileName))
        var removed: [String] = []
        for entry in locked where !kept.contains(entry.name) {
            // try?: a leftover that cannot be removed stays, is not counted as removed, and is
            // tried again at the next opening; it is named by no row, so nothing is lost.
            if (try? fileSystem.removeItem(at: fileURL(named: entry.name))) != nil { removed.append(entry.name) }
        }
        return removed
    }

    static func isIncoming(_ name: String) -> Bool { name.hasPrefix(incomingPrefix) }

    /// `<uuid>.<mp3|m4a|wav>`: the only names the library gives its files.
    static func isStoredFileName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        let stem = name[..<dot]
        let fileExtension = name[name.index(after: dot)...]
        return UUID(uuidString: String(stem)) != nil && stem == stem.lowercased()
            && LibraryAudioFormat(rawValue: String(fileExtension)) != nil
    }

    /// A short reason for an error from the file system or the store.
    /// Whether `error` says the disk is full: `ENOSPC` (or a quota's `EDQUOT`) from a file write,
    /// Foundation's "out of space", or the store's ``StoreError/diskFull``.
    static func isDiskFull(_ error: any Error) -> Bool {
        switch error {
        case let error as POSIXError: return [.ENOSPC, .EDQUOT].contains(error.code)
        case let error as StoreError: return error == .diskFull
        case let error as CocoaError:
            if error.code == .fileWriteOutOfSpace { return true }
            return (error.userInfo[NSUnderlyingErrorKey] as? POSIXError).map(isDiskFull) ?? false
        default:
            let error = error as NSError
            return error.domain == NSPOSIXErrorDomain && [Int(ENOSPC), Int(EDQUOT)].contains(error.code)
        }
    }

    /// Why writing `fileName` failed: ``LibraryImportError/diskFull(fileName:)`` when the disk is
    /// full, else ``LibraryImportError/writeFailed(fileName:reason:)`` with `error`'s reason.
    static func writeFailure(_ fileName: String, _ error: any Error) -> LibraryImportError {
        isDiskFull(error) ? .diskFull(fileName: fileName) : .writeFailed(fileName: fileName, reason: reason(error))
    }

    static func reason(_ error: any Error) -> String {
        switch error {
        case let error as POSIXError: String(cString: strerror(error.code.rawValue))
        case let error as StoreError:
            switch error {
            case .database(let message): message
            default: "\(error)"
            }
        case let error as ByteSourceError: error.reason
        case let error as CocoaError:
            (error.userInfo[NSUnderlyingErrorKey] as? POSIXError).map { String(cString: strerror($0.code.rawValue)) }
                ?? error.localizedDescription
        default: "\(error)"
        }
    }
}

extension LibraryAudioFormat {
    init(_ format: AudioMetadata.Format) {
        switch format {
        case .mp3: self = .mp3
        case .m4a: self = .m4a
        case .wav: self = .wav
        }
    }
}

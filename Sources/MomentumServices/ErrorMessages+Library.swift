import MomentumAudio
import MomentumCore

extension ErrorMessages {
    /// The library's errors and the audio readers', in the person's words; `nil` for others.
    public static func libraryMessage(describing error: any Error, catalog: StringCatalog) -> String? {
        switch error {
        case let error as AudioMetadataError: message(for: error, catalog: catalog)
        case let error as LibraryImportError: message(for: error, catalog: catalog)
        case let error as LibraryError: message(for: error, catalog: catalog)
        case let error as LibraryEditError: message(for: error, catalog: catalog)
        default: nil
        }
    }

    public static func message(for error: AudioMetadataError, catalog: StringCatalog) -> String {
        switch error {
        case .notAudio(let file): catalog.format(.errorAudioFileNotAudio, ["file": file])
        case .unsupportedFormat(let file, let format):
            catalog.format(.errorAudioFileUnsupported, ["file": file, "format": format])
        case .truncated(let file, let element, let needed, let size):
            catalog.format(
                .errorAudioFileTruncated, ["file": file, "element": element, "needed": "\(needed)", "size": "\(size)"])
        case .sizeBeyondContainer(let file, let element, let claimed, let available):
            catalog.format(
                .errorAudioFileSizeBeyondContainer,
                ["file": file, "element": element, "claimed": "\(claimed)", "available": "\(available)"])
        case .noAudioFrames(let file): catalog.format(.errorAudioFileNoAudioFrames, ["file": file])
        case .missingElement(let file, let element):
            catalog.format(.errorAudioFileMissingElement, ["file": file, "element": element])
        case .invalidHeader(let file, let element, let reason):
            catalog.format(.errorAudioFileInvalidHeader, ["file": file, "element": element, "reason": reason])
        case .unreadable(let file, let reason):
            catalog.format(.errorAudioFileUnreadable, ["file": file, "reason": reason])
        }
    }

    public static func message(for error: LibraryImportError, catalog: StringCatalog) -> String {
        switch error {
        case .unreadableAudio(let audio): message(for: audio, catalog: catalog)
        case .tooLarge(let file, let limit):
            catalog.format(.errorLibraryFileTooLarge, ["file": file, "limit": byteSizeText(limit)])
        case .sourceUnreadable(let file, let problem):
            catalog.format(.librarySourceUnreadable, ["file": file, "reason": problem.text(catalog)])
        case .writeFailed(let file, let reason):
            catalog.format(.errorLibraryWriteFailed, ["file": file, "reason": reason])
        case .diskFull: catalog[.errorDiskFull]
        case .saveFailed(let file, let reason):
            catalog.format(.errorLibrarySaveFailed, ["file": file, "reason": reason])
        case .folderUnusable(let path, let reason):
            catalog.format(.errorLibraryFolder, ["path": path, "reason": reason])
        case .alreadyEnded(let file): catalog.format(.errorLibraryImportFinished, ["file": file])
        }
    }

    public static func message(for error: LibraryError, catalog: StringCatalog) -> String {
        switch error {
        case .notFound(let id): catalog.format(.errorLibraryNotFound, ["id": id])
        case .idTooShort(let id): catalog.format(.errorLibraryIDTooShort, ["id": id])
        case .ambiguous(let id): catalog.format(.errorLibraryAmbiguous, ["id": id])
        case .invalidEdit(let edit): message(for: edit, catalog: catalog)
        case .listenedOutOfRange: catalog[.errorLibraryListenedOutOfRange]
        case .negativePosition: catalog[.errorLibraryNegativePosition]
        case .invalidRecord(let record): message(for: record, catalog: catalog)
        case .store(let store): message(for: store, catalog: catalog)
        }
    }

    public static func message(for error: LibraryEditError, catalog: StringCatalog) -> String {
        switch error {
        case .tooLong(let field, let characters):
            catalog.format(
                .errorLibraryTextTooLong,
                [
                    "field": fieldName(field, catalog), "count": "\(characters)",
                    "maximum": "\(LibraryText.maximumCharacters)",
                ])
        case .controlCharacter(let field):
            catalog.format(.errorLibraryControlCharacter, ["field": fieldName(field, catalog)])
        case .bidirectionalControl(let field):
            catalog.format(.errorLibraryBidirectionalControl, ["field": fieldName(field, catalog)])
        }
    }

    /// A duplicate import's reason, for lists of skipped files.
    public static func duplicateMessage(fileName: String, existing: LibraryItem, catalog: StringCatalog) -> String {
        catalog.format(.libraryDuplicate, ["file": fileName, "name": existing.name, "id": existing.shortID])
    }

    private static func fieldName(_ field: LibraryField, _ catalog: StringCatalog) -> String {
        switch field {
        case .teacher: catalog[.libraryFieldTeacher]
        case .name: catalog[.libraryFieldName]
        }
    }

    /// `500 MB`, `12 KB`, `300 B` (binary multiples, as the limit is set).
    public static func byteSizeText(_ bytes: Int64) -> String {
        if bytes >= 1024 * 1024 { return "\(bytes / (1024 * 1024)) MB" }
        if bytes >= 1024 { return "\(bytes / 1024) KB" }
        return "\(bytes) B"
    }
}

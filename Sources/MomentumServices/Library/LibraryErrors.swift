import Foundation
import MomentumAudio
import MomentumCore
import MomentumStoreContract

/// Why a file was not imported. Each case names the file (cleaned of any path); in every case
/// the library is left as it was: no row, no file.
public enum LibraryImportError: Error, Equatable, Sendable {
    /// The bytes are not audio Momentum can read, or are damaged: the reader's own error.
    case unreadableAudio(AudioMetadataError)
    /// The file is larger than the library's size limit (`limit` bytes).
    case tooLarge(fileName: String, limit: Int64)
    /// The file to import could not be opened or read.
    case sourceUnreadable(fileName: String, problem: FileProblem)
    /// Writing the copy failed (the folder vanished, an I/O error …).
    case writeFailed(fileName: String, reason: String)
    /// Writing the copy (or its row) failed because the disk is full.
    case diskFull(fileName: String)
    /// The copy could not be moved into place or recorded.
    case saveFailed(fileName: String, reason: String)
    /// The library folder cannot be created or used.
    case folderUnusable(path: String, reason: String)
    /// The staged import was already finished or abandoned.
    case alreadyEnded(fileName: String)

    /// The file the error is about (the folder for ``folderUnusable(path:reason:)``).
    public var fileName: String {
        switch self {
        case .unreadableAudio(let error): error.fileName
        case .tooLarge(let fileName, _), .sourceUnreadable(let fileName, _), .writeFailed(let fileName, _),
            .saveFailed(let fileName, _), .alreadyEnded(let fileName), .diskFull(let fileName):
            fileName
        case .folderUnusable(let path, _): path
        }
    }
}

/// Why a library item could not be found, changed or logged. Nothing is changed in any case.
public enum LibraryError: Error, Equatable, Sendable {
    case notFound(String)
    case idTooShort(String)
    case ambiguous(String)
    case invalidEdit(LibraryEditError)
    /// The time listened is negative or longer than a practice record may be.
    case listenedOutOfRange
    case negativePosition
    case invalidRecord(PracticeRecordError)
    case store(StoreError)
}

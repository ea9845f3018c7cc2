import Foundation

/// Why a backup could not be written or restored. A restore that throws has changed nothing.
public enum BackupError: Error, Sendable, Equatable {
    // The file
    case cannotRead(FileProblem)
    case cannotWrite(path: String, problem: FileProblem)
    /// Neither a ZIP archive nor a Momentum backup document.
    case notABackup
    /// A ZIP archive that cannot be read to its end: truncated or damaged.
    case damagedArchive(detail: String)
    /// An entry Momentum never writes: a path outside `library/`, with `..`, a folder, a link.
    case unexpectedEntry(path: String)
    case repeatedEntry(path: String)
    /// An entry stored compressed: Momentum's archives store audio as it is.
    case compressedEntry(path: String)
    case tooManyEntries(count: Int, limit: Int)
    /// The entries claim more bytes than the archive holds (a zip bomb), or one entry more than
    /// the library takes.
    case sizesTooLarge(claimed: Int64, limit: Int64)
    case missingDocument
    case documentTooLarge(bytes: Int64)
    case unreadableDocument(detail: String)
    case newerVersion(version: Int, supported: Int)
    /// A version this reader hands to the log import (version 1: settings and log).
    case olderVersion(version: Int)
    // The rows
    case unknownTable(String)
    /// A row of `table` (1-based) whose columns are not exactly the table's.
    case unknownColumn(table: String, row: Int, column: String)
    case missingColumn(table: String, row: Int, column: String)
    /// A row whose values break the table's rules; `reason` says which.
    case invalidRow(table: String, row: Int, reason: String)
    case repeatedID(table: String, id: String)
    // The library's files
    /// A library row whose audio is not in the archive.
    case missingFile(path: String)
    /// An audio file no library row names.
    case unreferencedFile(path: String)
    /// A file whose size or SHA-256 is not what its row says: it changed after the backup.
    case fileMismatch(path: String)
    /// Export: the library's file of an item is gone from the data directory.
    case libraryFileMissing(fileName: String)
}

/// What a backup holds, counted per kind, and (after a restore) what was added and kept.
public struct BackupContents: Sendable, Equatable, Codable {
    /// Rows per kind: `practiceLog`, `breathingPresets`, `workoutPrograms`, `focusTimers`,
    /// `checklistItems`, `morseSessions`, `morseCourse`, `library`, `settings`.
    public var counts: [String: Int]
    /// The library's audio in the archive, in bytes (0 in a JSON document).
    public var audioBytes: Int64
    /// Whether the library's audio is included (an archive) or only described (a JSON document).
    public var includesAudio: Bool

    public init(counts: [String: Int], audioBytes: Int64, includesAudio: Bool) {
        self.counts = counts
        self.audioBytes = audioBytes
        self.includesAudio = includesAudio
    }
}

/// What a restore did (or, in a dry run, would do), per kind.
public struct RestoreSummary: Sendable, Equatable, Codable {
    public var contents: BackupContents
    /// Rows added, per kind.
    public var added: [String: Int]
    /// Rows kept as they were because the data directory already had them (same id, or the
    /// same audio), per kind.
    public var kept: [String: Int]
    /// Presets and programs renamed because a different one had their name: old → new name.
    public var renamed: [String: String]
    /// Library rows of a JSON document whose audio is not here (a JSON backup has none).
    public var skippedWithoutAudio: Int
    public var dryRun: Bool

    public init(
        contents: BackupContents, added: [String: Int], kept: [String: Int], renamed: [String: String],
        skippedWithoutAudio: Int, dryRun: Bool
    ) {
        self.contents = contents
        self.added = added
        self.kept = kept
        self.renamed = renamed
        self.skippedWithoutAudio = skippedWithoutAudio
        self.dryRun = dryRun
    }
}

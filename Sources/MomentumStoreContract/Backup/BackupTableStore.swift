import Foundation
import MomentumCore

/// Where a person's backup is read from and restored into, table by table (docs/backup.md): their
/// SQLite database, or their rows of a PostgreSQL database. Both list the same document, by
/// SQLite's column names, and decide a restore by one walk (``BackupRestoreWalk``).
public protocol BackupTableStore: Sendable {
    /// Every row a person owns, per kind, column for column, in the order they were written.
    func backupRows() async throws(StoreError) -> [String: [BackupRow]]
    /// The columns a row of `kind` has, by the document's names (the same on every store: a test
    /// compares them).
    func backupColumns(of kind: BackupKind) async throws(StoreError) -> [String]
    /// Checks every row of `document` and plans what a restore adds (nothing is written).
    func planRestore(
        _ document: BackupDocumentReader, libraryFileAvailable: (LibraryItem) -> Bool,
        checkRecord: (PracticeRecord, Int) throws -> Void
    ) async throws -> BackupRestorePlan
    /// Adds every row of `document` that is not here yet, in one transaction: all of it or nothing.
    @discardableResult
    func restore(_ document: BackupDocumentReader, libraryFileAvailable: (LibraryItem) -> Bool, at now: Date)
        async throws
        -> BackupRestorePlan
}

/// What a restore adds and keeps: rows whose id (or setting key, or library audio) is not here
/// yet are added, the others kept as they are here.
public struct BackupRestorePlan: Sendable {
    public var added: [BackupKind: Int]
    public var kept: [BackupKind: Int]
    /// Presets and programs renamed because another one here has their name.
    public var renamed: [String: String]
    /// Library rows left out because their audio is not available.
    public var skippedWithoutAudio: Int
    /// The library rows to add: their audio must be in place before ``BackupTableStore/restore(_:libraryFileAvailable:at:)``.
    public var libraryItems: [LibraryItem]
    /// Every row of the backup, per kind.
    public var counts: [BackupKind: Int]

    public init() {
        (added, kept, renamed, skippedWithoutAudio, libraryItems, counts) = ([:], [:], [:], 0, [], [:])
    }
}

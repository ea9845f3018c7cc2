import Foundation
import MomentumCore

/// The sentences of backups and restores, for the terminal and the web app alike.
public enum BackupMessages {
    /// "54 practice log records, 2 breathing presets, 120 MB of audio" — kinds in a fixed order.
    public static func contents(_ counts: [String: Int], audioBytes: Int64 = 0, catalog: StringCatalog) -> String {
        var parts: [String] = []
        for kind in BackupKind.allCases {
            guard let count = counts[kind.rawValue], count > 0,
                let key = StringKey(rawValue: "backup.kind.\(kind.rawValue)")
            else { continue }
            parts.append(catalog.format(.backupCount, ["count": "\(count)", "kind": catalog[key]]))
        }
        if audioBytes > 0 {
            parts.append(catalog.format(.backupAudio, ["size": ErrorMessages.byteSizeText(audioBytes)]))
        }
        return parts.isEmpty ? catalog[.backupNothing] : parts.joined(separator: ", ")
    }

    /// What a restore did (or would do), a sentence per line.
    public static func summary(_ summary: RestoreSummary, path: String, catalog: StringCatalog) -> [String] {
        var lines = [
            catalog.format(
                .restoreHolds,
                [
                    "path": path,
                    "contents": contents(
                        summary.contents.counts, audioBytes: summary.contents.audioBytes, catalog: catalog),
                ]),
            catalog.format(
                summary.dryRun ? .restoreDryRun : .restoreDone,
                [
                    "added": contents(summary.added, catalog: catalog),
                    "kept": contents(summary.kept, catalog: catalog),
                ]),
        ]
        for (old, new) in summary.renamed.sorted(by: { $0.key < $1.key }) {
            lines.append(catalog.format(.restoreRenamed, ["old": old, "new": new]))
        }
        if summary.skippedWithoutAudio > 0 {
            lines.append(catalog.format(.restoreSkippedWithoutAudio, ["count": "\(summary.skippedWithoutAudio)"]))
        }
        return lines
    }

    /// Why a backup or restore did not happen; `path` is the backup file as the person named it.
    public static func message(for failure: BackupFailure, path: String, catalog: StringCatalog) -> String {
        switch failure {
        case .backup(let error): message(for: error, path: path, catalog: catalog)
        case .instant(let error): ErrorMessages.message(for: error, catalog: catalog)
        case .text(let error): ErrorMessages.message(for: error, catalog: catalog)
        case .store(let error): ErrorMessages.message(for: error, catalog: catalog)
        }
    }

    public static func message(for error: BackupError, path: String, catalog: StringCatalog) -> String {
        let library = BackupArchiveLayout.libraryFolder
        return switch error {
        case .cannotRead(let problem):
            catalog.format(.errorBackupCannotRead, ["path": path, "reason": problem.text(catalog)])
        case .cannotWrite(let target, let problem):
            catalog.format(.errorBackupCannotWrite, ["path": target, "reason": problem.text(catalog)])
        case .notABackup: catalog.format(.errorBackupNotABackup, ["path": path])
        case .damagedArchive: catalog.format(.errorBackupDamagedArchive, ["path": path])
        case .unexpectedEntry(let entry):
            catalog.format(.errorBackupUnexpectedEntry, ["path": path, "entry": printable(entry)])
        case .repeatedEntry(let entry):
            catalog.format(.errorBackupRepeatedEntry, ["path": path, "entry": printable(entry)])
        case .compressedEntry(let entry):
            catalog.format(.errorBackupCompressedEntry, ["path": path, "entry": printable(entry)])
        case .tooManyEntries(_, let limit):
            catalog.format(.errorBackupTooManyEntries, ["path": path, "limit": "\(limit)"])
        case .sizesTooLarge(let claimed, let limit):
            catalog.format(.errorBackupSizesTooLarge, ["path": path, "claimed": "\(claimed)", "limit": "\(limit)"])
        case .missingDocument: catalog.format(.errorBackupMissingDocument, ["path": path])
        case .documentTooLarge(let bytes): catalog.format(.errorBackupDocumentTooLarge, ["bytes": "\(bytes)"])
        case .unreadableDocument(let detail): catalog.format(.errorBackupUnreadableDocument, ["detail": detail])
        case .newerVersion(let version, let supported):
            catalog.format(
                .errorBackupNewerVersion, ["path": path, "version": "\(version)", "supported": "\(supported)"])
        case .olderVersion(let version):
            catalog.format(.errorBackupOlderVersion, ["path": path, "version": "\(version)"])
        case .unknownTable(let table): catalog.format(.errorBackupUnknownTable, ["table": printable(table)])
        case .unknownColumn(let table, let row, let column):
            catalog.format(.errorBackupUnknownColumn, ["table": table, "row": "\(row)", "column": printable(column)])
        case .missingColumn(let table, let row, let column):
            catalog.format(.errorBackupMissingColumn, ["table": table, "row": "\(row)", "column": column])
        case .invalidRow(let table, let row, let reason):
            catalog.format(.errorBackupInvalidRow, ["table": table, "row": "\(row)", "reason": printable(reason)])
        case .repeatedID(let table, let id):
            catalog.format(.errorBackupRepeatedID, ["table": table, "id": printable(id)])
        case .missingFile(let entry): catalog.format(.errorBackupMissingFile, ["path": path, "entry": entry])
        case .unreferencedFile(let entry): catalog.format(.errorBackupUnreferencedFile, ["path": path, "entry": entry])
        case .fileMismatch(let entry): catalog.format(.errorBackupFileMismatch, ["path": path, "entry": entry])
        case .libraryFileMissing(let file):
            catalog.format(.errorBackupLibraryFileMissing, ["file": library + file])
        }
    }

    /// A name from the file as it may be shown: control characters replaced, at most 200 characters.
    static func printable(_ text: String) -> String {
        let cleaned = String(
            String.UnicodeScalarView(text.unicodeScalars.map { CharacterSet.controlCharacters.contains($0) ? "�" : $0 })
        )
        return cleaned.count > 200 ? String(cleaned.prefix(200)) + "…" : cleaned
    }
}

import Foundation

/// One stored value of a backup: what an SQLite column holds.
public enum BackupValue: Sendable, Hashable, Codable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let real = try? container.decode(Double.self) {
            guard real.isFinite else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a finite number")
            }
            self = .real(real)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a number, a text or null")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .integer(let value): try container.encode(value)
        case .real(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        }
    }
}

/// One stored row of a backup: column name → value.
public typealias BackupRow = [String: BackupValue]

/// The JSON document of a backup (version 2): every row a person owns, table by table, column
/// for column, so nothing they keep can be left out. Access tokens, sign-in sessions and the
/// sync replica's state are the machine's, not the person's, and are never written.
///
/// In an archive the document is `momentum-backup.json`, beside the library's audio under
/// `library/`, each file named as its row's `fileName` and checked against its `contentHash`
/// (SHA-256). Version 1 (settings and log only) is read by ``PracticeBackup``.
public struct BackupDocument: Sendable, Equatable, Codable {
    public static let formatName = PracticeBackup.formatName
    public static let currentVersion = 2
    /// The largest document read: 20 years of daily practice are about 10 MB.
    public static let maximumBytes: Int64 = 256 * 1024 * 1024

    public var format: String
    public var version: Int
    public var tables: [String: [BackupRow]]

    public init(tables: [String: [BackupRow]]) {
        format = Self.formatName
        version = Self.currentVersion
        self.tables = tables
    }

    /// Pretty-printed JSON with sorted keys and no time stamp of its own: equal data, equal file.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Only numbers, texts and nulls; a non-finite number cannot be stored, so none is here.
        return ((try? encoder.encode(self)) ?? Data()) + Data("\n".utf8)
    }

    /// Reads a version 2 document held in memory (``BackupDocumentReader`` reads one from a
    /// file without holding it); names what is wrong when it cannot.
    public static func decode(_ data: Data) throws(BackupError) -> BackupDocument {
        do {
            return try BackupDocumentReader(data: data).document()
        } catch let error as BackupError {
            throw error
        } catch {
            throw .unreadableDocument(detail: "\(error)")
        }
    }
}

/// What a backup holds, by the name the backup document gives each kind of row.
///
/// The store keeps each in one table; every table is either a kind here or one of the
/// machine's own (a test checks it), so a table added later cannot be left out unnoticed.
public enum BackupKind: String, Sendable, CaseIterable, Codable {
    // In the order a restore inserts them: a checklist item after its timer.
    case settings, practiceLog, breathingPresets, meditationPresets, workoutPrograms, focusTimers, checklistItems
    case morseCourse, morseSessions, library
    /// The person's own view of the household's library (`LibraryPersonalView`).
    case libraryViews
}

/// Where things are in a backup archive.
public enum BackupArchiveLayout {
    /// The document's path in the archive.
    public static let documentPath = "momentum-backup.json"
    /// The folder of the library's audio.
    public static let libraryFolder = "library/"
    /// The most entries an archive may have (the document and one file per library item).
    public static let maximumEntries = 100_000

    /// What a path in an archive is: the document, a library file (its `fileName`), or nothing
    /// Momentum writes — refused. Only exact names pass: no `..`, no leading `/`, no `\`,
    /// no folders, no other extension.
    public enum Entry: Sendable, Equatable {
        case document
        case libraryFile(fileName: String)
    }

    public static func entry(at path: String) -> Entry? {
        if path == documentPath { return .document }
        guard path.hasPrefix(libraryFolder) else { return nil }
        let name = String(path.dropFirst(libraryFolder.count))
        return isLibraryFileName(name) ? .libraryFile(fileName: name) : nil
    }

    /// `<lowercase uuid>.<mp3|m4a|wav>`: the only names the library gives its files.
    public static func isLibraryFileName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, LibraryAudioFormat(rawValue: String(parts[1])) != nil,
            let id = UUID(uuidString: String(parts[0]))
        else { return false }
        return id.uuidString.lowercased() == parts[0]
    }
}

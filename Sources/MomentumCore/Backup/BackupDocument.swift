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
        } else if let integer = try? container.decode(Int64.self) {  // try?: not this shape: try the next
            self = .integer(integer)
        } else if let real = try? container.decode(Double.self) {  // try?: not this shape: try the next
            guard real.isFinite else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a finite number")
            }
            self = .real(real)
        } else if let text = try? container.decode(String.self) {  // try?: not this shape: try the next
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
    ///
    /// JSON has no NaN or infinity, and a REAL column of SQLite can hold an infinity (Momentum
    /// never writes one; a database changed by other means may): such a value is refused as
    /// ``BackupError/invalidRow(table:row:reason:)``, naming its column, rather than written
    /// as something else or left out.
    public func encoded() throws(BackupError) -> Data {
        for (table, rows) in tables.sorted(by: { $0.key < $1.key }) {
            for (index, row) in rows.enumerated() {
                for (column, value) in row.sorted(by: { $0.key < $1.key }) {
                    guard case .real(let real) = value, !real.isFinite else { continue }
                    throw .invalidRow(
                        table: table, row: index + 1, reason: "\(column) holds \(real), which JSON cannot hold")
                }
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self) + Data("\n".utf8)
        } catch {
            // JSONEncoder refuses only non-finite numbers, and the loop above let none through:
            // everything else here is a string, an Int, an Int64 or null.
            preconditionFailure("a backup document JSON cannot hold: \(error)")
        }
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
    /// Quiet daily trackers, and their answered days (each after its tracker).
    case trackers, trackerDays
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

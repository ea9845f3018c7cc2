import Foundation

/// One record read from an imported file, with where it came from.
public struct ImportedRecord: Sendable, Equatable {
    public var record: PracticeRecord
    /// The CSV line or backup position, for messages.
    public var row: Int
    /// Whether the id came from the file (then the id recognizes a duplicate), or was made here
    /// (then the kind and the minute of the start do).
    public var hasOwnID: Bool
    /// When the record was first written and last changed, kept by backups.
    public var createdAt: Date?
    public var updatedAt: Date?

    public init(record: PracticeRecord, row: Int, hasOwnID: Bool, createdAt: Date? = nil, updatedAt: Date? = nil) {
        self.record = record
        self.row = row
        self.hasOwnID = hasOwnID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A file read for import: which format it was, its records and (for a backup) settings.
public struct PracticeLogImport: Sendable, Equatable {
    public enum Format: String, Sendable, Equatable {
        case backup, csv
        case meditationAssistant = "meditation-assistant"
    }

    public var format: Format
    public var records: [ImportedRecord]
    /// The settings a backup restores.
    public var settings: MomentumSettings?

    /// The largest file import reads: far above 20 years of practice (about 5 MB as JSON).
    public static let maximumFileBytes: Int64 = 64 * 1024 * 1024

    /// Reads `data`, recognizing the format by its content: a JSON object is a backup, a CSV is
    /// known by its header. Throws without a partial result when anything is wrong.
    public init(data: Data, device: String, makeID: () -> UUID) throws(ImportFileError) {
        guard Int64(data.count) <= Self.maximumFileBytes else {
            throw .tooLarge(bytes: Int64(data.count), limit: Self.maximumFileBytes)
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .notText }
        let start = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        guard let first = start.first else { throw .empty }
        if first == "{" {
            let (settings, records) = try PracticeBackup.decode(Data(start.utf8))
            self.init(format: .backup, records: records, settings: settings)
            return
        }
        let rows: [CSV.Record]
        do {
            rows = try CSV.parse(text)
        } catch {
            throw .malformedCSV(error)
        }
        guard let header = rows.first else { throw .empty }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if names == PracticeLogCSV.columns {
            self.init(
                format: .csv, records: try PracticeLogCSV.records(rows.dropFirst(), device: device, makeID: makeID),
                settings: nil)
        } else if names == MeditationAssistantCSV.columns {
            self.init(
                format: .meditationAssistant,
                records: try MeditationAssistantCSV.records(rows.dropFirst(), makeID: makeID), settings: nil)
        } else if header.fields.count > 1 {
            throw .wrongColumns(found: header.fields)
        } else {
            throw .unrecognized(firstLine: String(text.prefix { $0 != "\n" && $0 != "\r" }.prefix(80)))
        }
    }

    init(format: Format, records: [ImportedRecord], settings: MomentumSettings?) {
        self.format = format
        self.records = records
        self.settings = settings
    }

    /// Splits the records into new ones and duplicates of what the log already holds (or of an
    /// earlier row of the same file): the same id, or — for rows without their own id — the same
    /// kind starting in the same minute.
    public func plan(existing: [PracticeRecord]) -> (new: [ImportedRecord], duplicates: [ImportedRecord]) {
        var ids = Set(existing.map(\.id))
        var minutes = Set(existing.map { MinuteKey($0) })
        var new: [ImportedRecord] = []
        var duplicates: [ImportedRecord] = []
        for imported in records {
            let key = MinuteKey(imported.record)
            let isDuplicate = imported.hasOwnID ? ids.contains(imported.record.id) : minutes.contains(key)
            if isDuplicate {
                duplicates.append(imported)
            } else {
                new.append(imported)
                ids.insert(imported.record.id)
                minutes.insert(key)
            }
        }
        return (new, duplicates)
    }

    private struct MinuteKey: Hashable {
        var kind: PracticeKind
        var minute: Int64
        init(_ record: PracticeRecord) {
            kind = record.kind
            minute = Int64((record.start.timeIntervalSince1970 / 60).rounded(.down))
        }
    }
}

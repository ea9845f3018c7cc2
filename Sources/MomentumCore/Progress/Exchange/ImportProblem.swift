import Foundation

/// What is wrong with one row of an imported file. Every bad row is named; nothing is imported
/// while any is left.
public struct ImportProblem: Error, Sendable, Equatable {
    /// The CSV line the row starts on, or the 1-based position of the record in a JSON backup.
    public var row: Int
    /// The column or field, as the file names it.
    public var field: String?
    public var reason: Reason

    public init(row: Int, field: String?, reason: Reason) {
        self.row = row
        self.field = field
        self.reason = reason
    }

    public enum Reason: Sendable, Equatable {
        case missingValue
        case unknownKind(String)
        case invalidInstant(String)
        case invalidNumber(String)
        /// Meditation Assistant's `HH:MM` length.
        case invalidLength(String)
        case invalidID(String)
        case invalidDetails
        case invalidEnergy
        case endsBeforeItStarts
        case longerThanADay
        case negativeCountedTime
        case countsMoreThanItLasted
        /// The same id twice in one file.
        case repeatedID(String)
        case wrongFieldCount(expected: Int, found: Int)
    }
}

/// Why a file cannot be imported at all. The log and settings are left exactly as they were.
public enum ImportFileError: Error, Sendable, Equatable {
    case tooLarge(bytes: Int64, limit: Int64)
    case notText
    case empty
    /// Neither a Momentum backup nor a CSV with known columns; carries the first line.
    case unrecognized(firstLine: String)
    case malformedCSV(CSV.ParseError)
    /// A CSV whose header is not one of the known ones.
    case wrongColumns(found: [String])
    case unreadableJSON(detail: String)
    /// JSON, but not a Momentum backup.
    case notABackup
    case newerBackup(version: Int, supported: Int)
    /// A setting in a backup that cannot be used; `path` names it.
    case invalidSettings(path: String, detail: String)
    /// Bad rows: CSV lines, or records of a backup (`inBackup`).
    case invalidRows([ImportProblem], inBackup: Bool)
}

/// Collects the problems of one row while its fields are read.
struct RowReader {
    let row: Int
    private(set) var problems: [ImportProblem] = []

    init(row: Int) { self.row = row }

    /// Reads every CSV row with `read` (rows with the wrong number of fields are problems of
    /// their own) and throws all problems together, or returns every record.
    static func readAll(
        _ rows: ArraySlice<CSV.Record>, fieldCount: Int, _ read: (CSV.Record, inout RowReader) -> ImportedRecord?
    ) throws(ImportFileError) -> [ImportedRecord] {
        var imported: [ImportedRecord] = []
        var problems: [ImportProblem] = []
        for row in rows {
            var reader = RowReader(row: row.line)
            guard row.fields.count == fieldCount else {
                reader.report(nil, .wrongFieldCount(expected: fieldCount, found: row.fields.count))
                problems += reader.problems
                continue
            }
            let record = read(row, &reader)
            problems += reader.problems
            if let record, reader.problems.isEmpty { imported.append(record) }
        }
        guard problems.isEmpty else { throw .invalidRows(problems, inBackup: false) }
        return imported
    }

    mutating func report(_ field: String?, _ reason: ImportProblem.Reason) {
        problems.append(ImportProblem(row: row, field: field, reason: reason))
    }

    /// A required text: `nil` (and a problem) when empty.
    mutating func required(_ text: String?, _ field: String) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            report(field, .missingValue)
            return nil
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    mutating func kind(_ text: String?, _ field: String) -> PracticeKind? {
        guard let text = required(text, field) else { return nil }
        guard let kind = PracticeKind(rawValue: text.lowercased()) else {
            report(field, .unknownKind(text))
            return nil
        }
        return kind
    }

    mutating func instant(_ text: String?, _ field: String, assumedTimeZone: TimeZone? = nil) -> Date? {
        guard let text = required(text, field) else { return nil }
        guard let date = InstantText.parse(text, assumedTimeZone: assumedTimeZone) else {
            report(field, .invalidInstant(text))
            return nil
        }
        return date
    }

    mutating func id(_ text: String?, _ field: String) -> UUID? {
        guard let text = required(text, field) else { return nil }
        guard let id = UUID(uuidString: text) else {
            report(field, .invalidID(text))
            return nil
        }
        return id
    }

    /// Builds the record once its fields were read, checking the rules every record obeys.
    mutating func record(
        id: UUID?, kind: PracticeKind?, start: Date?, end: Date?, countedSeconds: Int?, energyKilocalories: Double?,
        details: [String: String], device: String, fields: RecordFieldNames
    ) -> PracticeRecord? {
        guard problems.isEmpty, let id, let kind, let start, let end, let countedSeconds else { return nil }
        if end.timeIntervalSince(start) > PracticeRecord.maximumLength
            || Double(countedSeconds) > PracticeRecord.maximumLength
        {
            report(fields.counted, .longerThanADay)
            return nil
        }
        do {
            return try PracticeRecord(
                id: id, kind: kind, start: start, end: end, countedSeconds: countedSeconds,
                energyKilocalories: energyKilocalories, details: details, device: device)
        } catch {
            switch error {
            case .endsBeforeItStarts: report(fields.end, .endsBeforeItStarts)
            case .negativeCountedTime: report(fields.counted, .negativeCountedTime)
            case .countsMoreThanItLasted: report(fields.counted, .countsMoreThanItLasted)
            case .invalidEnergy: report(fields.energy, .invalidEnergy)
            }
            return nil
        }
    }

    /// How a file names the fields that record-level rules are about.
    struct RecordFieldNames {
        var end: String
        var counted: String
        var energy: String
    }
}

import Foundation

/// A JSON backup of everything a person keeps: settings and the whole practice log, with when
/// each record was written and changed. Importing it into an empty data directory restores an
/// identical state; exporting again gives an identical file.
///
/// Later issues add their data (presets, programs, Morse progress …) as new fields and raise
/// ``currentVersion`` when an older Momentum could not read the file.
public struct PracticeBackup: Sendable, Equatable, Codable {
    public static let formatName = "momentum-backup"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    public var settings: MomentumSettings
    public var practiceLog: [Record]

    /// One record of the log, as the file writes it (instants in UTC with milliseconds).
    public struct Record: Sendable, Equatable, Codable {
        public var id: String
        public var kind: String
        public var start: String
        public var end: String
        public var countedSeconds: Int
        public var energyKilocalories: Double?
        public var details: [String: String]
        public var device: String
        public var createdAt: String
        public var updatedAt: String
    }

    public init(settings: MomentumSettings, log: [LoggedRecord]) {
        format = Self.formatName
        version = Self.currentVersion
        self.settings = settings
        practiceLog = log.map { logged in
            let record = logged.record
            return Record(
                id: record.id.uuidString.lowercased(), kind: record.kind.rawValue,
                start: InstantText.format(record.start), end: InstantText.format(record.end),
                countedSeconds: record.countedSeconds, energyKilocalories: record.energyKilocalories,
                details: record.details, device: record.device, createdAt: InstantText.format(logged.createdAt),
                updatedAt: InstantText.format(logged.updatedAt))
        }
    }

    /// The backup as pretty-printed JSON with sorted keys, so equal states give equal files.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self) + Data("\n".utf8)
        } catch {
            // JSONEncoder refuses only non-finite numbers. The two numbers here that are not
            // integers are finite on every way in: a record's energy (PracticeRecord.init takes
            // 0…maximumEnergyKilocalories only) and the meditation's ambient volume (0…1, checked
            // by MomentumSettings.set and MeditationPlan.validate; decoded JSON has no NaN or
            // infinity). An empty file in its place would have lost the whole log.
            preconditionFailure("a practice backup JSON cannot hold: \(error)")
        }
    }

    /// Reads a backup: the format and version first (so a newer file is named as such even when
    /// its shape changed), then settings and every record, naming each bad one.
    public static func decode(_ data: Data) throws(ImportFileError) -> (settings: MomentumSettings, [ImportedRecord]) {
        struct Header: Decodable {
            var format: String?
            var version: Int?
        }
        let decoder = JSONDecoder()
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: data)
        } catch {
            throw .unreadableJSON(detail: Self.describe(error))
        }
        guard header.format == formatName, let version = header.version else { throw .notABackup }
        guard version <= currentVersion else { throw .newerBackup(version: version, supported: currentVersion) }
        let backup: PracticeBackup
        do {
            backup = try StrictJSON.decode(PracticeBackup.self, from: data, using: decoder)
        } catch JSONInputError.unknownField(let field) {
            throw .unreadableJSON(detail: "\(field): not a field of a backup")
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.first?.stringValue == "settings" {
            throw .invalidSettings(path: Self.path(context.codingPath), detail: context.debugDescription)
        } catch {
            throw .unreadableJSON(detail: Self.describe(error))
        }
        return (backup.settings, try backup.records())
    }

    private func records() throws(ImportFileError) -> [ImportedRecord] {
        var imported: [ImportedRecord] = []
        var problems: [ImportProblem] = []
        var seen: Set<UUID> = []
        for (index, entry) in practiceLog.enumerated() {
            var reader = RowReader(row: index + 1)
            let id = reader.id(entry.id, "id")
            if let id, !seen.insert(id).inserted { reader.report("id", .repeatedID(entry.id)) }
            let kind = reader.kind(entry.kind, "kind")
            let start = reader.instant(entry.start, "start")
            let end = reader.instant(entry.end, "end")
            let createdAt = reader.instant(entry.createdAt, "createdAt")
            let updatedAt = reader.instant(entry.updatedAt, "updatedAt")
            let record = reader.record(
                id: id, kind: kind, start: start, end: end, countedSeconds: entry.countedSeconds,
                energyKilocalories: entry.energyKilocalories, details: entry.details, device: entry.device,
                fields: .init(end: "end", counted: "countedSeconds", energy: "energyKilocalories"))
            problems += reader.problems
            if let record, let createdAt, let updatedAt {
                imported.append(
                    ImportedRecord(
                        record: record, row: index + 1, hasOwnID: true, createdAt: createdAt, updatedAt: updatedAt))
            }
        }
        guard problems.isEmpty else { throw .invalidRows(problems, inBackup: true) }
        return imported
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            .trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            let path = path(context.codingPath)
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, let context):
            let path = path(context.codingPath + [key])
            return "\(path): missing"
        default:
            return "\(error)"
        }
    }
}

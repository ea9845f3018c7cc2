import Foundation

/// The practice log as CSV, one row per record:
/// `id,kind,start,end,counted_seconds,energy_kcal,details,device`.
///
/// Instants carry their UTC offset (`2027-01-15T09:00:00.000+01:00`), written in the person's
/// time zone so a spreadsheet shows local times; `details` is a JSON object (empty when there
/// are none). Reading accepts an empty `id` (a new one is made) and an empty `device`.
public enum PracticeLogCSV {
    public static let columns = ["id", "kind", "start", "end", "counted_seconds", "energy_kcal", "details", "device"]

    /// The whole log as CSV text with a header line.
    public static func export(_ records: [PracticeRecord], timeZone: TimeZone) -> String {
        var text = CSV.line(columns)
        for record in records {
            text += CSV.line([
                record.id.uuidString.lowercased(),
                record.kind.rawValue,
                InstantText.format(record.start, timeZone: timeZone),
                InstantText.format(record.end, timeZone: timeZone),
                String(record.countedSeconds),
                record.energyKilocalories.map { String($0) } ?? "",
                detailsText(record.details),
                record.device,
            ])
        }
        return text
    }

    /// Reads the rows after the header (which the caller has recognized).
    static func records(
        _ rows: ArraySlice<CSV.Record>, device: String, makeID: () -> UUID
    ) throws(ImportFileError) -> [ImportedRecord] {
        return try RowReader.readAll(rows, fieldCount: columns.count) { row, reader in
            let field = Dictionary(uniqueKeysWithValues: zip(columns, row.fields))
            let idText = field["id", default: ""].trimmingCharacters(in: .whitespaces)
            let id = idText.isEmpty ? makeID() : reader.id(idText, "id")
            let kind = reader.kind(field["kind"], "kind")
            let start = reader.instant(field["start"], "start")
            let end = reader.instant(field["end"], "end")
            var counted: Int?
            if let text = reader.required(field["counted_seconds"], "counted_seconds") {
                counted = Int(text)
                if counted == nil { reader.report("counted_seconds", .invalidNumber(text)) }
            }
            var energy: Double?
            let energyText = field["energy_kcal", default: ""].trimmingCharacters(in: .whitespaces)
            if !energyText.isEmpty {
                energy = Double(energyText)
                if energy == nil { reader.report("energy_kcal", .invalidNumber(energyText)) }
            }
            let details = Self.details(field["details", default: ""])
            if details == nil { reader.report("details", .invalidDetails) }
            let deviceText = field["device", default: ""].trimmingCharacters(in: .whitespaces)
            let record = reader.record(
                id: id, kind: kind, start: start, end: end, countedSeconds: counted, energyKilocalories: energy,
                details: details ?? [:], device: deviceText.isEmpty ? device : deviceText,
                fields: .init(end: "end", counted: "counted_seconds", energy: "energy_kcal"))
            return record.map { ImportedRecord(record: $0, row: row.line, hasOwnID: !idText.isEmpty) }
        }
    }

    static func detailsText(_ details: [String: String]) -> String {
        guard !details.isEmpty else { return "" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(details), as: UTF8.self)
        } catch {
            // JSONEncoder refuses only non-finite numbers, and an object of strings holds none.
            preconditionFailure("details JSON cannot hold: \(error)")
        }
    }

    static func details(_ text: String) -> [String: String]? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return [:] }
        // try?: `nil` is the answer for text that is not an object of strings; the import reports
        // it for its row (`invalidDetails`).
        return try? JSONDecoder().decode([String: String].self, from: Data(trimmed.utf8))
    }
}

/// The log of another meditation timer, Meditation Assistant (Android), as its "Export sessions"
/// writes it: `ID,Length,Started,Completed,Message`, length as `HH:MM`, times as
/// `yyyy-MM-dd HH:mm` in UTC.
public enum MeditationAssistantCSV {
    /// The header as Meditation Assistant writes it; files are matched case-insensitively.
    public static let header = ["ID", "Length", "Started", "Completed", "Message"]
    public static let columns = header.map { $0.lowercased() }
    public static let device = "Meditation Assistant"

    static func records(_ rows: ArraySlice<CSV.Record>, makeID: () -> UUID) throws(ImportFileError)
        -> [ImportedRecord]
    {
        let utc = TimeZone(secondsFromGMT: 0)
        return try RowReader.readAll(rows, fieldCount: columns.count) { row, reader in
            let length = reader.required(row.fields[1], "Length").flatMap { text -> Int? in
                guard let seconds = lengthSeconds(text) else {
                    reader.report("Length", .invalidLength(text))
                    return nil
                }
                return seconds
            }
            let start = reader.instant(row.fields[2], "Started", assumedTimeZone: utc)
            let end = reader.instant(row.fields[3], "Completed", assumedTimeZone: utc)
            let message = row.fields[4].trimmingCharacters(in: .whitespacesAndNewlines)
            var details = ["source": device]
            if !message.isEmpty { details["note"] = message }
            let record = reader.record(
                id: makeID(), kind: .meditation, start: start, end: end, countedSeconds: length,
                energyKilocalories: nil, details: details, device: device,
                fields: .init(end: "Completed", counted: "Length", energy: "Length"))
            return record.map { ImportedRecord(record: $0, row: row.line, hasOwnID: false) }
        }
    }

    /// `HH:MM` (hours may have one or more digits) in seconds.
    static func lengthSeconds(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) && $0.count <= 4 }),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), minutes < 60
        else { return nil }
        return hours * 3600 + minutes * 60
    }
}

import Foundation
import MomentumCore
import MomentumStoreContract

/// Export of the log (JSON backup, CSV, iCalendar) and import of backups and CSV logs.
///
/// An import reads and checks the whole file first; only a file without a single bad row is
/// written, in one transaction, so a failed import leaves the data exactly as it was.
public struct ExchangeService: Sendable {
    private let log: any PracticeLogRepository
    private let settings: SettingsService
    private let systemTimeZone: TimeZone
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID
    private let device: String

    public init(
        log: any PracticeLogRepository, settings: SettingsService, systemTimeZone: TimeZone,
        now: @escaping @Sendable () -> Date, makeID: @escaping @Sendable () -> UUID, device: String
    ) {
        self.log = log
        self.settings = settings
        self.systemTimeZone = systemTimeZone
        self.now = now
        self.makeID = makeID
        self.device = device
    }

    /// `json` is the version 1 backup document (settings and log only), which `momentum import`
    /// still reads; the whole backup is ``BackupService``'s.
    public enum ExportFormat: String, Sendable, CaseIterable {
        case json, csv, ics
    }

    /// The export in `format` and how many records it holds.
    public func export(_ format: ExportFormat, catalog: StringCatalog) async throws(StoreError) -> (
        data: Data, count: Int
    ) {
        let logged = try await log.loggedRecords()
        switch format {
        case .json:
            return (PracticeBackup(settings: try await settings.load(), log: logged).encoded(), logged.count)
        case .csv:
            let zone = try await settings.load().progress.dayCalendar(systemTimeZone: systemTimeZone).timeZone
            return (Data(PracticeLogCSV.export(logged.map(\.record), timeZone: zone).utf8), logged.count)
        case .ics:
            return (Data(PracticeLogCalendar.export(logged, catalog: catalog).utf8), logged.count)
        }
    }

    /// Imports the file at `url`; with `dryRun`, only reports what would happen.
    public func importFile(at url: URL, dryRun: Bool) async throws(ImportError) -> ImportSummary {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .cannotRead(.missing)
        }
        guard !isDirectory.boolValue else { throw .cannotRead(.isFolder) }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try files.attributesOfItem(atPath: url.path)
        } catch {
            throw .cannotRead(FileProblem(error))
        }
        guard let size = (attributes[.size] as? NSNumber)?.int64Value else { throw .cannotRead(.other) }
        // Refused before reading: a 2 GB file is never loaded into memory.
        guard size <= PracticeLogImport.maximumFileBytes else {
            throw .file(.tooLarge(bytes: size, limit: PracticeLogImport.maximumFileBytes))
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .cannotRead(FileProblem(error))
        }
        return try await importData(data, dryRun: dryRun)
    }

    /// Imports a file's contents; with `dryRun`, only reports what would happen.
    public func importData(_ data: Data, dryRun: Bool) async throws(ImportError) -> ImportSummary {
        let file: PracticeLogImport
        do {
            file = try PracticeLogImport(data: data, device: device, makeID: makeID)
        } catch {
            throw .file(error)
        }
        try Self.checkInstantsAndTexts(of: file.records.map(\.record), now: now())
        do {
            let plan = await file.plan(existing: try log.practiceRecords(matching: PracticeLogQuery()))
            let summary = ImportSummary(
                format: file.format, total: file.records.count, imported: plan.new.count,
                duplicates: plan.duplicates.count, restoresSettings: file.settings != nil, dryRun: dryRun)
            guard !dryRun else { return summary }
            let time = now()
            let records = plan.new.map {
                LoggedRecord(record: $0.record, createdAt: $0.createdAt ?? time, updatedAt: $0.updatedAt ?? time)
            }
            try await log.importLog(records, settingValues: file.settings?.storedValues ?? [:], at: time)
            return summary
        } catch {
            throw .store(error)
        }
    }
}

extension ExchangeService {
    /// Refuses a file with a record before 1970 or over a day ahead, or a detail holding a
    /// control character: the log could not sync such a record.
    static func checkInstantsAndTexts(of records: [PracticeRecord], now: Date) throws(ImportError) {
        let window = InstantWindow.record(now: now)
        for (index, record) in records.enumerated() { try checkInstantsAndTexts(of: record, index: index, in: window) }
    }

    /// One record's instants and detail texts; `index` names it in the message (`records[3]`).
    static func checkInstantsAndTexts(
        of record: PracticeRecord, index: Int, in window: InstantWindow
    ) throws(ImportError) {
        do {
            try window.check(record.start, field: "records[\(index)].start")
            try window.check(record.end, field: "records[\(index)].end")
        } catch {
            throw .instant(error)
        }
        do {
            for (key, value) in record.details.sorted(by: { $0.key < $1.key }) {
                try TextInput.check(key, field: "records[\(index)].details")
                try TextInput.check(value, field: "records[\(index)].details.\(key)", lines: .multiple)
            }
        } catch {
            throw .text(error)
        }
    }
}

/// What an import did (or, in a dry run, would do).
public struct ImportSummary: Sendable, Equatable, Codable {
    public var format: PracticeLogImport.Format
    /// Records in the file.
    public var total: Int
    /// Records added (or that would be).
    public var imported: Int
    /// Records skipped because the log already holds them.
    public var duplicates: Int
    /// Whether the file's settings replace the current ones (backups do).
    public var restoresSettings: Bool
    public var dryRun: Bool
}

extension PracticeLogImport.Format: Codable {}

/// Why an import did not happen. Nothing was changed.
public enum ImportError: Error, Sendable, Equatable {
    case cannotRead(FileProblem)
    case file(ImportFileError)
    /// A record lies outside ``InstantWindow/record(now:)``.
    case instant(InstantWindowError)
    /// A record's detail holds a control character.
    case text(TextInputError)
    case store(StoreError)
}

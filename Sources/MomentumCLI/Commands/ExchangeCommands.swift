import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum export`: the log as a JSON backup, CSV or iCalendar file.
struct Export: ContextualCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export your practice: a JSON backup of everything, the log as CSV, or an iCalendar file.",
        discussion: """
            json: settings and every record, for `momentum import` (restores an identical state).
            csv: one row per record (id,kind,start,end,counted_seconds,energy_kcal,details,device).
            ics: one calendar event per session, for calendar apps.
            """)

    @Option(help: ArgumentHelp("json, csv or ics.", valueName: "format"))
    var format: ExchangeService.ExportFormat = .json

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("Write to this file (default: standard output).", valueName: "file"))
    var output: String?

    @OptionGroup var common: CommonOptions

    func run(in context: CommandContext) async throws {
        try await context.withSession(common) { session in
            let catalog = session.catalog
            let (data, count) = try session.services.exchange.export(format, catalog: catalog)
            guard let output else {
                context.output.write(String(decoding: data, as: UTF8.self))
                return
            }
            do {
                try data.write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw CommandFailure(
                    catalog.format(.errorExportCannotWrite, ["path": output, "reason": error.localizedDescription]))
            }
            let records = catalog.counted(count, one: .importOneRecord, many: .importRecords)
            context.output.write(catalog.format(.exportWritten, ["count": records, "path": output]) + "\n")
        }
    }
}

extension ExchangeService.ExportFormat: ExpressibleByArgument {}

/// `momentum import FILE`: a Momentum backup or CSV, or a Meditation Assistant CSV.
struct Import: ContextualCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import a Momentum backup or CSV log, or a CSV exported by Meditation Assistant.",
        discussion: """
            The format is recognized from the file. Records already in the log are skipped. A file \
            with any bad row imports nothing and names every bad row. A backup also restores the \
            settings it holds.
            """)

    @Argument(help: ArgumentHelp("The file to import.", valueName: "file"))
    var file: String

    @Flag(help: "Only report what would be imported; change nothing.")
    var dryRun = false

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @OptionGroup var common: CommonOptions

    func run(in context: CommandContext) async throws {
        try await context.withSession(common) { session in
            let catalog = session.catalog
            let summary: ImportSummary
            do throws(ImportError) {
                summary = try session.services.exchange.importFile(at: URL(fileURLWithPath: file), dryRun: dryRun)
            } catch {
                switch error {
                case .cannotRead(let reason):
                    throw CommandFailure(catalog.format(.errorImportCannotRead, ["path": file, "reason": reason]))
                case .store(let store): throw store
                case .instant(let instant): throw CommandFailure(ErrorMessages.message(for: instant, catalog: catalog))
                case .text(let text): throw CommandFailure(ErrorMessages.message(for: text, catalog: catalog))
                case .file(let fileError):
                    var lines = ["momentum: " + fileError.message(path: file, catalog: catalog)]
                    lines += fileError.problemLines(catalog: catalog).map { "  " + $0 }
                    context.errors.write(lines.joined(separator: "\n") + "\n")
                    throw ExitCode.failure
                }
            }
            if json {
                context.output.write(try JSONOutput.encode(summary) + "\n")
                return
            }
            context.output.write(Self.text(summary, path: file, catalog: catalog))
        }
    }

    static func text(_ summary: ImportSummary, path: String, catalog: StringCatalog) -> String {
        let format: StringKey =
            switch summary.format {
            case .backup: .importFormatBackup
            case .csv: .importFormatCSV
            case .meditationAssistant: .importFormatMeditationAssistant
            }
        func records(_ count: Int) -> String { catalog.counted(count, one: .importOneRecord, many: .importRecords) }
        let key: StringKey =
            switch (summary.dryRun, summary.duplicates > 0) {
            case (true, true): .importDryRun
            case (true, false): .importDryRunNoDuplicates
            case (false, true): .importDone
            case (false, false): .importDoneNoDuplicates
            }
        var text = catalog.format(
            key,
            [
                "path": path, "format": catalog[format], "imported": records(summary.imported),
                "duplicates": records(summary.duplicates),
            ])
        if summary.restoresSettings {
            text += "\n" + catalog[summary.dryRun ? .importSettingsWouldRestore : .importSettingsRestored]
        }
        return text + "\n"
    }
}

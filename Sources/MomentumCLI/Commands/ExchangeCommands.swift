import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices
import MomentumStoreContract

/// `momentum export`: a whole backup (ZIP archive or JSON), or the log as CSV or iCalendar.
struct Export: ContextualCommand {
    static let configuration = CommandConfiguration(
        abstract: "Back up everything (a ZIP archive or JSON), or export the log as CSV or iCalendar.",
        discussion: """
            archive: one ZIP file with everything you keep, for `momentum import` — settings (with \
            reminders), the practice log, saved sits, breathing presets, workout programs, focus timers with \
            their checklists, notes and run state, the Morse course (progress, statistics, schedule, \
            history, course settings, call sign) and the guided-meditation library (titles, edits, \
            positions, ambient marks) with its audio files, each checked by SHA-256. Chosen by \
            `-o FILE.zip`.
            json: the same document without the audio (library items carry their SHA-256). The \
            default.
            Not exported: access tokens, sign-in sessions and this machine's sync identity.
            csv: one row per record (id,kind,start,end,counted_seconds,energy_kcal,details,device).
            ics: one calendar event per session, for calendar apps.
            """)

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case archive, json, csv, ics
    }

    @Option(
        help: ArgumentHelp("archive, json, csv or ics (default: archive for -o *.zip, else json).", valueName: "format")
    )
    var format: Format?

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("Write to this file (default, or -: standard output).", valueName: "file"))
    var output: String?

    @OptionGroup var common: CommonOptions

    func run(in context: CommandContext) async throws {
        let format = format ?? (output?.lowercased().hasSuffix(".zip") == true ? .archive : .json)
        try await context.withSession(common) { session in
            let catalog = session.catalog
            switch format {
            case .archive, .json:
                guard let output else {
                    guard format == .json else { throw CommandFailure(catalog[.backupArchiveNeedsFile]) }
                    let json = try await Self.backup(catalog) { () async throws(BackupFailure) -> Data in
                        let document = try await session.services.backup.document()
                        do throws(BackupError) {
                            return try document.encoded()
                        } catch {
                            throw .backup(error)
                        }
                    }
                    context.output.write(String(decoding: json, as: UTF8.self))
                    return
                }
                let target = OutputTarget(output)
                let contents = try await target.write(to: context, catalog: catalog) { url in
                    try await Self.backup(catalog) { () async throws(BackupFailure) in
                        await format == .archive
                            ? try session.services.backup.writeArchive(to: url)
                            : try session.services.backup.writeDocument(to: url)
                    }
                }
                let summary = BackupMessages.contents(
                    contents.counts, audioBytes: contents.audioBytes, catalog: catalog)
                var text = catalog.format(.backupWritten, ["path": target.name(catalog), "contents": summary]) + "\n"
                if format == .json, contents.counts[BackupKind.library.rawValue] != nil {
                    text += catalog[.backupWrittenWithoutAudio] + "\n"
                }
                target.confirmations(context).write(text)
            case .csv, .ics:
                let exchangeFormat: ExchangeService.ExportFormat = format == .csv ? .csv : .ics
                let (data, count) = try await session.services.exchange.export(exchangeFormat, catalog: catalog)
                guard let output else {
                    context.output.write(String(decoding: data, as: UTF8.self))
                    return
                }
                let target = OutputTarget(output)
                try await target.write(to: context, catalog: catalog) { url in try data.write(to: url, options: .atomic)
                }
                let records = catalog.counted(count, one: .importOneRecord, many: .importRecords)
                target.confirmations(context).write(
                    catalog.format(.exportWritten, ["count": records, "path": target.name(catalog)]) + "\n")
            }
        }
    }

    /// A backup's failure in the person's words; a failure to write is left for ``OutputTarget``
    /// to say in its one sentence.
    private static func backup<T>(_ catalog: StringCatalog, _ work: () async throws(BackupFailure) -> T) async throws
        -> T
    {
        do {
            return try await work()
        } catch .backup(.cannotWrite(let path, let problem)) {
            throw BackupFailure.backup(.cannotWrite(path: path, problem: problem))
        } catch {
            throw CommandFailure(BackupMessages.message(for: error, path: "", catalog: catalog), status: .dataError)
        }
    }
}

/// `momentum import FILE`: a Momentum backup or CSV, or a Meditation Assistant CSV.
struct Import: ContextualCommand {
    static let configuration = CommandConfiguration(
        abstract: "Restore a Momentum backup, or import a CSV log (Momentum's or Meditation Assistant's).",
        discussion: """
            The format is recognized from the file. A backup (ZIP archive or JSON from \
            `momentum export`) is checked completely first — every row, every audio file's size and \
            SHA-256 — and a damaged, foreign or newer one changes nothing. Into an empty data \
            directory it restores everything; otherwise it adds what is missing and keeps what is \
            there (the same id is the same thing). A JSON backup holds no audio: its guided \
            meditations are left out unless the library already has their audio.
            Version 1 backups (settings and log) and CSV logs: records already in the log are \
            skipped; a file with any bad row imports nothing and names every bad row.
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
            let services = try await whoseFile(session, context: context)
            if BackupService.recognizes(URL(fileURLWithPath: file)) {
                try await restore(services.backup, catalog: catalog, context: context)
                return
            }
            let summary: ImportSummary
            do throws(ImportError) {
                summary = try await services.exchange.importFile(at: URL(fileURLWithPath: file), dryRun: dryRun)
            } catch {
                switch error {
                case .cannotRead(let problem):
                    throw CommandFailure(
                        catalog.format(.errorImportCannotRead, ["path": file, "reason": problem.text(catalog)]),
                        status: .ioError)
                case .store(let store): throw store
                case .instant(let instant): throw CommandFailure(ErrorMessages.message(for: instant, catalog: catalog))
                case .text(let text): throw CommandFailure(ErrorMessages.message(for: text, catalog: catalog))
                case .file(let fileError):
                    var lines = ["momentum: " + fileError.message(path: file, catalog: catalog)]
                    lines += fileError.problemLines(catalog: catalog).map { "  " + $0 }
                    context.errors.write(lines.joined(separator: "\n") + "\n")
                    throw ExitCode(CommandExit.dataError.rawValue)
                }
            }
            if json {
                context.output.write(try JSONOutput.encode(summary) + "\n")
                return
            }
            context.output.write(Self.text(summary, path: file, catalog: catalog))
        }
    }

    /// The services of the person the file belongs to: `--user` (or `$MOMENTUM_USER`) when given;
    /// in a household of several, otherwise asked on a terminal — a backup must not land in the
    /// wrong person's practice by default — and, with no terminal to ask at (a script, cron),
    /// the owner's, as every other command acts without `--user` (issue 38).
    private func whoseFile(_ session: CommandContext.Session, context: CommandContext) async throws -> MomentumServices
    {
        let people = try await session.household.people()
        let named = common.user ?? context.environment["MOMENTUM_USER"].flatMap { $0.isEmpty ? nil : $0 }
        guard named == nil, people.count > 1, context.isInteractive else { return session.services }
        let names = people.map(\.name).joined(separator: ", ")
        context.output.write(session.catalog.format(.importWhose, ["names": names]) + " ")
        let answer = context.readAnswer()?.trimmingCharacters(in: .whitespaces) ?? ""
        // try?: an answer that names no one (the only refusal) is answered with how to say whose.
        guard !answer.isEmpty, let person = try? Household.person(named: answer, in: people) else {
            context.output.write("\n")
            throw CommandFailure(session.catalog[.importSayWhose])
        }
        return try await session.household.services(for: person)
    }

    private func restore(_ backup: BackupService, catalog: StringCatalog, context: CommandContext) async throws {
        let summary: RestoreSummary
        do throws(BackupFailure) {
            summary = try await backup.restore(from: URL(fileURLWithPath: file), dryRun: dryRun)
        } catch {
            if case .store(let store) = error { throw store }
            throw CommandFailure(
                BackupMessages.message(for: error, path: file, catalog: catalog) + " " + catalog[.errorBackupUnchanged],
                status: .dataError)
        }
        if json {
            context.output.write(try JSONOutput.encode(summary) + "\n")
            return
        }
        context.output.write(
            BackupMessages.summary(summary, path: file, catalog: catalog).joined(separator: "\n") + "\n")
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

import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum library`: the guided meditation library.
struct LibraryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "Guided meditations: import audio files, list them by teacher, show, edit and delete.",
        discussion: """
            Files (MP3, M4A/AAC, WAV) are copied into the library folder of the data directory, so the \
            originals may be deleted. Teacher and name come from the file's tags (edit them any time; the \
            originals are kept). Files play in the web app (momentum serve); the terminal has no MP3 decoder.
            """,
        subcommands: [Import.self, List.self, Show.self, Edit.self, Delete.self],
        defaultSubcommand: List.self
    )

    /// The locale the library is sorted in: the environment's collation (`LC_ALL`, `LC_COLLATE`,
    /// `LANG`), else the language's own.
    static func locale(environment: [String: String], language: Language) -> Locale {
        for name in ["LC_ALL", "LC_COLLATE", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let identifier = String(value.prefix { $0 != "." && $0 != "@" })
            if identifier == "C" || identifier == "POSIX" { break }
            return Locale(identifier: identifier)
        }
        return language.locale
    }

    /// "0:03", "1:02:03".
    static func clock(_ duration: Duration) -> String { DurationFormatting.clock(duration, roundingUp: false) }

    static func json(_ value: some Encodable) throws -> String { try JSONOutput.encode(value) + "\n" }
}

// MARK: - Import

extension LibraryCommand {
    struct Import: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy audio files into the library (MP3, M4A/AAC, WAV).",
            discussion: """
                Prints one line per file and a summary. Files already in the library (the same bytes) are \
                skipped; files that are not audio, are damaged or too large fail, and leave nothing behind. \
                Exits with status 1 when any file failed.
                """)

        @Argument(help: ArgumentHelp("The files to import.", valueName: "file"))
        var files: [String]

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            var failed = 0
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let library = session.services.library
                var imported = 0
                var skipped = 0
                for path in files {
                    let url = URL(fileURLWithPath: path)
                    var bar = ProgressBar(
                        output: context.errors, isShown: context.errorsAreInteractive,
                        label: catalog[.libraryProgress] + " " + url.lastPathComponent)
                    do {
                        let outcome = try await library.importFile(at: url) { done, total in
                            bar.update(done: Int(clamping: done), total: Int(clamping: total))
                        }
                        bar.finish()
                        switch outcome {
                        case .imported(let item):
                            imported += 1
                            context.output.write(
                                catalog.format(
                                    .libraryImported,
                                    [
                                        "name": item.name, "teacher": item.shownTeacher(catalog),
                                        "duration": LibraryCommand.clock(item.duration), "id": item.shortID,
                                    ]) + "\n")
                        case .duplicate(let fileName, let existing):
                            skipped += 1
                            let reason = ErrorMessages.duplicateMessage(
                                fileName: fileName, existing: existing, catalog: catalog)
                            context.errors.write(catalog.format(.librarySkipped, ["reason": reason]) + "\n")
                        }
                    } catch {
                        bar.finish()
                        failed += 1
                        let reason = ErrorMessages.commandMessage(for: error, catalog: catalog)
                        context.errors.write("momentum: " + catalog.format(.libraryFailed, ["reason": reason]) + "\n")
                    }
                }
                context.output.write(
                    catalog.format(
                        .librarySummary, ["imported": "\(imported)", "skipped": "\(skipped)", "failed": "\(failed)"])
                        + "\n")
            }
            if failed > 0 { throw ExitCode(CommandExit.dataError.rawValue) }
        }
    }
}

// MARK: - Listing and showing

extension LibraryCommand {
    struct List: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the library by teacher A–Z, names sorted within (in your locale).")

        @Flag(help: "Print JSON instead of a list.")
        var json = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let locale = LibraryCommand.locale(environment: context.environment, language: catalog.language)
                let groups = try await session.services.library.groupedItems(locale: locale)
                if json {
                    context.output.write(try LibraryCommand.json(LibraryListJSON(groups, catalog: catalog)))
                    return
                }
                guard !groups.isEmpty else {
                    context.output.write(catalog[.libraryEmpty] + "\n")
                    return
                }
                let items = groups.flatMap(\.items)
                let rows = items.map { item in
                    [
                        "  " + item.shortID, item.name, LibraryCommand.clock(item.duration),
                        item.isAmbientBed ? catalog[.libraryAmbientMark] : "",
                    ]
                }
                var lines = TextTable.render(rows).split(separator: "\n").map(String.init)
                var text = ""
                for group in groups {
                    text += (group.teacher ?? catalog[.libraryUnknownTeacher]) + "\n"
                    for _ in group.items { text += lines.removeFirst() + "\n" }
                }
                context.output.write(text)
            }
        }
    }

    struct Show: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Show one guided meditation in full.")

        @Argument(help: ArgumentHelp("The item's id, or its first characters (at least 4).", valueName: "id"))
        var id: String

        @Flag(help: "Print JSON.")
        var json = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let library = session.services.library
                let item = try await library.item(idPrefix: id)
                if json {
                    context.output.write(try LibraryCommand.json(LibraryItemJSON(item, catalog: catalog)))
                    return
                }
                func withOriginal(_ shown: String, _ edit: String?, _ original: String?) -> String {
                    guard edit != nil else { return shown }
                    return shown + " "
                        + catalog.format(.libraryShowOriginal, ["value": original ?? catalog[.libraryUnknownTeacher]])
                }
                var rows = [
                    [catalog[.libraryShowName], withOriginal(item.name, item.editedName, item.originalName)],
                    [
                        catalog[.libraryShowTeacher],
                        withOriginal(item.shownTeacher(catalog), item.editedTeacher, item.originalTeacher),
                    ],
                ]
                if let album = item.originalAlbum { rows.append([catalog[.libraryShowAlbum], album]) }
                rows += [
                    [catalog[.libraryShowDuration], LibraryCommand.clock(item.duration)],
                    [
                        catalog[.libraryShowFormat],
                        "\(item.format.rawValue.uppercased()) · \(ErrorMessages.byteSizeText(item.byteSize))",
                    ],
                    [catalog[.libraryShowFile], library.fileURL(for: item).path + " (\(item.originalFileName))"],
                    [catalog[.libraryShowImported], InstantText.format(item.importedAt, timeZone: context.timeZone)],
                    [catalog[.libraryShowAmbient], catalog[item.isAmbientBed ? .libraryYes : .libraryNo]],
                    [catalog[.libraryShowPosition], LibraryCommand.clock(item.position)],
                    ["ID", item.id.uuidString.lowercased()],
                ]
                context.output.write(TextTable.render(rows))
            }
        }
    }
}

// MARK: - Changing

extension LibraryCommand {
    /// `on` or `off`.
    enum Switch: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    struct Edit: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a meditation's teacher or name (the originals are kept), or mark it as an ambient bed.",
            discussion: """
                An empty --teacher "" or --name "", or --clear-teacher / --clear-name, shows the file's own \
                value again. An ambient bed is offered among the meditation's ambient sounds in the web app.
                """)

        @Argument(help: ArgumentHelp("The item's id, or its first characters (at least 4).", valueName: "id"))
        var id: String

        @Option(help: ArgumentHelp("The teacher to show (1–200 characters).", valueName: "teacher"))
        var teacher: String?

        @Option(help: ArgumentHelp("The name to show (1–200 characters).", valueName: "name"))
        var name: String?

        @Flag(help: "Show the file's own teacher again.")
        var clearTeacher = false

        @Flag(help: "Show the file's own name again.")
        var clearName = false

        @Option(help: ArgumentHelp("Use it as an ambient bed: on or off.", valueName: "on|off"))
        var ambient: Switch?

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                guard teacher != nil || name != nil || clearTeacher || clearName || ambient != nil else {
                    throw CommandFailure(catalog[.errorLibraryNothingToEdit])
                }
                if teacher != nil && clearTeacher {
                    throw CommandFailure(catalog.format(.errorLibraryConflictingEdit, ["field": "teacher"]))
                }
                if name != nil && clearName {
                    throw CommandFailure(catalog.format(.errorLibraryConflictingEdit, ["field": "name"]))
                }
                let library = session.services.library
                var item = try await library.item(idPrefix: id)
                let teacherEdit: LibraryFieldEdit = clearTeacher ? .restoreOriginal : teacher.map { .set($0) } ?? .keep
                let nameEdit: LibraryFieldEdit = clearName ? .restoreOriginal : name.map { .set($0) } ?? .keep
                if teacherEdit != .keep || nameEdit != .keep {
                    item = try await library.edit(id: item.id, teacher: teacherEdit, name: nameEdit)
                }
                if let ambient { item = try await library.setAmbientBed(id: item.id, ambient == .on) }
                context.output.write(
                    catalog.format(
                        .libraryEdited, ["id": item.shortID, "name": item.name, "teacher": item.shownTeacher(catalog)])
                        + "\n")
            }
        }
    }

    struct Delete: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a meditation and its copied file.")

        @Argument(help: ArgumentHelp("The item's id, or its first characters (at least 4).", valueName: "id"))
        var id: String

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let library = session.services.library
                let item = try await library.delete(id: try library.item(idPrefix: id).id)
                context.output.write(
                    session.catalog.format(.libraryDeleted, ["name": item.name, "id": item.shortID]) + "\n")
            }
        }
    }
}

import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

extension Log {
    /// `momentum log add`: a session done away from Momentum.
    struct Add: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a session by hand, e.g. `momentum log add --minutes 20 --start \"2026-11-20 07:30\"`.")

        @Option(help: ArgumentHelp("meditation, guided, breathing, workout, morse or focus.", valueName: "kind"))
        var kind = "meditation"

        @Option(
            help: ArgumentHelp(
                "When it began, YYYY-MM-DD HH:MM in your time zone (default: it ended now).", valueName: "time"))
        var start: String?

        @Option(
            help: ArgumentHelp("How long it lasted, in minutes (also 90s or 1.5h); at most 24 h.", valueName: "minutes")
        )
        var minutes: String

        @Option(help: ArgumentHelp("Energy in kilocalories (workouts).", valueName: "kcal"))
        var kcal: Double?

        @Option(help: ArgumentHelp("A note kept with the session.", valueName: "text"))
        var note: String?

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let parsedKind = try LogArguments.kind(kind, catalog: catalog)
                let length = try LogArguments.length(minutes, catalog: catalog)
                let calendar = session.settings.progress.dayCalendar(systemTimeZone: context.timeZone)
                let begin =
                    try start.map { try LogArguments.instant($0, timeZone: calendar.timeZone, catalog: catalog) }
                    ?? context.now().addingTimeInterval(-length.inSeconds)
                let record = try await session.services.practiceLog.addRecord(
                    kind: parsedKind, start: begin, length: length.inSeconds, energyKilocalories: kcal,
                    details: note.map { ["note": $0] } ?? [:])
                context.output.write(
                    catalog.format(
                        .logAdded,
                        [
                            "kind": catalog[record.kind.nameKey], "date": calendar.day(of: record.start).description,
                            "duration": DurationFormatting.words(
                                .seconds(record.countedSeconds), language: catalog.language),
                            "id": String(record.id.uuidString.lowercased().prefix(8)),
                        ]) + "\n")
            }
        }
    }

    /// `momentum log edit ID`.
    struct Edit: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Change a session (give the start of its id).")

        @Argument(help: ArgumentHelp("The record's id, or its first characters (at least 4).", valueName: "id"))
        var id: String

        @Option(help: ArgumentHelp("A new kind.", valueName: "kind"))
        var kind: String?

        @Option(help: ArgumentHelp("A new start, YYYY-MM-DD HH:MM.", valueName: "time"))
        var start: String?

        @Option(help: ArgumentHelp("A new length in minutes.", valueName: "minutes"))
        var minutes: String?

        @Option(help: ArgumentHelp("Energy in kilocalories.", valueName: "kcal"))
        var kcal: Double?

        @Option(help: ArgumentHelp("A note kept with the session.", valueName: "text"))
        var note: String?

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                guard kind != nil || start != nil || minutes != nil || kcal != nil || note != nil else {
                    throw CommandFailure(catalog[.errorNothingToEdit])
                }
                let log = session.services.practiceLog
                let original = try await log.record(idPrefix: id)
                let zone = session.settings.progress.dayCalendar(systemTimeZone: context.timeZone).timeZone
                var details = original.details
                if let note { details["note"] = note }
                let record = try await log.editRecord(
                    original, kind: try kind.map { try LogArguments.kind($0, catalog: catalog) },
                    start: try start.map { try LogArguments.instant($0, timeZone: zone, catalog: catalog) },
                    length: try minutes.map { try LogArguments.length($0, catalog: catalog).inSeconds },
                    energyKilocalories: kcal.map { .some($0) }, details: details)
                context.output.write(
                    catalog.format(.logEdited, ["id": String(record.id.uuidString.lowercased().prefix(8))]) + "\n")
            }
        }
    }

    /// `momentum log delete ID`.
    struct Delete: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a session (give the start of its id).")

        @Argument(help: ArgumentHelp("The record's id, or its first characters (at least 4).", valueName: "id"))
        var id: String

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let log = session.services.practiceLog
                let record = try await log.record(idPrefix: id)
                try await log.deleteRecord(record)
                context.output.write(
                    catalog.format(.logDeleted, ["id": String(record.id.uuidString.lowercased().prefix(8))]) + "\n")
            }
        }
    }
}

/// Reading the log commands' arguments, with errors in the person's language.
enum LogArguments {
    static func kind(_ text: String, catalog: StringCatalog) throws -> PracticeKind {
        guard let kind = PracticeKind(rawValue: text.lowercased()) else {
            let choices = PracticeKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw CommandFailure(catalog.format(.errorUnknownKind, ["value": text, "choices": choices]))
        }
        return kind
    }

    static func length(_ text: String, catalog: StringCatalog) throws -> Duration {
        try CommandInput.duration(text, unit: .minutes, catalog: catalog)
    }

    /// `YYYY-MM-DD HH:MM` (or with `T`) as local time in `timeZone`; the date must exist.
    static func instant(_ text: String, timeZone: TimeZone, catalog: StringCatalog) throws -> Date {
        guard let date = InstantText.parse(text, assumedTimeZone: timeZone) else {
            throw CommandFailure(catalog.format(.errorInvalidDateTime, ["value": text]))
        }
        return date
    }

    static func category(_ text: String, catalog: StringCatalog) throws -> PracticeCategory {
        guard let category = PracticeCategory(rawValue: text.lowercased()) else {
            let choices = PracticeCategory.allCases.map(\.rawValue).joined(separator: ", ")
            throw CommandFailure(catalog.format(.errorUnknownCategory, ["value": text, "choices": choices]))
        }
        return category
    }
}

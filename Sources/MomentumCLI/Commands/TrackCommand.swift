import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum track`: quiet daily trackers (docs/notifications.md) — a yes-or-no question about a
/// day ("Alcohol-free?"), asked by a notification at its hour and answered from it, or here.
struct TrackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Quiet daily trackers: a yes-or-no question asked every day by a notification (--user: whose).",
        discussion: """
            Examples:
              momentum track add "Alcohol-free" --ask 21:00
              momentum track add "No phone in bed" --ask 08:30 --about yesterday
              momentum track yes "Alcohol-free"
              momentum track no "Alcohol-free" --day 2026-11-28
              momentum track
            An unanswered day stays unanswered: it is never counted as a no.
            """,
        subcommands: [List.self, Add.self, Rename.self, Change.self, Delete.self, Yes.self, No.self, Clear.self],
        defaultSubcommand: List.self
    )

    struct List: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the trackers: when each is asked, its last 7 days and its run of yes days.")

        @Flag(help: "Print them as JSON: today, and each tracker's id, name, askAt, about, days, run.")
        var json = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let view = try await session.services.trackers.list(language: session.catalog.language)
                if json {
                    context.output.write(try JSONOutput.encode(view) + "\n")
                    return
                }
                let catalog = session.catalog
                guard !view.trackers.isEmpty else {
                    context.output.write(catalog[.trackNone] + "\n")
                    return
                }
                let rows = view.trackers.map { tracker in
                    [
                        tracker.name,
                        tracker.askAt
                            + (tracker.about == Tracker.About.yesterday.rawValue ? " (\(catalog[.trackAbout]))" : ""),
                        tracker.daysText, tracker.runText ?? "",
                    ]
                }
                context.output.write(TextTable.render(rows))
            }
        }
    }

    struct Add: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Add a tracker, asked every day at --ask.")

        @Argument(help: ArgumentHelp("Its name, e.g. \"Alcohol-free\" (at most 100 characters).", valueName: "name"))
        var name: String

        @Option(help: ArgumentHelp("When the question comes, on your clock (HH:MM).", valueName: "HH:MM"))
        var ask: String

        @Option(help: "Which day it asks about: today (an evening question) or yesterday (a morning one).")
        var about: Tracker.About = .today

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let tracker = try await session.services.trackers.add(
                    name: name, askAt: try TimeOfDay(parsing: ask), about: about)
                context.output.write(
                    session.catalog.format(.trackAdded, ["name": tracker.name, "time": tracker.askAt.description])
                        + "\n")
            }
        }
    }

    struct Rename: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Give a tracker another name; its answers stay.")

        @Argument(help: ArgumentHelp("The tracker's name or id.", valueName: "name"))
        var name: String

        @Argument(help: ArgumentHelp("Its new name.", valueName: "new-name"))
        var newName: String

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let tracker = try await session.services.trackers.change(name, name: newName)
                context.output.write(
                    session.catalog.format(.trackChanged, ["name": tracker.name, "time": tracker.askAt.description])
                        + "\n")
            }
        }
    }

    struct Change: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change when a tracker is asked, or which day it asks about.")

        @Argument(help: ArgumentHelp("The tracker's name or id.", valueName: "name"))
        var name: String

        @Option(help: ArgumentHelp("When the question comes, on your clock (HH:MM).", valueName: "HH:MM"))
        var ask: String?

        @Option(help: "Which day it asks about: today or yesterday.")
        var about: Tracker.About?

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let askAt = try ask.map { text throws(TimeOfDayError) in try TimeOfDay(parsing: text) }
                let tracker = try await session.services.trackers.change(name, askAt: askAt, about: about)
                context.output.write(
                    session.catalog.format(.trackChanged, ["name": tracker.name, "time": tracker.askAt.description])
                        + "\n")
            }
        }
    }

    struct Delete: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "End a tracker and its answers.")

        @Argument(help: ArgumentHelp("The tracker's name or id.", valueName: "name"))
        var name: String

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let tracker = try await session.services.trackers.delete(name)
                context.output.write(session.catalog.format(.trackDeleted, ["name": tracker.name]) + "\n")
            }
        }
    }

    struct Yes: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Answer a tracker's day yes (default: the day its question is about now).")

        @OptionGroup var day: TrackDayArguments
        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await day.answer(true, common: common, in: context)
        }
    }

    struct No: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Answer a tracker's day no (default: the day its question is about now).")

        @OptionGroup var day: TrackDayArguments
        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await day.answer(false, common: common, in: context)
        }
    }

    struct Clear: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Clear a tracker's answer: the day is unanswered again.")

        @OptionGroup var day: TrackDayArguments
        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await day.answer(Bool?.none, common: common, in: context)
        }
    }
}

/// The tracker and the day `track yes|no|clear` answer.
struct TrackDayArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("The tracker's name or id.", valueName: "name"))
    var name: String

    @Option(
        help: ArgumentHelp(
            "The day answered (YYYY-MM-DD); default: the day the question is about now.", valueName: "date"))
    var day: String?

    /// Answers (or clears) the day and says so.
    func answer(_ answer: Bool?, common: CommonOptions, in context: CommandContext) async throws {
        try await context.withSession(common) { session in
            let trackers = session.services.trackers
            let day = try day.map { text throws(DayError) in try Day(parsing: text) }
            let answered = try await trackers.answer(name, answer, day: day)
            let view = try await trackers.view(name, language: session.catalog.language)
            let catalog = session.catalog
            let line =
                switch answer {
                case let answer?:
                    catalog.format(
                        .trackAnswered,
                        [
                            "name": view.name, "day": answered.description,
                            "answer": catalog[answer ? .trackerYes : .trackerNo],
                        ])
                case nil: catalog.format(.trackCleared, ["name": view.name, "day": answered.description])
                }
            context.output.write(line + (view.runText.map { " · \($0)" } ?? "") + "\n")
        }
    }
}

extension Tracker.About: ExpressibleByArgument {}

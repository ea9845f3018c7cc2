import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum timer`: focus timers with checklists.
struct TimerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timer",
        abstract: "Focus timers with checklists: add, list, start, pause, tick items, run a countdown.",
        discussion: """
            A timer's run is stored as instants, so one started here shows its remaining time in \
            `momentum timer list` from any other shell, and survives a restart. Only one runs at a time: \
            starting one pauses the others. A timer that runs out is logged once, as focus.
            """,
        subcommands: [
            Add.self, List.self, Show.self, Start.self, Pause.self, Resume.self, Reset.self, Complete.self,
            Check.self, Uncheck.self, Edit.self, Move.self, Delete.self, Share.self, Run.self,
        ],
        defaultSubcommand: List.self
    )

    /// Reads `25` (minutes), `90s`, `1.5h`.
    static func duration(_ text: String, catalog: StringCatalog) throws -> Duration {
        try CommandInput.duration(text, unit: .minutes, catalog: catalog)
    }

    static func statusText(_ timer: FocusTimer, at now: Date, catalog: StringCatalog) -> String {
        switch timer.status(at: now) {
        case .idle: catalog[.focusStatusIdle]
        case .running: catalog[.focusStatusRunning]
        case .paused: catalog[.focusStatusPaused]
        case .completed: catalog[.focusStatusCompleted]
        }
    }

    static func remaining(_ timer: FocusTimer, at now: Date) -> String {
        DurationFormatting.clock(timer.remaining(at: now))
    }

    /// The checklist as `[x] 1. water` lines.
    static func checklist(_ timer: FocusTimer) -> [String] {
        timer.items.enumerated().map { index, item in "\(item.done ? "[x]" : "[ ]") \(index + 1). \(item.text)" }
    }

    /// One timer in full: its line, its checklist and its notes.
    static func details(_ timer: FocusTimer, at now: Date, catalog: StringCatalog) -> String {
        var lines = [
            "\(timer.name) · \(statusText(timer, at: now, catalog: catalog)) · "
                + catalog.format(.focusLeft, ["time": remaining(timer, at: now)]) + " / "
                + DurationFormatting.clock(timer.duration)
        ]
        lines += checklist(timer)
        if !timer.notes.isEmpty { lines.append(catalog.format(.focusNotes, ["notes": timer.notes])) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs `body` with the focus timer service and the session's catalog.
    static func withTimers(
        _ common: CommonOptions, _ context: CommandContext,
        _ body: (FocusTimerService, StringCatalog) async throws -> String
    ) async throws {
        try await context.withSession(common) { session in
            context.output.write(try await body(session.services.focusTimers, session.catalog))
        }
    }

    /// Runs `body` with the service that runs the timer `name` names — the person's own, or the
    /// owner's of a timer shared with them (``HouseholdService/timerService(named:for:)``) — and
    /// the name to give it there.
    static func withTimer(
        named name: String, _ common: CommonOptions, _ context: CommandContext,
        _ body: (FocusTimerService, String, StringCatalog) async throws -> String
    ) async throws {
        try await context.withSession(common) { session in
            let (service, named) = try await session.household.timerService(named: name, for: session.person)
            context.output.write(try await body(service, named, session.catalog))
        }
    }
}

// MARK: - Making and listing

extension TimerCommand {
    struct Add: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Add a timer, placed last.")

        @Argument(help: ArgumentHelp("Its name.", valueName: "name"))
        var name: String

        @Argument(
            help: ArgumentHelp("1 second to 24 hours: 25 (minutes), 90s, 1.5h. Default 25.", valueName: "duration"))
        var duration: String?

        @Option(name: .customLong("item"), help: ArgumentHelp("A checklist item (repeat for more).", valueName: "text"))
        var items: [String] = []

        @Option(help: ArgumentHelp("An icon: \(FocusTimer.icons.joined(separator: ", ")).", valueName: "name"))
        var icon: String?

        @Option(help: ArgumentHelp("A colour, #RRGGBB.", valueName: "hex"))
        var color: String?

        @Option(help: ArgumentHelp("Notes.", valueName: "text"))
        var notes: String?

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await TimerCommand.withTimers(common, context) { timers, catalog in
                let timer = try await timers.addTimer(
                    name: name,
                    duration: try duration.map { try TimerCommand.duration($0, catalog: catalog) }
                        ?? FocusTimer.defaultDuration,
                    items: items, icon: icon ?? FocusTimer.defaultIcon, color: color ?? FocusTimer.defaultColor,
                    notes: notes ?? "")
                return catalog.format(
                    .focusAdded,
                    [
                        "name": timer.name,
                        "duration": DurationFormatting.words(timer.duration, language: catalog.language),
                    ])
                    + "\n"
            }
        }
    }

    struct List: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "List the timers with their state and time left.")

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                // One's own timers, then those others of the household shared (as the web lists them).
                let own = try await session.services.focusTimers.timers().map { ($0, String?.none) }
                let shared = try await session.household.timersShared(with: session.person).map {
                    ($0.timer, Optional($0.owner.name))
                }
                let timers = own + shared
                let now = context.now()
                if json {
                    context.output.write(
                        try FocusTimerJSON.text(timers.map { FocusTimerView($0.0, at: now, owner: $0.1) }))
                    return
                }
                if timers.isEmpty {
                    context.output.write(catalog[.focusNone] + "\n")
                    return
                }
                let rows = timers.enumerated().map { index, entry in
                    let (timer, owner) = entry
                    return [
                        owner == nil ? "\(index + 1)" : "·", timer.name,
                        TimerCommand.statusText(timer, at: now, catalog: catalog),
                        catalog.format(.focusLeft, ["time": TimerCommand.remaining(timer, at: now)]),
                        timer.items.isEmpty ? "" : "☑ \(timer.items.filter(\.done).count)/\(timer.items.count)",
                        owner.map { catalog.format(.focusSharedBy, ["name": $0]) } ?? "",
                    ]
                }
                context.output.write(TextTable.render(rows))
            }
        }
    }

    struct Show: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Show a timer with its checklist and notes.")

        @Argument(help: ArgumentHelp("The timer's name or id.", valueName: "name"))
        var name: String

        @Flag(help: "Print JSON.")
        var json = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await TimerCommand.withTimer(named: name, common, context) { service, name, catalog in
                let timer = try await service.timer(named: name)
                if json { return try FocusTimerJSON.text(FocusTimerView(timer, at: context.now())) }
                return TimerCommand.details(timer, at: context.now(), catalog: catalog)
            }
        }
    }
}

/// `timer list --json` and `timer show --json`: the services' ``FocusTimerView``, the same the
/// HTTP API answers (milliseconds, `sortOrder` from 0 and `position` from 1).
enum FocusTimerJSON {
    static func text(_ value: some Encodable) throws -> String { try JSONOutput.encode(value) + "\n" }
}

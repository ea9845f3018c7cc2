import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

// MARK: - Changing

extension TimerCommand {
    /// The timer and item `check` and `uncheck` name.
    struct ItemChoice: ParsableArguments {
        @Argument(help: ArgumentHelp("The timer's name or id.", valueName: "name"))
        var name: String

        @Argument(help: ArgumentHelp("The item: its number, text or id.", valueName: "item"))
        var item: String

        @OptionGroup var common: CommonOptions

        /// Ticks or unticks the item and prints the checklist.
        func set(done: Bool, in context: CommandContext) async throws {
            try await TimerCommand.withTimer(named: name, common, context) { service, name, _ in
                TimerCommand.checklist(try await service.setItem(item, ofTimer: name, done: done)).joined(
                    separator: "\n")
                    + "\n"
            }
        }
    }

    struct Check: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Tick a checklist item.")

        @OptionGroup var choice: ItemChoice

        func run(in context: CommandContext) async throws { try await choice.set(done: true, in: context) }
    }

    struct Uncheck: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Untick a checklist item.")

        @OptionGroup var choice: ItemChoice

        func run(in context: CommandContext) async throws { try await choice.set(done: false, in: context) }
    }

    struct Edit: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a timer's name, duration, icon, colour, notes or checklist.",
            discussion: "A new duration resets a run in progress.")

        @Argument(help: ArgumentHelp("The timer's name or id.", valueName: "name"))
        var name: String

        @Option(name: .customLong("name"), help: ArgumentHelp("A new name.", valueName: "name"))
        var newName: String?

        @Option(help: ArgumentHelp("A new duration: 25 (minutes), 90s, 1.5h.", valueName: "duration"))
        var duration: String?

        @Option(help: ArgumentHelp("An icon: \(FocusTimer.icons.joined(separator: ", ")).", valueName: "name"))
        var icon: String?

        @Option(help: ArgumentHelp("A colour, #RRGGBB.", valueName: "hex"))
        var color: String?

        @Option(help: ArgumentHelp("Notes (empty to clear).", valueName: "text"))
        var notes: String?

        @Option(name: .customLong("add-item"), help: ArgumentHelp("Add a checklist item.", valueName: "text"))
        var addItems: [String] = []

        @Option(
            name: .customLong("remove-item"),
            help: ArgumentHelp("Remove an item (number, text or id).", valueName: "item"))
        var removeItems: [String] = []

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await TimerCommand.withTimer(named: name, common, context) { service, name, catalog in
                let edit = FocusTimerService.Edit(
                    name: newName, duration: try duration.map { try TimerCommand.duration($0, catalog: catalog) },
                    icon: icon, color: color, notes: notes, addItems: addItems, removeItems: removeItems)
                guard !edit.isEmpty else { throw CommandFailure(catalog[.errorFocusNothingToEdit]) }
                let timer = try await service.editTimer(named: name, edit)
                return catalog.format(.focusSaved, ["name": timer.name]) + "\n"
                    + TimerCommand.details(timer, at: context.now(), catalog: catalog)
            }
        }
    }

    struct Move: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move a timer (or, with --item, one of its items) to a place in the order.")

        @Argument(help: ArgumentHelp("The timer's name or id.", valueName: "name"))
        var name: String

        @Argument(help: ArgumentHelp("The new place, from 1.", valueName: "position"))
        var position: Int

        @Option(help: ArgumentHelp("Move this checklist item instead (number, text or id).", valueName: "item"))
        var item: String?

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await TimerCommand.withTimers(common, context) { service, catalog in
                if let item {
                    let timer = try await service.moveItem(item, ofTimer: name, to: position)
                    return TimerCommand.checklist(timer).joined(separator: "\n") + "\n"
                }
                let timers = try await service.moveTimer(named: name, to: position)
                let moved = timers[position - 1]
                return catalog.format(.focusMoved, ["name": moved.name, "position": "\(position)"]) + "\n"
            }
        }
    }

    struct Delete: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a timer and its checklist.")

        @Argument(help: ArgumentHelp("The timer's name or id.", valueName: "name"))
        var name: String

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await TimerCommand.withTimers(common, context) { service, catalog in
                let timer = try await service.timer(named: name)
                try await service.deleteTimer(named: timer.id.uuidString)
                return catalog.format(.focusDeleted, ["name": timer.name]) + "\n"
            }
        }
    }

    struct Share: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Share a timer with people of this server: they see it and tick it live (it stays yours).")

        @Argument(help: ArgumentHelp("The timer's name or id.", valueName: "name"))
        var name: String

        @Option(
            name: .customLong("with"),
            help: ArgumentHelp(
                "A person to share it with (repeatable); the list replaces the last one.", valueName: "person"))
        var people: [String] = []

        @Flag(help: "Share it with no one.")
        var none = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                guard people.isEmpty == none else { throw CommandFailure(catalog[.focusShareWithOrNone]) }
                let timer = try await session.services.focusTimers.timer(named: name)
                let sharees = try await session.household.share(timer, of: session.person, with: people)
                let text =
                    sharees.isEmpty
                    ? catalog.format(.focusSharedWithNoOne, ["name": timer.name])
                    : catalog.format(
                        .focusSharedWith,
                        ["name": timer.name, "people": sharees.map(\.name).joined(separator: ", ")])
                context.output.write(text + "\n")
            }
        }
    }
}

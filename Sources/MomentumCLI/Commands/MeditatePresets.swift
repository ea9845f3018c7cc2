import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum meditate presets`: the person's saved sits.
struct MeditatePresets: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List, add, edit, rename, move or delete saved sits.",
        discussion: "Start a saved sit with: momentum meditate NAME",
        subcommands: [List.self, Add.self, Edit.self, Rename.self, Move.self, Delete.self],
        defaultSubcommand: List.self
    )

    /// Writes "Saved “Evening”: 20 min · gongs every 5 min."
    static func saved(_ preset: MeditationPreset, catalog: StringCatalog) -> String {
        catalog.format(.meditationPresetSaved, ["name": preset.name, "summary": preset.summary(catalog)]) + "\n"
    }

    struct List: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "List your saved sits in your order (see `move`; at first the order they were made in).")

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let presets = try await session.services.meditationPresets.presets()
                let catalog = session.catalog
                if json {
                    context.output.write(try Self.json(presets, catalog: catalog))
                } else {
                    context.output.write(
                        presets.isEmpty ? catalog[.meditationPresetsNone] + "\n" : Self.table(presets, catalog: catalog)
                    )
                }
            }
        }

        static func table(_ presets: [MeditationPreset], catalog: StringCatalog) -> String {
            TextTable.render(presets.map { [$0.name, $0.summary(catalog)] })
        }

        struct Entry: Encodable {
            var id: String
            var name: String
            var summary: String
            var plan: MeditationPlan
            var createdAt: Date
            var updatedAt: Date
        }

        static func json(_ presets: [MeditationPreset], catalog: StringCatalog) throws -> String {
            let entries = presets.map { preset in
                Entry(
                    id: preset.id, name: preset.name, summary: preset.summary(catalog), plan: preset.plan,
                    createdAt: preset.createdAt, updatedAt: preset.updatedAt)
            }
            return try JSONOutput.encode(entries) + "\n"
        }
    }

    struct Add: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save a sit under a name: your last sit with the options you give.",
            discussion: "Example: momentum meditate presets add Evening 20 --interval 5 --ambient rain")

        @Argument(help: ArgumentHelp("Its name.", valueName: "name"))
        var name: String

        @OptionGroup var options: MeditationOptions

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let plan = try options.plan(from: session.settings.meditation, catalog: catalog)
                let preset = try await session.services.meditationPresets.addPreset(name: name, plan: plan)
                context.output.write(MeditatePresets.saved(preset, catalog: catalog))
            }
        }
    }

    struct Edit: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a saved sit: the options you give replace its own, the rest stay.")

        @Argument(help: ArgumentHelp("The saved sit's name or id.", valueName: "saved-sit"))
        var preset: String

        @OptionGroup var options: MeditationOptions

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                guard options.changesAnything else { throw CommandFailure(catalog[.errorMeditationNothingToEdit]) }
                let presets = session.services.meditationPresets
                let found = try await presets.preset(named: preset)
                let edited = try await presets.editPreset(
                    found, plan: try options.plan(from: found.plan, catalog: catalog))
                context.output.write(MeditatePresets.saved(edited, catalog: catalog))
            }
        }
    }

    struct Rename: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Give a saved sit another name.")

        @Argument(help: ArgumentHelp("The saved sit's name or id.", valueName: "saved-sit"))
        var preset: String

        @Argument(help: ArgumentHelp("The new name.", valueName: "new-name"))
        var newName: String

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let presets = session.services.meditationPresets
                let renamed = try await presets.renamePreset(try presets.preset(named: preset), to: newName)
                context.output.write(MeditatePresets.saved(renamed, catalog: session.catalog))
            }
        }
    }

    struct Move: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put a saved sit in another place: 1 is first; the others keep their order.",
            discussion: "Example: momentum meditate presets move Zazen 1")

        @Argument(help: ArgumentHelp("The saved sit's name or id.", valueName: "saved-sit"))
        var preset: String

        @Argument(help: ArgumentHelp("Its new place, from 1 (a place past the last is the last).", valueName: "place"))
        var place: Int

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let presets = session.services.meditationPresets
                let found = try await presets.preset(named: preset)
                guard place >= 1 else {
                    throw MeditationPresetServiceError.invalid(.positionOutOfRange)
                }
                let ordered = try await presets.movePreset(found, to: place - 1)
                let now = (ordered.firstIndex { $0.id == found.id } ?? 0) + 1
                context.output.write(
                    catalog.format(
                        .meditationPresetMoved, ["name": found.name, "place": "\(now)", "count": "\(ordered.count)"])
                        + "\n" + List.table(ordered, catalog: catalog))
            }
        }
    }

    struct Delete: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a saved sit (it cannot be undone, so it takes --yes).")

        @Argument(help: ArgumentHelp("The saved sit's name or id.", valueName: "saved-sit"))
        var preset: String

        @Flag(help: "Delete without asking.")
        var yes = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let presets = session.services.meditationPresets
                let found = try await presets.preset(named: preset)
                guard yes else {
                    throw CommandFailure(catalog.format(.errorMeditationDeleteNeedsYes, ["name": found.name]))
                }
                try await presets.deletePreset(found)
                context.output.write(catalog.format(.meditationPresetDeleted, ["name": found.name]) + "\n")
            }
        }
    }
}

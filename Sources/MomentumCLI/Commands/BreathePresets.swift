import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum breathe presets`: the nine built-in presets and the person's own.
struct BreathePresets: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List, add, edit, rename, duplicate or delete breathing presets.",
        discussion: "Built-in presets stay as they are: editing or renaming one saves a copy of your own.",
        subcommands: [List.self, Add.self, Edit.self, Rename.self, Duplicate.self, Delete.self],
        defaultSubcommand: List.self
    )

    /// Writes "Saved “name”: 4-7-8-0 × 10."
    static func saved(_ preset: BreathingPreset, catalog: StringCatalog) -> String {
        catalog.format(
            .breathingPresetSaved,
            ["name": preset.displayName(catalog), "pattern": preset.pattern.text, "rounds": "\(preset.rounds)"]) + "\n"
    }

    static func rounds(_ text: String?, catalog: StringCatalog) throws -> Int? {
        try text.map { try CommandInput.whole($0, unit: .rounds, catalog: catalog) }
    }

    struct List: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "List every preset: built in first, then yours.")

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let presets = try await session.services.breathing.presets()
                let catalog = session.catalog
                context.output.write(
                    json ? try Self.json(presets, catalog: catalog) : Self.table(presets, catalog: catalog))
            }
        }

        static func table(_ presets: [BreathingPreset], catalog: StringCatalog) -> String {
            let rows = presets.map { preset in
                [
                    preset.displayName(catalog), preset.pattern.text, "× \(preset.rounds)",
                    DurationFormatting.clock(preset.pattern.cycle * preset.rounds),
                    preset.isBuiltIn ? catalog[.breathingBuiltIn] : "",
                ]
            }
            return TextTable.render(rows)
        }

        struct Entry: Encodable {
            var id: String
            var name: String
            var pattern: String
            var rounds: Int
            var totalSeconds: Double
            var builtIn: Bool
        }

        static func json(_ presets: [BreathingPreset], catalog: StringCatalog) throws -> String {
            let entries = presets.map { preset in
                Entry(
                    id: preset.id, name: preset.displayName(catalog), pattern: preset.pattern.text,
                    rounds: preset.rounds, totalSeconds: (preset.pattern.cycle * preset.rounds).inSeconds,
                    builtIn: preset.isBuiltIn)
            }
            return try JSONOutput.encode(entries) + "\n"
        }
    }

    struct Add: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a preset of your own (it starts as 4-0-4-0 × 10).")

        @Argument(help: ArgumentHelp("Its name.", valueName: "name"))
        var name: String

        @Option(help: ArgumentHelp("Inhale-hold-exhale-hold in seconds, e.g. 4-7-8-0.", valueName: "pattern"))
        var pattern: String?

        @Option(help: ArgumentHelp("Rounds, 1–99.", valueName: "rounds"))
        var rounds: String?

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let preset = try await session.services.breathing.addPreset(
                    name: name, pattern: try pattern.map(BreathingPattern.init(parsing:)) ?? .newPreset,
                    rounds: try BreathePresets.rounds(rounds, catalog: catalog) ?? BreathingPreset.newPresetRounds)
                context.output.write(BreathePresets.saved(preset, catalog: catalog))
            }
        }
    }

    struct Edit: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a preset's pattern or rounds (a built-in is copied first).")

        @Argument(help: ArgumentHelp("The preset's name or id.", valueName: "preset"))
        var preset: String

        @Option(help: ArgumentHelp("Inhale-hold-exhale-hold in seconds, e.g. 4-7-8-0.", valueName: "pattern"))
        var pattern: String?

        @Option(help: ArgumentHelp("Rounds, 1–99.", valueName: "rounds"))
        var rounds: String?

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                guard pattern != nil || rounds != nil else {
                    throw CommandFailure(catalog[.errorBreathingNothingToEdit])
                }
                let breathing = session.services.breathing
                let edited = try await breathing.editPreset(
                    try breathing.preset(named: preset), pattern: try pattern.map(BreathingPattern.init(parsing:)),
                    rounds: try BreathePresets.rounds(rounds, catalog: catalog), catalog: catalog)
                context.output.write(BreathePresets.saved(edited, catalog: catalog))
            }
        }
    }

    struct Rename: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rename a preset of yours (renaming a built-in saves a copy under the new name).")

        @Argument(help: ArgumentHelp("The preset's name or id.", valueName: "preset"))
        var preset: String

        @Argument(help: ArgumentHelp("The new name.", valueName: "new-name"))
        var newName: String

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let breathing = session.services.breathing
                let renamed = try await breathing.renamePreset(
                    try breathing.preset(named: preset), to: newName, catalog: session.catalog)
                context.output.write(BreathePresets.saved(renamed, catalog: session.catalog))
            }
        }
    }

    struct Duplicate: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Copy a preset, as “… (copy)” or a name you give.")

        @Argument(help: ArgumentHelp("The preset's name or id.", valueName: "preset"))
        var preset: String

        @Argument(help: ArgumentHelp("The copy's name.", valueName: "name"))
        var name: String?

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let breathing = session.services.breathing
                let copy = try await breathing.duplicatePreset(
                    try breathing.preset(named: preset), name: name, catalog: session.catalog)
                context.output.write(BreathePresets.saved(copy, catalog: session.catalog))
            }
        }
    }

    struct Delete: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a preset of yours.")

        @Argument(help: ArgumentHelp("The preset's name or id.", valueName: "preset"))
        var preset: String

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let breathing = session.services.breathing
                let found = try await breathing.preset(named: preset)
                try await breathing.deletePreset(found)
                context.output.write(
                    session.catalog.format(.breathingPresetDeleted, ["name": found.displayName(session.catalog)]) + "\n"
                )
            }
        }
    }
}

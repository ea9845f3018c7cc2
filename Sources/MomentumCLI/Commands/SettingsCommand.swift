import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum settings`: show and change defaults.
struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show or change your defaults (meditation, language, sound).",
        subcommands: [Show.self, Set.self],
        defaultSubcommand: Show.self
    )

    struct Show: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Show every setting and its value.")

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            let session = try await context.openSession(common)
            let settings = session.settings
            context.output.write(json ? try Self.json(settings) + "\n" : Self.table(settings, catalog: session.catalog))
        }

        static func table(_ settings: MomentumSettings, catalog: StringCatalog) -> String {
            let width = SettingKey.allCases.map(\.rawValue.count).max() ?? 0
            return SettingKey.allCases.map { key in
                key.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
                    + "  " + settings.text(for: key) + "  (\(catalog[key.nameKey]))"
            }.joined(separator: "\n") + "\n"
        }

        static func json(_ settings: MomentumSettings) throws -> String {
            let values = Dictionary(
                uniqueKeysWithValues: SettingKey.allCases.map { ($0.rawValue, settings.text(for: $0)) })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            return String(decoding: try encoder.encode(values), as: UTF8.self)
        }
    }

    struct Set: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change one setting, e.g. `momentum settings set meditation.duration 20`.",
            discussion: SettingKey.allCases.map { "\($0.rawValue): \($0.hint)" }.joined(separator: "\n")
        )

        @Argument(help: ArgumentHelp("The setting's name (see below).", valueName: "key"))
        var key: String

        @Argument(help: ArgumentHelp("Its new value.", valueName: "value"))
        var value: String

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                guard let settingKey = SettingKey(rawValue: key) else {
                    let choices = SettingKey.allCases.map(\.rawValue).joined(separator: ", ")
                    throw CommandFailure(
                        catalog.format(.errorUnknownSetting, ["key": key, "choices": choices]),
                        hint: NameSuggestion.closest(to: key, among: SettingKey.allCases.map(\.rawValue)).map {
                            catalog.format(.didYouMean, ["suggestion": $0])
                        })
                }
                let changed = try await session.services.settings.change(settingKey, to: value)
                // A language change answers in the new language (unless --lang says otherwise).
                let language = try common.language() ?? changed.language ?? Language.preferred(in: context.environment)
                let shownCatalog = StringCatalog.shared(for: language)
                context.output.write(
                    shownCatalog.format(
                        .settingsSaved, ["key": settingKey.rawValue, "value": changed.text(for: settingKey)])
                        + "\n")
            }
        }
    }
}

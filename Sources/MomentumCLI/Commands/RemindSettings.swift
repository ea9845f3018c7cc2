import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices
import MomentumStoreContract

extension RemindCommand {
    /// `momentum remind settings [--on KIND] [--off KIND] [--quiet 22:00-08:00] [--preferred 09:00]
    /// [--add-daily "07:30 workdays mindfulness"] [--remove-daily ID] [--json]`: shows the reminder
    /// settings, changing any given — all checked first, so a bad value changes nothing.
    struct Settings: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show or change reminders: kinds on or off, quiet hours, preferred time, daily reminders.",
            discussion: """
                Kinds: practice-due, streak, level-review, welcome-back, daily. Weekdays: mon,wed,fri or \
                all, workdays, weekend. Categories: mindfulness, workout, morse, focus.
                """)

        @Option(name: .customLong("on"), help: ArgumentHelp("Switch a kind of reminder on.", valueName: "kind"))
        var kindsOn: [String] = []

        @Option(name: .customLong("off"), help: ArgumentHelp("Switch a kind of reminder off.", valueName: "kind"))
        var kindsOff: [String] = []

        @Option(
            help: ArgumentHelp("Quiet hours, e.g. 22:00-08:00 (no reminder inside them).", valueName: "from-to"))
        var quiet: String?

        @Option(
            help: ArgumentHelp("Hour for reminders without their own time, e.g. 09:00.", valueName: "time"))
        var preferred: String?

        @Option(
            name: .customLong("add-daily"),
            help: ArgumentHelp(
                "Add a daily reminder: \"TIME WEEKDAYS CATEGORY [ID]\", e.g. \"07:30 workdays mindfulness\".",
                valueName: "reminder"))
        var addDaily: [String] = []

        @Option(
            name: .customLong("remove-daily"), help: ArgumentHelp("Remove the daily reminder ID.", valueName: "id"))
        var removeDaily: [String] = []

        @Flag(help: "Print JSON instead of text.")
        var json = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                var settings = session.settings
                let changed: ReminderSettings
                do {
                    changed = try self.changed(settings.reminders)
                } catch let error as ReminderSettingsError {
                    throw CommandFailure(catalog.text(error.localized))
                }
                if changed != settings.reminders {
                    settings.reminders = changed
                    try await session.services.settings.save(settings)
                }
                if json {
                    context.output.write(try JSONOutput.encode(changed) + "\n")
                } else {
                    context.output.write(Self.text(changed, catalog: catalog))
                }
            }
        }

        /// Every change asked for, in a fixed order; the first bad one stops them all.
        func changed(_ start: ReminderSettings) throws(ReminderSettingsError) -> ReminderSettings {
            var settings = start
            for name in kindsOn { settings = settings.setting(kind: try ReminderKind(parsing: name), on: true) }
            for name in kindsOff { settings = settings.setting(kind: try ReminderKind(parsing: name), on: false) }
            if let quiet {
                let parts = quiet.split(separator: "-", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { throw .invalidTime(.unreadable(quiet)) }
                settings = try settings.withQuietHours(start: parts[0], end: parts[1])
            }
            if let preferred { settings = try settings.withPreferredTime(preferred) }
            for id in removeDaily { settings = try settings.removingDaily(id: id) }
            for text in addDaily {
                let words = text.split(separator: " ").map(String.init)
                guard (3...4).contains(words.count) else { throw .invalidTime(.unreadable(text)) }
                settings = try settings.addingDaily(
                    id: words.count == 4 ? words[3] : nil, time: words[0], weekdays: words[1], category: words[2])
            }
            return settings
        }

        static func text(_ settings: ReminderSettings, catalog: StringCatalog) -> String {
            let width = ReminderKind.allCases.map(\.name.count).max() ?? 0
            var lines = [catalog[.remindSettingsKinds]]
            for kind in ReminderKind.allCases {
                lines.append(
                    "  " + kind.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                        + catalog[settings.isOn(kind) ? .remindSettingsOn : .remindSettingsOff])
            }
            lines.append(
                catalog.format(
                    .remindSettingsQuiet,
                    ["start": "\(settings.quietHours.start)", "end": "\(settings.quietHours.end)"]))
            lines.append(catalog.format(.remindSettingsPreferred, ["time": "\(settings.preferredTime)"]))
            if settings.dailyReminders.isEmpty {
                lines.append(catalog[.remindSettingsNoDaily])
            } else {
                lines.append(catalog[.remindSettingsDaily])
                for reminder in settings.dailyReminders {
                    let days = reminder.weekdays.sorted().map(\.code).joined(separator: ",")
                    lines.append("  \(reminder.id)  \(reminder.time)  \(days)  \(reminder.category.rawValue)")
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}

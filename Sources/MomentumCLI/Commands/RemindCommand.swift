import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum remind …`: the reminders planned for the coming days, and their settings.
struct RemindCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remind",
        abstract: "Reminders that help without nagging: the plan for the coming days, and their settings.",
        subcommands: [Plan.self, Settings.self],
        defaultSubcommand: Plan.self
    )
}

extension RemindCommand {
    /// `momentum remind [--days N] [--json] [--watch]`.
    struct Plan: ContextualCommand {
        static let configuration = CommandConfiguration(
            commandName: "plan",
            abstract: "Print the reminders planned for the coming days, or deliver them as they come.",
            discussion: """
                The plan is made afresh each time from your practice, the Morse course and `momentum remind \
                settings`: at most 2 a day, 4 hours apart, none in quiet hours, none for a category already \
                practised that day. --watch keeps running and shows each reminder when it is due, as a \
                desktop notification when `notify-send` is there, else as a line here (q or Ctrl-C stops).
                """)

        @Option(help: ArgumentHelp("How many days ahead, 1–28.", valueName: "days"))
        var days = ReminderPlanner.defaultHorizonDays

        @Flag(help: "Print JSON instead of text.")
        var json = false

        @Flag(help: "Keep running and deliver each reminder when it is due.")
        var watch = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            let session = try await context.openSession(common)
            let catalog = session.catalog
            guard (1...28).contains(days) else {
                throw CommandFailure(catalog.format(.errorRemindDays, ["value": "\(days)"]))
            }
            if watch {
                try await Self.watch(session: session, context: context)
                return
            }
            let plan = try await session.services.reminders.plan(at: context.now(), horizonDays: days)
            if json {
                context.output.write(
                    try JSONOutput.encode(
                        plan.reminders.map {
                            $0.jsonForm(in: catalog.language, quietHours: plan.quietHours, timeZone: plan.timeZone)
                        }) + "\n")
                return
            }
            context.output.write(Self.text(plan, catalog: catalog))
        }

        static func text(_ plan: ReminderService.Plan, catalog: StringCatalog) -> String {
            guard !plan.reminders.isEmpty else { return catalog[.remindNone] + "\n" }
            let format = catalog.language.dateFormatter(template: "EEE d MMM HH:mm", timeZone: plan.timeZone)
            return plan.reminders.map { reminder in
                "\(format.string(from: reminder.fireAt))  \(catalog.text(reminder.title)) — \(catalog.text(reminder.body))"
            }.joined(separator: "\n") + "\n"
        }

        /// Re-plans at least every minute and delivers each reminder whose time came since the last
        /// look, once. Time and keys come from the context, so tests run a day in microseconds.
        static func watch(session: CommandContext.Session, context: CommandContext) async throws {
            let catalog = session.catalog
            let notifier = ReminderNotifier.detect(environment: context.environment, output: context.output)
            let events = context.makeEvents()
            context.output.write(catalog[.remindWatching] + "\n")
            var lastLook = context.now()
            var delivered: Set<String> = []
            while true {
                let now = context.now()
                let plan = try await session.services.reminders.plan(at: lastLook, horizonDays: 1)
                for reminder in ReminderWatch.due(plan.reminders, after: lastLook, upTo: now)
                where !delivered.contains(reminder.occurrenceID) {
                    delivered.insert(reminder.occurrenceID)
                    notifier.deliver(title: catalog.text(reminder.title), body: catalog.text(reminder.body))
                }
                lastLook = now
                let next = try await session.services.reminders.plan(at: now, horizonDays: 1).reminders.first?.fireAt
                let wait = ReminderWatch.wait(until: next, now: now)
                switch await events.next(until: events.now.advanced(by: wait)) {
                case .key(let key) where key == UInt8(ascii: "q") || key == 3: return
                case nil: return
                default: continue
                }
            }
        }
    }
}

/// Which reminders a watching terminal delivers, and how long it sleeps in between.
enum ReminderWatch {
    /// Longest sleep: the plan changes when the person practises elsewhere.
    static let longestWait: Duration = .seconds(60)

    /// Reminders due in `(after, upTo]`.
    static func due(_ reminders: [PlannedReminder], after start: Date, upTo end: Date) -> [PlannedReminder] {
        reminders.filter { $0.fireAt > start && $0.fireAt <= end }
    }

    /// Until the next reminder, at most a minute, at least a millisecond.
    static func wait(until next: Date?, now: Date) -> Duration {
        guard let next else { return longestWait }
        let seconds = next.timeIntervalSince(now)
        return max(.milliseconds(1), min(longestWait, .milliseconds(Int64((seconds * 1000).rounded(.up)))))
    }
}

/// Shows a reminder: a desktop notification through `notify-send` when there is a desktop
/// session to show it in, else a line in the terminal.
struct ReminderNotifier: Sendable {
    let command: SystemCuePlayer.Command?
    let output: any TextOutput

    static func detect(environment: [String: String], output: any TextOutput) -> ReminderNotifier {
        let hasDesktop = ["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"].contains {
            !(environment[$0] ?? "").isEmpty
        }
        let command = hasDesktop ? SystemCuePlayer.firstOnPath([("notify-send", [])], environment: environment) : nil
        return ReminderNotifier(command: command, output: output)
    }

    func deliver(title: String, body: String) {
        output.write("🔔 \(title) — \(body)\n")
        guard let command else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command.executable)
        process.arguments = ["--app-name=Momentum", title, body]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // try?: the reminder is already written to the terminal above; the desktop notification
        // is a second copy, and a notify-send that cannot start loses nothing.
        try? process.run()
    }
}

import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

// MARK: - Running

extension TimerCommand {
    struct Start: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start a timer (or start it afresh once done); a running one is paused.")

        @Argument(help: ArgumentHelp("The timer's name or id.", valueName: "name"))
        var name: String

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await TimerCommand.withTimer(named: name, common, context) { service, name, catalog in
                let before = try await service.timers()
                let timer = try await service.start(named: name)
                let now = context.now()
                let paused = before.filter { $0.id != timer.id && $0.status(at: now) == .running }.map { other in
                    catalog.format(
                        .focusPausedTimer, ["name": other.name, "remaining": TimerCommand.remaining(other, at: now)])
                        + "\n"
                }
                return paused.joined()
                    + catalog.format(
                        .focusStarted, ["name": timer.name, "remaining": TimerCommand.remaining(timer, at: now)])
                    + "\n"
            }
        }
    }

    struct Pause: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Pause a timer (the running one if none is named).")

        @Argument(help: ArgumentHelp("The timer's name or id.", valueName: "name"))
        var name: String?

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let wanted =
                    if let name { name } else {
                        try await TimerCommand.runningTimer(
                            session.services.focusTimers, at: context.now(), catalog: catalog)
                    }
                let (service, named) = try await session.household.timerService(named: wanted, for: session.person)
                let timer = try await service.pause(named: named)
                context.output.write(
                    catalog.format(
                        .focusPausedTimer,
                        ["name": timer.name, "remaining": TimerCommand.remaining(timer, at: context.now())])
                        + "\n")
            }
        }
    }

    static func runningTimer(_ service: FocusTimerService, at now: Date, catalog: StringCatalog) async throws -> String
    {
        guard let running = try await service.timers().first(where: { $0.status(at: now) == .running }) else {
            throw CommandFailure(catalog[.errorFocusNoneRunning])
        }
        return running.id.uuidString
    }

    struct Resume: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Resume a paused timer.")

        @Argument(help: ArgumentHelp("The timer's name or id.", valueName: "name"))
        var name: String

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await TimerCommand.withTimer(named: name, common, context) { service, name, catalog in
                let timer = try await service.resume(named: name)
                return catalog.format(
                    .focusStarted, ["name": timer.name, "remaining": TimerCommand.remaining(timer, at: context.now())])
                    + "\n"
            }
        }
    }

    struct Reset: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Put a timer back to its full time.")

        @Argument(help: ArgumentHelp("The timer's name or id.", valueName: "name"))
        var name: String

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await TimerCommand.withTimer(named: name, common, context) { service, name, catalog in
                let timer = try await service.reset(named: name)
                return catalog.format(
                    .focusResetTimer,
                    [
                        "name": timer.name,
                        "duration": DurationFormatting.words(timer.duration, language: catalog.language),
                    ])
                    + "\n"
            }
        }
    }

    struct Complete: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark a started timer done now (the time counted is logged as focus).")

        @Argument(help: ArgumentHelp("The timer's name or id.", valueName: "name"))
        var name: String

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await TimerCommand.withTimer(named: name, common, context) { service, name, catalog in
                let timer = try await service.complete(named: name)
                return catalog.format(.focusCompletedTimer, ["name": timer.name]) + "\n"
            }
        }
    }
}

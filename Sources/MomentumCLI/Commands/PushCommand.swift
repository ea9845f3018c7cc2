import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices
import MomentumStoreContract

/// `momentum push list|test|remove`: the devices that get a person's notifications (Web Push,
/// docs/notifications.md). The browser subscribes; here they are seen, tried and ended.
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "See, test and remove the devices that get a person's notifications (--user: whose).",
        subcommands: [List.self, Test.self, Remove.self],
        defaultSubcommand: List.self
    )

    struct List: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the devices that get notifications: name, since when, last delivered, last failure.")

        @Flag(
            help:
                "Print them as JSON: id, deviceName, pushService, createdAt, expiresAt, lastDeliveredAt, lastFailureAt, lastFailure."
        )
        var json = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let views = try await session.services.pushSubscriptions.subscriptions().map(PushSubscriptionView.init)
                if json {
                    context.output.write(try JSONOutput.encode(views) + "\n")
                    return
                }
                let catalog = session.catalog
                guard !views.isEmpty else {
                    context.output.write(catalog[.pushNone] + "\n")
                    return
                }
                let day = { (date: Date?) in
                    date.map { InstantText.format($0, timeZone: context.timeZone) } ?? catalog[.pushNever]
                }
                let rows = views.map { view in
                    [
                        view.id, view.deviceName, view.pushService,
                        DayText.iso(view.createdAt, timeZone: context.timeZone),
                        day(view.lastDeliveredAt), view.lastFailure ?? "",
                    ]
                }
                context.output.write(TextTable.render(rows))
            }
        }
    }

    struct Test: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Send a test notification to each device now ($MOMENTUM_PUSH_ALLOW and $MOMENTUM_PUSH_CONTACT as for serve)."
        )

        @Flag(help: "Print the answers as JSON: id, deviceName, outcome (delivered, gone, failed), reason.")
        var json = false

        @OptionGroup var common: CommonOptions

        struct AnswerJSON: Encodable {
            var id: String
            var deviceName: String
            var outcome: String
            var reason: String?
        }

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let origins = try Serve.pushOrigins([], environment: context.environment, catalog: catalog)
                let contact = try Serve.pushContact(nil, environment: context.environment, catalog: catalog)
                let delivery = PushDelivery(
                    household: session.household, transport: HTTPPushTransport(admitting: origins),
                    configuration: .init(contact: contact, admitted: origins), now: context.now, makeID: context.makeID)
                let results = try await delivery.sendTest(to: session.person)
                guard !results.isEmpty else {
                    if json { context.output.write("[]\n") } else { context.output.write(catalog[.pushNone] + "\n") }
                    return
                }
                if json {
                    let answers = results.map { subscription, settlement in
                        AnswerJSON(
                            id: subscription.id.uuidString.lowercased(), deviceName: subscription.deviceName,
                            outcome: settlement.outcome, reason: settlement.failure)
                    }
                    context.output.write(try JSONOutput.encode(answers) + "\n")
                    return
                }
                for (subscription, settlement) in results {
                    let view = PushSubscriptionView(subscription)
                    let line: String =
                        switch settlement {
                        case .delivered:
                            catalog.format(
                                .pushTestDelivered, ["device": view.deviceName, "service": view.pushService])
                        case .gone: catalog.format(.pushTestGone, ["device": view.deviceName])
                        default:
                            catalog.format(
                                .pushTestFailed, ["device": view.deviceName, "reason": settlement.failure ?? ""])
                        }
                    context.output.write(line + "\n")
                }
                if !results.contains(where: { $0.1 == .delivered }) { throw ExitCode(CommandExit.unavailable.rawValue) }
            }
        }
    }

    struct Remove: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop notifications to a device (see `push list` for its id).")

        @Argument(help: ArgumentHelp("The device's id (see `push list`).", valueName: "id"))
        var id: String

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let subscriptions = try await session.services.pushSubscriptions.subscriptions()
                guard let uuid = UUID(uuidString: id.trimmingCharacters(in: .whitespaces)),
                    let subscription = subscriptions.first(where: { $0.id == uuid }),
                    try await session.services.pushSubscriptions.remove(id: uuid)
                else {
                    throw CommandFailure(catalog[.errorPushNoSuchSubscription])
                }
                context.output.write(catalog.format(.pushRemoved, ["device": subscription.deviceName]) + "\n")
            }
        }
    }
}

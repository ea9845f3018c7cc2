import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum token create|list|revoke`: access tokens for the web app off this machine.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract:
            "Make, list and revoke a person's access tokens for `momentum serve` on a network address (--user: whose).",
        subcommands: [Create.self, List.self, Revoke.self],
        defaultSubcommand: List.self
    )

    struct Create: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a token and print it once (only its hash is kept).")

        @Option(help: ArgumentHelp("A name to know it by, e.g. the device it is for.", valueName: "name"))
        var name: String?

        @Option(
            help: ArgumentHelp(
                "What it opens: full (the app and its API) or feed (only the reminders calendar feed, "
                    + "for the URL a calendar app keeps).", valueName: "full|feed"))
        var scope: AccessScope = .full

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let created = try await session.services.accessTokens.create(
                    name: name, scope: scope, personID: session.person.id)
                let catalog = session.catalog
                context.output.write(
                    catalog.format(.tokenCreated, ["id": created.token.id, "name": created.token.name]) + "\n"
                        + created.secret + "\n")
                if scope == .feed { context.output.write(catalog[.tokenCreatedFeed] + "\n") }
            }
        }
    }

    struct List: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "List the tokens (never their secrets).")

        @Flag(help: "Print the tokens as JSON: id, name, scope, createdAt, revokedAt (never a secret or its hash).")
        var json = false

        @OptionGroup var common: CommonOptions

        /// One token as `--json` prints it.
        struct TokenJSON: Encodable {
            var id: String
            var name: String
            var scope: String
            var createdAt: String
            var revokedAt: String?
        }

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let tokens = try await session.services.accessTokens.tokens(of: session.person.id)
                if json {
                    let rows = tokens.map { token in
                        TokenJSON(
                            id: token.id, name: token.name, scope: token.scope.rawValue,
                            createdAt: InstantText.format(token.createdAt),
                            revokedAt: token.revokedAt.map { InstantText.format($0) })
                    }
                    context.output.write(try JSONOutput.encode(rows) + "\n")
                    return
                }
                guard !tokens.isEmpty else {
                    context.output.write(catalog[.tokenNone] + "\n")
                    return
                }
                let rows = tokens.map { token in
                    [
                        token.id, token.name, DayText.iso(token.createdAt, timeZone: context.timeZone),
                        catalog[token.scope == .full ? .tokenScopeFull : .tokenScopeFeed],
                        catalog[token.isRevoked ? .tokenRevokedState : .tokenActive],
                    ]
                }
                context.output.write(TextTable.render(rows))
            }
        }
    }

    struct Revoke: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token: it stops working at once.")

        @Argument(help: ArgumentHelp("The token's id (see `token list`).", valueName: "id"))
        var id: String

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let token = try await session.services.accessTokens.revoke(id: id, of: session.person.id)
                context.output.write(
                    session.catalog.format(.tokenRevoked, ["id": token.id, "name": token.name]) + "\n")
            }
        }
    }
}

extension AccessScope: ExpressibleByArgument {}

/// A day as `2027-01-15` in a time zone.
enum DayText {
    static func iso(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}

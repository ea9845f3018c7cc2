import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum user add|list|rename|role|pin|remove`: the people of this server's household, each
/// with their own practice (see `docs/people.md`).
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "The people of this server: each has their own log, streaks, timers, Morse course and reminders.",
        subcommands: [Add.self, List.self, Rename.self, Role.self, PIN.self, Remove.self],
        defaultSubcommand: List.self
    )

    struct Add: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a person, with their own empty practice (--lang: their language, en or de).")

        @Argument(help: ArgumentHelp("Their name (1–40 characters), as --user takes it.", valueName: "name"))
        var name: String

        @Option(help: ArgumentHelp("owner (manages the household) or member.", valueName: "owner|member"))
        var role: PersonRole = .member

        /// `--lang` here is also the new person's language.
        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            let language = try common.language()
            try await context.withSession(common) { session in
                let person = try await session.household.add(named: name, role: role, language: language)
                context.output.write(
                    session.catalog.format(
                        .userAdded, ["name": person.name, "role": session.catalog[person.role.textKey]]) + "\n")
            }
        }
    }

    struct List: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "List the people of this server.")

        @Flag(help: "Print them as JSON: id, name, role, language, hasPIN, createdAt.")
        var json = false

        @OptionGroup var common: CommonOptions

        struct PersonJSON: Encodable {
            var id: Person.ID
            var name: String
            var role: String
            var language: String?
            var hasPIN: Bool
            var createdAt: String
        }

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let people = try await session.household.people()
                var languages: [String?] = []
                for person in people {
                    languages.append(
                        try await session.household.services(for: person).settings.load().language?.rawValue)
                }
                if json {
                    let rows = zip(people, languages).map { person, language in
                        PersonJSON(
                            id: person.id, name: person.name, role: person.role.rawValue, language: language,
                            hasPIN: person.hasPIN, createdAt: InstantText.format(person.createdAt))
                    }
                    context.output.write(try JSONOutput.encode(rows) + "\n")
                    return
                }
                let header = [
                    catalog[.userColumnName], catalog[.userColumnRole], catalog[.userColumnLanguage],
                    catalog[.userColumnPin], catalog[.userColumnJoined],
                ]
                let rows = zip(people, languages).map { person, language in
                    [
                        person.name + (person.id == session.person.id ? " " + catalog[.userYou] : ""),
                        catalog[person.role.textKey], language ?? "–", person.hasPIN ? "✓" : "",
                        DayText.iso(person.createdAt, timeZone: context.timeZone),
                    ]
                }
                context.output.write(TextTable.render([header] + rows))
            }
        }
    }

    struct Rename: ContextualCommand {
        static let configuration = CommandConfiguration(abstract: "Give a person another name.")

        @Argument(help: ArgumentHelp("Their name now.", valueName: "name"))
        var name: String

        @Argument(help: ArgumentHelp("Their new name.", valueName: "new-name"))
        var newName: String

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let old = try await session.household.person(named: name).name
                let person = try await session.household.rename(name, to: newName)
                context.output.write(session.catalog.format(.userRenamed, ["old": old, "name": person.name]) + "\n")
            }
        }
    }

    struct Role: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a person an owner or a member (a household always keeps an owner).")

        @Argument(help: ArgumentHelp("Their name.", valueName: "name"))
        var name: String

        @Argument(help: ArgumentHelp("owner or member.", valueName: "owner|member"))
        var role: PersonRole

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let person = try await session.household.setRole(of: name, to: role)
                context.output.write(
                    session.catalog.format(
                        .userRoleChanged, ["name": person.name, "role": session.catalog[person.role.textKey]]) + "\n")
            }
        }
    }

    struct PIN: ContextualCommand {
        static let configuration = CommandConfiguration(
            commandName: "pin",
            abstract: "Lock a person's profile on this server's own screen with a PIN (4–8 digits).")

        @Argument(help: ArgumentHelp("Their name.", valueName: "name"))
        var name: String

        @Argument(help: ArgumentHelp("The PIN; leave it out with --clear.", valueName: "pin"))
        var pin: String?

        @Flag(help: "Remove the PIN.")
        var clear = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                guard (pin == nil) == clear else { throw CommandFailure(session.catalog[.userPinOrClear]) }
                try await session.household.setPIN(of: name, to: clear ? nil : pin)
                let person = try await session.household.person(named: name)
                context.output.write(
                    session.catalog.format(clear ? .userPinCleared : .userPinSet, ["name": person.name]) + "\n")
            }
        }
    }

    struct Remove: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a person and all their practice (asks first, unless --yes).")

        @Argument(help: ArgumentHelp("Their name.", valueName: "name"))
        var name: String

        @Flag(help: "Do not ask.")
        var yes = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let person = try await session.household.person(named: name)
                try await Household.checkRemoval(of: person, among: try session.household.people())
                if !yes {
                    context.output.write(catalog.format(.userRemoveAsk, ["name": person.name]) + " ")
                    let answer = context.readAnswer()?.trimmingCharacters(in: .whitespaces) ?? ""
                    guard answer.caseInsensitiveCompare(person.name) == .orderedSame else {
                        context.output.write(catalog[.userRemoveKept] + "\n")
                        throw ExitCode(CommandExit.declined.rawValue)
                    }
                }
                try await session.household.remove(person.name)
                context.output.write(catalog.format(.userRemoved, ["name": person.name]) + "\n")
            }
        }
    }
}

extension PersonRole: ExpressibleByArgument {
    /// The role in the person's words.
    var textKey: StringKey { self == .owner ? .userRoleOwner : .userRoleMember }
}

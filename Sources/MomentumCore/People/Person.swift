import Foundation

/// One person of a household: everyone who practises on one Momentum server has their own log,
/// streaks, goals and settings, presets and programs, focus timers, Morse course, reminders and
/// sync state. The guided-meditation library's audio files are the household's (see
/// `docs/people.md`).
///
/// The household's first person (``founderID``) keeps the data directory's own database: an
/// installation made before households existed is that person's, unchanged. Everyone added later
/// gets a database of their own under `people/ID/`.
public struct Person: Sendable, Equatable, Identifiable, Codable {
    public typealias ID = Int64

    public var id: ID
    public var name: String
    public var role: PersonRole
    public var createdAt: Date
    /// Whether choosing this person on the server's own screen asks for a PIN.
    public var hasPIN: Bool

    public init(id: ID, name: String, role: PersonRole, createdAt: Date, hasPIN: Bool = false) {
        self.id = id
        self.name = name
        self.role = role
        self.createdAt = createdAt
        self.hasPIN = hasPIN
    }

    /// The first person of every household: the data directory's own database is theirs.
    public static let founderID: ID = 1

    /// Where this person's database lives, relative to the data directory: `nil` for the
    /// founder (the data directory itself), `people/ID` for everyone else.
    public var dataFolder: String? { id == Self.founderID ? nil : "people/\(id)" }
}

/// What a person may do beyond their own practice. An owner manages the household: adds,
/// renames and removes people, pairs their devices, and sees and ends their sessions and tokens.
public enum PersonRole: String, Sendable, Equatable, CaseIterable, Codable {
    case owner
    case member
}

/// The rules of a household's people, decided before anything is written.
public enum Household {
    /// The most people one server holds (a family or a flat, not a community: see issue 27 for that).
    public static let maximumPeople = 20

    /// The person whose name is `name` (case- and width-insensitive, trimmed), or `.unknownPerson`.
    public static func person(named name: String, in people: [Person]) throws(PersonError) -> Person {
        let wanted = PersonName.comparable(name)
        guard let person = people.first(where: { PersonName.comparable($0.name) == wanted }) else {
            throw .unknownPerson(name.trimmingCharacters(in: .whitespaces))
        }
        return person
    }

    /// `name` checked for a new person, or for renaming `renaming`: valid, and no one else has it.
    public static func checkedName(
        _ name: String, among people: [Person], renaming: Person.ID? = nil
    ) throws(PersonError) -> String {
        let valid = try PersonName.validated(name)
        let wanted = PersonName.comparable(valid)
        if people.contains(where: { $0.id != renaming && PersonName.comparable($0.name) == wanted }) {
            throw .nameTaken(valid)
        }
        return valid
    }

    /// Whether one more person may join.
    public static func checkRoom(among people: [Person]) throws(PersonError) {
        guard people.count < maximumPeople else { throw .householdFull(maximum: maximumPeople) }
    }

    /// Whether `person` may be removed: not the founder (their data is the data directory's own
    /// database), and never the last owner.
    public static func checkRemoval(of person: Person, among people: [Person]) throws(PersonError) {
        guard person.id != Person.founderID else { throw .founderStays(person.name) }
        try checkOwnersRemain(without: person, among: people)
    }

    /// Whether `person` may get `role`: a household always keeps an owner.
    public static func checkRoleChange(of person: Person, to role: PersonRole, among people: [Person])
        throws(PersonError)
    {
        guard role != .owner else { return }
        try checkOwnersRemain(without: person, among: people)
    }

    /// The people a timer of `owner` is shared with, from their names: each one known, never the
    /// owner, each once (an empty list shares it with no one).
    public static func sharees(named names: [String], owner: Person, among people: [Person]) throws(PersonError)
        -> [Person]
    {
        var sharees: [Person] = []
        for name in names {
            let person = try person(named: name, in: people)
            guard person.id != owner.id else { throw .shareWithOwner(person.name) }
            if !sharees.contains(person) { sharees.append(person) }
        }
        return sharees
    }

    private static func checkOwnersRemain(without person: Person, among people: [Person]) throws(PersonError) {
        let otherOwners = people.filter { $0.role == .owner && $0.id != person.id }
        guard person.role != .owner || !otherOwners.isEmpty else { throw .lastOwner(person.name) }
    }
}

/// A person's name: what the household sees, what `--user` takes.
public enum PersonName {
    public static let maximumLength = 40

    /// `text` trimmed, if it may name a person: 1–40 characters, within ``TextInput``'s rule for
    /// one-line texts (no control characters, no bidirectional controls or U+FEFF), not starting
    /// with `-` (it would read as an option after `--user`).
    public static func validated(_ text: String) throws(PersonError) -> String {
        do {
            try TextInput.check(text, field: "name")
        } catch {
            switch error {
            case .controlCharacter(_, let code): throw .nameControlCharacter(code: code)
            case .bidirectionalControl(_, let code): throw .nameBidirectionalControl(code: code)
            }
        }
        let name = text.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw .nameEmpty }
        guard name.count <= maximumLength else { throw .nameTooLong(count: name.count, maximum: maximumLength) }
        guard !name.hasPrefix("-") else { throw .nameStartsWithDash }
        return name
    }

    /// The founder's name when a household is first made: the login's name if it may name a
    /// person, otherwise "owner" (`user rename` changes it).
    public static func founder(login: String?) -> String {
        // try?: a login that may not name a person (empty, too long, starting with `-`) makes
        // the founder "owner", as documented above; `user rename` gives them their name.
        guard let login, let name = try? validated(login), name != "root" else { return "owner" }
        return name
    }

    /// How two names are compared: trimmed, case- and width-insensitive ("Anna" is "anna").
    static func comparable(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespaces)
            .folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
    }
}

/// Why a person cannot be found, named, added, changed or removed.
public enum PersonError: Error, Equatable, Sendable {
    case nameEmpty
    case nameTooLong(count: Int, maximum: Int)
    case nameControlCharacter(code: UInt32)
    /// A bidirectional control or U+FEFF (see ``TextInput``).
    case nameBidirectionalControl(code: UInt32)
    case nameStartsWithDash
    case nameTaken(String)
    case unknownPerson(String)
    case lastOwner(String)
    case founderStays(String)
    case householdFull(maximum: Int)
    case pinFormat(minimum: Int, maximum: Int)
    /// A wrong PIN, or a PIN asked of a profile that has none.
    case pinWrong
    /// A timer is its owner's already: it is shared with others.
    case shareWithOwner(String)
}

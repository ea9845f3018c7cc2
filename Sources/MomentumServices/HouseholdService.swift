import Foundation
import MomentumCore
import MomentumStoreContract
import Synchronization

/// The people of one server and the services of each: the composition root of a household.
///
/// The founder (``Person/founderID``) keeps the data directory's own database, so an installation
/// made before households existed is theirs, unchanged; everyone added later gets a database of
/// their own under `people/ID/`. The household's own things live in the founder's database: who
/// belongs to it, every person's tokens and sign-in sessions, pairing codes, and the guided
/// library's rows (its audio files are in the data directory's `library/`).
///
/// ```swift
/// let household = try HouseholdService.open(dataDirectory: url, device: "terminal@laptop")
/// let anna = try household.add(named: "Anna", role: .member, language: .german)
/// let annas = try household.services(for: anna)     // her log, her timers, her Morse course
/// ```
public final class HouseholdService: Sendable {
    /// This server's own folder: on SQLite the household's data (the founder's database, everyone
    /// else's under `people/`); on PostgreSQL only caches (and, unless told otherwise, the
    /// library's audio files).
    public let dataDirectory: URL
    /// The founder's services.
    public let founder: MomentumServices
    /// Who belongs to the household, their tokens, pairing codes and shares: the founder's SQLite
    /// database, or the PostgreSQL store.
    public let store: any HouseholdStore
    private let openPerson: @Sendable (Person.ID) async throws(StoreError) -> MomentumServices
    private let removePersonData: @Sendable (Person.ID) async throws(StoreError) -> Void
    private let opened = Mutex<[Person.ID: MomentumServices]>([:])
    /// The openings under way: requests that come at once share one.
    private let opening = Mutex<[Person.ID: Task<Result<MomentumServices, StoreError>, Never>]>([:])
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID
    private let makeSecret: @Sendable () -> String

    public var accessTokens: AccessTokenService { founder.accessTokens }
    /// Web Push: the household's server key.
    public let push: PushService

    package init(
        dataDirectory: URL, founder: MomentumServices, store: any HouseholdStore, now: @escaping @Sendable () -> Date,
        makeID: @escaping @Sendable () -> UUID, makeSecret: @escaping @Sendable () -> String,
        openPerson: @escaping @Sendable (Person.ID) async throws(StoreError) -> MomentumServices,
        removePersonData: @escaping @Sendable (Person.ID) async throws(StoreError) -> Void
    ) {
        self.dataDirectory = dataDirectory
        self.founder = founder
        self.store = store
        self.push = PushService(store: store, now: now)
        self.now = now
        self.makeID = makeID
        self.makeSecret = makeSecret
        self.openPerson = openPerson
        self.removePersonData = removePersonData
    }

    // MARK: - People

    /// Everyone, in the order they joined.
    public func people() async throws(StoreError) -> [Person] {
        try await store.people()
    }

    public func person(id: Person.ID) async throws(StoreError) -> Person? {
        try await people().first { $0.id == id }
    }

    /// The person named `name` (any case), or the founder for `nil`: whom a command acts as.
    public func person(named name: String?) async throws(HouseholdError) -> Person {
        let people = try await storing { () async throws(StoreError) in try await self.people() }
        guard let name else {
            guard let founder = people.first(where: { $0.id == Person.founderID }) ?? people.first else {
                throw .person(.unknownPerson("owner"))
            }
            return founder
        }
        do { return try Household.person(named: name, in: people) } catch { throw .person(error) }
    }

    /// The services of `person`: their own data, the household's library and tokens.
    public func services(for person: Person) async throws(StoreError) -> MomentumServices {
        try await services(forID: person.id)
    }

    public func services(forID id: Person.ID) async throws(StoreError) -> MomentumServices {
        guard id != Person.founderID else { return founder }
        if let services = opened.withLock({ $0[id] }) { return services }
        // One opening of a person's store at a time: requests that come at once (two phones'
        // live feeds after a restart, each watching everyone's shared timers) share it, rather
        // than open and migrate one database twice and keep observers on services thrown away.
        let task = opening.withLock { opening in
            if let running = opening[id] { return running }
            let openPerson = openPerson
            let task = Task { () async -> Result<MomentumServices, StoreError> in
                do throws(StoreError) { return .success(try await openPerson(id)) } catch { return .failure(error) }
            }
            opening[id] = task
            return task
        }
        let result = await task.value
        let services: MomentumServices?
        if case .success(let opened) = result { services = opened } else { services = nil }
        let kept = opened.withLock { opened -> MomentumServices? in
            guard let services else { return nil }
            if let earlier = opened[id] { return earlier }
            opened[id] = services
            return services
        }
        // Kept (or failed) before it is forgotten, so no request opens it again in between.
        opening.withLock { opening in if opening[id] == task { opening[id] = nil } }
        if let kept { return kept }
        return try result.get()
    }

    /// Adds a person, with their own (empty) practice data; `language` is their first setting.
    @discardableResult
    public func add(named name: String, role: PersonRole = .member, language: Language? = nil)
        async
        throws(HouseholdError) -> Person
    {
        let people = try await storing { () async throws(StoreError) in try await self.people() }
        let valid: String
        do {
            try Household.checkRoom(among: people)
            valid = try Household.checkedName(name, among: people)
        } catch { throw .person(error) }
        let person = try await storing { () async throws(StoreError) in
            try await self.store.insertPerson(named: valid, role: role, at: self.now())
        }
        if let language {
            let services = try await storing { () async throws(StoreError) in try await self.services(for: person) }
            do {
                var settings = try await services.settings.load()
                settings.language = language
                try await services.settings.save(settings)
            } catch {
                throw .store(error)
            }
        }
        return person
    }

    @discardableResult
    public func rename(_ name: String, to newName: String) async throws(HouseholdError) -> Person {
        var person = try await person(named: name)
        let people = try await storing { () async throws(StoreError) in try await self.people() }
        do { person.name = try Household.checkedName(newName, among: people, renaming: person.id) } catch {
            throw .person(error)
        }
        let renamed = person.name
        try await storing { () async throws(StoreError) in try await self.store.renamePerson(id: person.id, to: renamed)
        }
        return person
    }

    @discardableResult
    public func setRole(of name: String, to role: PersonRole) async throws(HouseholdError) -> Person {
        var person = try await person(named: name)
        let people = try await storing { () async throws(StoreError) in try await self.people() }
        do { try Household.checkRoleChange(of: person, to: role, among: people) } catch { throw .person(error) }
        try await storing { () async throws(StoreError) in try await self.store.setPersonRole(id: person.id, role) }
        person.role = role
        return person
    }

    /// Removes a person and everything that is theirs — their practice data, tokens, sessions and
    /// pairing codes — and nothing else.
    @discardableResult
    public func remove(_ name: String) async throws(HouseholdError) -> Person {
        let person = try await person(named: name)
        let people = try await storing { () async throws(StoreError) in try await self.people() }
        do { try Household.checkRemoval(of: person, among: people) } catch { throw .person(error) }
        try await storing { () async throws(StoreError) in try await self.store.deletePerson(id: person.id) }
        opened.withLock { _ = $0.removeValue(forKey: person.id) }
        try await storing { () async throws(StoreError) in try await self.removePersonData(person.id) }
        return person
    }

    /// Where a person other than the founder keeps their SQLite database.
    package static func personDirectory(_ id: Person.ID, in dataDirectory: URL) -> URL {
        dataDirectory.appendingPathComponent("people", isDirectory: true)
            .appendingPathComponent(String(id), isDirectory: true)
    }

    func personDirectory(_ id: Person.ID) -> URL {
        Self.personDirectory(id, in: dataDirectory)
    }

    /// The timers `owner` shares, with whom.
    public func timerShares(ownedBy owner: Person.ID) async throws(StoreError) -> [TimerShare] {
        try await store.timerShares().filter { $0.ownerID == owner }
    }

    // MARK: - Devices

    /// A way in for a person: a token made with `momentum token create`, or a device signed in by
    /// pairing (or by choosing its profile on the server's own screen), with its sessions.
    public struct Device: Sendable, Equatable {
        public var token: AccessToken
        /// Live sign-in sessions (browsers) made with it.
        public var sessions: Int
        public var lastUsedAt: Date?
    }

    /// The live ways in of `person`, oldest first (revoked tokens are left out).
    public func devices(of person: Person) async throws(StoreError) -> [Device] {
        let use = try await store.accessSessionUse()
        return try await accessTokens.tokens(of: person.id).filter { !$0.isRevoked }.map { token in
            Device(token: token, sessions: use[token.id]?.sessions ?? 0, lastUsedAt: use[token.id]?.lastUsedAt)
        }
    }

    /// Signs a browser on the server's own screen in as `person`, if `pin` opens their profile: a
    /// session (its id, for the cookie) under the person's "this computer" way in, made once.
    public func chooseProfile(_ person: Person, pin: String?) async throws(HouseholdError) -> String {
        guard try await storing({ () throws(StoreError) in try await self.checkPIN(pin, for: person) }) else {
            throw .person(.pinWrong)
        }
        return try await storing { () async throws(StoreError) in
            try await self.accessTokens.startSession(with: try self.screenToken(of: person))
        }
    }

    private func screenToken(of person: Person) async throws(StoreError) -> AccessToken {
        let kept = try await accessTokens.tokens(of: person.id).first {
            $0.isPairing && !$0.isRevoked && $0.name == Self.screenTokenName
        }
        if let kept { return kept }
        let token = AccessToken(
            id: String(makeID().uuidString.lowercased().suffix(8)), name: Self.screenTokenName,
            secretHash: AccessTokenService.hash(makeSecret()), createdAt: now(), personID: person.id, isPairing: true)
        try await store.saveAccessToken(token)
        return token
    }

    /// The name of the way in that profiles chosen on the server's own screen share.
    public static let screenTokenName = "this computer"

    // MARK: - PINs on the server's own screen

    /// Locks (or with `nil` unlocks) a person's profile on the server's own screen with a PIN.
    public func setPIN(of name: String, to pin: String?) async throws(HouseholdError) {
        let person = try await person(named: name)
        let hash: String?
        if let pin {
            do { hash = Self.pinHash(try PersonPIN.validated(pin), person: person.id) } catch { throw .person(error) }
        } else {
            hash = nil
        }
        try await storing { () async throws(StoreError) in try await self.store.setPersonPINHash(id: person.id, hash) }
    }

    /// Whether `pin` opens `person`'s profile (any PIN opens a profile without one).
    public func checkPIN(_ pin: String?, for person: Person) async throws(StoreError) -> Bool {
        guard let stored = try await store.personPINHash(id: person.id) else { return true }
        guard let pin, PersonPIN.digits.contains(pin.count) else { return false }
        return Self.pinHash(pin, person: person.id) == stored
    }

    /// A PIN is short: its hash is salted with the person, so two equal PINs do not look equal.
    static func pinHash(_ pin: String, person: Person.ID) -> String {
        AccessTokenService.hash("momentum-pin:\(person):\(pin)")
    }

    // MARK: - Pairing a device

    /// A fresh one-time code for `person`, usable for ``PairingCode/lifetime``.
    public struct Pairing: Sendable, Equatable {
        public var person: Person
        /// Grouped for reading (`7KQM-X3HD-R9WE`).
        public var code: String
        public var expiresAt: Date
    }

    public func startPairing(for person: Person) async throws(StoreError) -> Pairing {
        var random = SystemRandomNumberGenerator()
        let code = PairingCode.make(using: &random)
        let at = now()
        try await store.savePairingCode(hash: AccessTokenService.hash(code), personID: person.id, at: at)
        return Pairing(
            person: person, code: PairingCode.grouped(code), expiresAt: at.addingTimeInterval(PairingCode.lifetime))
    }

    /// Spends `code`: a new sign-in session (its id, for the cookie) for the code's person, under a
    /// token of its own named `deviceName` that the owner can see and end.
    public func pair(code: String, deviceName: String?) async throws(HouseholdError) -> (
        sessionID: String, person: Person
    ) {
        let normalized: String
        do { normalized = try PairingCode.normalized(code) } catch { throw .pairing(error) }
        let at = now()
        let id = String(makeID().uuidString.lowercased().suffix(8))
        // try?: the device's name is only a label in the owner's list; one that may not be shown
        // (empty, too long, control characters) gets `paired-<id>`, and pairing goes on.
        let name = deviceName.flatMap { try? DeviceName.validated($0) } ?? "paired-\(id)"
        let token = AccessToken(
            id: id, name: name, secretHash: AccessTokenService.hash(makeSecret()), createdAt: at, isPairing: true)
        let paired = try await storing { () async throws(StoreError) in
            try await self.store.spendPairingCode(hash: AccessTokenService.hash(normalized), token: token, at: at)
        }
        guard let paired else { throw .pairing(.notUsable) }
        let person = try await storing { () async throws(StoreError) in try await self.person(id: paired.personID) }
        guard let person else { throw .pairing(.notUsable) }
        let sessionID = try await storing { () async throws(StoreError) in
            try await self.accessTokens.startSession(with: paired)
        }
        return (sessionID, person)
    }

    @discardableResult
    func storing<T>(_ work: () async throws(StoreError) -> T) async throws(HouseholdError) -> T {
        do { return try await work() } catch { throw .store(error) }
    }
}

/// Why a household change or a pairing did not happen. Nothing is written in any case.
public enum HouseholdError: Error, Equatable, Sendable {
    case person(PersonError)
    case pairing(PairingError)
    case store(StoreError)
    /// Changing the household is an owner's (docs/people.md).
    case ownerOnly
    /// No person of that id — or none the asking member may reach: to a member, the others do
    /// not exist.
    case noSuchPerson
}

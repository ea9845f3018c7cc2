import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

/// The household's people, pairing codes and timer shares: global tables, as in the founder's
/// SQLite database (`MomentumDatabase+People.swift`), with the same methods.
///
/// Every request asks who the people are (the access check), so the list is kept as SQLite keeps
/// it while other processes write: read again after ``peopleRereadAfter``, at once after this
/// process changed it. Another server's change (a person added, renamed, given a role or removed)
/// is seen here within that time; tokens and sign-in sessions are read per request, so a removed
/// person's devices are refused at once everywhere.
extension PostgresStore {
    static let personColumns = "id, name, role, pin_hash, created_at_ms"

    /// How long the list of people is kept before it is read again (SQLite's
    /// `MomentumDatabase.peopleRereadAfter`).
    public static let peopleRereadAfter: Duration = .milliseconds(250)

    /// Everyone, in the order they joined.
    public func people() async throws(StoreError) -> [Person] {
        let (kept, generation) = peopleCache.current(maximumAge: Self.peopleRereadAfter)
        if let kept { return kept }
        let people = try await read { session throws(StoreError) in try await Self.people(in: session) }
        peopleCache.keep(people, readIn: generation)
        return people
    }

    /// Writes the founder (``Person/founderID``, an owner named `name`) unless they exist (or the
    /// name is taken: SQLite's `INSERT OR IGNORE`); returns everyone.
    public func ensureFounder(named name: String, at now: Date) async throws(StoreError) -> [Person] {
        defer { peopleCache.forget() }
        return try await write { session throws(StoreError) in
            let inserted = try await session.execute(
                """
                INSERT INTO person (id, name, role, created_at_ms)
                VALUES (\(Person.founderID), \(name), 'owner', \(now.millisecondsSince1970))
                ON CONFLICT DO NOTHING
                """)
            if inserted > 0 {
                // An id written by hand does not move the identity: move it past the founder, so
                // that the next person gets the next id (SQLite's AUTOINCREMENT) and never theirs.
                try await session.execute(
                    """
                    SELECT setval(pg_get_serial_sequence('person', 'id'),
                        GREATEST(nextval(pg_get_serial_sequence('person', 'id')), \(Person.founderID)))
                    """)
            }
            return try await Self.people(in: session)
        }
    }

    /// Adds a person; their id is never reused, even after they are removed (an identity hands
    /// out each number once).
    public func insertPerson(named name: String, role: PersonRole, at now: Date) async throws(StoreError) -> Person {
        defer { peopleCache.forget() }
        return try await read { session throws(StoreError) in
            let rows = try await session.query(
                """
                INSERT INTO person (name, role, created_at_ms)
                VALUES (\(name), \(role.rawValue), \(now.millisecondsSince1970))
                RETURNING id
                """)
            guard let row = rows.first else {
                throw StoreError.database(message: "PostgreSQL: no id for the new person")
            }
            let (id) = try row.columns((Int64).self)
            return Person(
                id: id, name: name, role: role, createdAt: Date(millisecondsSince1970: now.millisecondsSince1970))
        }
    }

    @discardableResult
    public func renamePerson(id: Person.ID, to name: String) async throws(StoreError) -> Bool {
        defer { peopleCache.forget() }
        return try await read { session throws(StoreError) in
            try await session.execute("UPDATE person SET name = \(name) WHERE id = \(id)") > 0
        }
    }

    @discardableResult
    public func setPersonRole(id: Person.ID, _ role: PersonRole) async throws(StoreError) -> Bool {
        defer { peopleCache.forget() }
        return try await read { session throws(StoreError) in
            try await session.execute("UPDATE person SET role = \(role.rawValue) WHERE id = \(id)") > 0
        }
    }

    /// Sets (or with `nil` clears) the hash of the PIN that locks a person's profile.
    @discardableResult
    public func setPersonPINHash(id: Person.ID, _ hash: String?) async throws(StoreError) -> Bool {
        defer { peopleCache.forget() }
        return try await read { session throws(StoreError) in
            try await session.execute("UPDATE person SET pin_hash = \(hash) WHERE id = \(id)") > 0
        }
    }

    public func personPINHash(id: Person.ID) async throws(StoreError) -> String? {
        try await read { session throws(StoreError) -> String? in
            guard let row = try await session.query("SELECT pin_hash FROM person WHERE id = \(id)").first else {
                return nil
            }
            let (hash) = try row.columns((String?).self)
            return hash
        }
    }

    /// Removes a person from the household with their tokens, sessions and pairing codes, in one
    /// transaction (their practice data is removed by the household).
    ///
    /// The person's row is locked first: a pairing code being spent for them (which holds a share
    /// lock on it) finishes before their tokens are deleted, so its token goes too, and a code
    /// spent after this finds nobody.
    @discardableResult
    public func deletePerson(id: Person.ID) async throws(StoreError) -> Bool {
        defer { peopleCache.forget() }
        return try await write { session throws(StoreError) in
            guard try await !session.query("SELECT id FROM person WHERE id = \(id) FOR UPDATE").isEmpty else {
                return false
            }
            // Sessions go with their tokens, pairing codes and timer shares with the person
            // (foreign keys).
            try await session.execute("DELETE FROM access_token WHERE person_id = \(id)")
            return try await session.execute("DELETE FROM person WHERE id = \(id)") > 0
        }
    }

    /// Deletes every row of person `id`'s own data — every table of the schema with a `person_id`
    /// column, so a table added later is covered without a list kept in step — in one transaction.
    /// Household tables (people, tokens, codes, shares) are ``deletePerson(id:)``'s.
    public func deletePersonData(id: Person.ID) async throws(StoreError) {
        try await write { session throws(StoreError) in
            let tables = try await session.query(
                """
                SELECT table_name::text FROM information_schema.columns
                WHERE table_schema = current_schema() AND column_name = 'person_id'
                    AND table_name NOT IN ('person', 'access_token', 'pairing_code', 'timer_share')
                ORDER BY table_name
                """
            ).map { row throws(StoreError) in try row.columns(String.self) }
            for table in tables where PostgresLocation.isSchemaName(table) {
                try await session.execute(
                    PostgresQuery(unsafeSQL: "DELETE FROM \(table) WHERE person_id = $1", binds: binds(id)))
            }
            session.movesRevision()
        }
    }

    private func binds(_ id: Person.ID) -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(id)
        return bindings
    }

    static func people(in session: PostgresSession) async throws(StoreError) -> [Person] {
        try await session.query(PostgresQuery(unsafeSQL: "SELECT \(personColumns) FROM person ORDER BY id")).map {
            row throws(StoreError) in
            let (id, name, role, pinHash, createdMs) = try row.columns((Int64, String, String, String?, Int64).self)
            return Person(
                id: id, name: name,
                // The schema allows only known roles; anything else may do the least.
                role: PersonRole(rawValue: role) ?? .member, createdAt: Date(millisecondsSince1970: createdMs),
                hasPIN: pinHash != nil)
        }
    }

    // MARK: Pairing codes

    /// Keeps a new pairing code (its hash) for `personID`, and forgets codes that can no longer be used.
    public func savePairingCode(hash: String, personID: Person.ID, at now: Date) async throws(StoreError) {
        try await write { session throws(StoreError) in
            // The new code first: its person's key is then held before any other code is
            // locked, the order a removal of the person takes too (no deadlock).
            try await session.execute(
                """
                INSERT INTO pairing_code (code_hash, person_id, created_at_ms)
                VALUES (\(hash), \(personID), \(now.millisecondsSince1970))
                """)
            let stale = now.addingTimeInterval(-PairingCode.lifetime).millisecondsSince1970
            try await session.execute("DELETE FROM pairing_code WHERE created_at_ms < \(stale)")
        }
    }

    /// Spends the code whose hash is `hash` and makes `token` for its person, in one transaction:
    /// the token (with the code's person), or `nil` when the code is unknown, used or expired.
    ///
    /// Of two requests with the same code, on any servers, one gets the token: the code's row is
    /// locked (`FOR UPDATE`), so the second waits until the first commits and then reads the code
    /// as spent. The person's row is share-locked before, so a removal of the person waits for the
    /// spend (and then removes its token) or the spend for the removal (and then finds no code).
    public func spendPairingCode(hash: String, token: AccessToken, at now: Date) async throws(StoreError)
        -> AccessToken?
    {
        try await write { session throws(StoreError) -> AccessToken? in
            // The person first, then the code: the order a removal of the person locks them in.
            guard
                let owner = try await session.query("SELECT person_id FROM pairing_code WHERE code_hash = \(hash)")
                    .first
            else { return nil }
            let (ownerID) = try owner.columns((Int64).self)
            guard try await !session.query("SELECT id FROM person WHERE id = \(ownerID) FOR SHARE").isEmpty else {
                return nil
            }
            let rows = try await session.query(
                "SELECT person_id, created_at_ms, used_at_ms FROM pairing_code WHERE code_hash = \(hash) FOR UPDATE")
            guard let row = rows.first else { return nil }
            let (personID, createdMs, usedMs) = try row.columns((Int64, Int64, Int64?).self)
            guard
                PairingCode.isUsable(
                    createdAt: Date(millisecondsSince1970: createdMs),
                    usedAt: usedMs.map { Date(millisecondsSince1970: $0) }, at: now)
            else { return nil }
            try await session.execute(
                "UPDATE pairing_code SET used_at_ms = \(now.millisecondsSince1970) WHERE code_hash = \(hash)")
            var paired = token
            paired.personID = personID
            try await session.execute(
                """
                INSERT INTO access_token (id, name, secret_hash, created_at_ms, revoked_at_ms, scope, person_id, is_pairing)
                VALUES (\(paired.id), \(paired.name), \(paired.secretHash), \(paired.createdAt.millisecondsSince1970),
                    \(paired.revokedAt?.millisecondsSince1970), \(paired.scope.rawValue), \(paired.personID),
                    \(paired.isPairing))
                """)
            return paired
        }
    }

    // MARK: Shared focus timers

    /// Every share of the household, in the order they were written.
    public func timerShares() async throws(StoreError) -> [TimerShare] {
        try await read { session throws(StoreError) in
            var shares: [TimerShare] = []
            for row in try await session.query(
                "SELECT owner_id, timer_id, person_id FROM timer_share ORDER BY position")
            {
                let (ownerID, timerID, personID) = try row.columns((Int64, String, Int64).self)
                if let timer = UUID(uuidString: timerID) {
                    shares.append(TimerShare(ownerID: ownerID, timerID: timer, personID: personID))
                }
            }
            return shares
        }
    }

    /// Makes `timerID` of `ownerID` shared with exactly `people`, in one transaction. The owner's
    /// row (and those of the people) is locked first, so two servers changing the owner's shares at
    /// once do so one after the other (the later one's list wins) instead of mixing both lists or
    /// colliding, and a removal of one of them waits or is waited for, never deadlocks.
    public func setTimerShares(ownerID: Person.ID, timerID: UUID, with people: [Person.ID]) async throws(StoreError) {
        let id = timerID.uuidString.lowercased()
        try await write { session throws(StoreError) in
            // Everyone involved, in the order of their ids: the order removals lock in too.
            let involved = Array(Set(people + [ownerID]))
            try await session.execute(
                "SELECT id FROM person WHERE id = ANY(\(involved)) ORDER BY id FOR NO KEY UPDATE")
            try await session.execute("DELETE FROM timer_share WHERE owner_id = \(ownerID) AND timer_id = \(id)")
            for person in Set(people).sorted() where person != ownerID {
                try await session.execute(
                    "INSERT INTO timer_share (owner_id, timer_id, person_id) VALUES (\(ownerID), \(id), \(person))")
            }
        }
    }

    // MARK: The household's Web Push key

    /// The household's Web Push key: `candidate` kept if none is, then the kept one — the same
    /// for every server on the database, whichever asked first.
    public func pushServerKey(keeping candidate: Data, at now: Date) async throws(StoreError) -> Data {
        try await write { session throws(StoreError) in
            try await session.execute(
                """
                INSERT INTO push_server_key (id, private_key, created_at_ms) VALUES (1, \(ByteBuffer(bytes: candidate)), \(now.millisecondsSince1970))
                ON CONFLICT (id) DO NOTHING
                """)
            guard let row = try await session.query("SELECT private_key FROM push_server_key WHERE id = 1").first
            else { throw StoreError.corruptRow(table: "push_server_key", id: "1", reason: "no key after keeping one") }
            return try row.columns(Data.self)
        }
    }
}

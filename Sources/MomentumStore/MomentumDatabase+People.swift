import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

struct PersonRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "person"
    var id: Int64?
    var name: String
    var role: String
    var pinHash: String?
    var createdAtMs: Int64

    var person: Person {
        Person(
            id: id ?? 0, name: name,
            // The schema allows only known roles; anything else may do the least.
            role: PersonRole(rawValue: role) ?? .member, createdAt: Date(millisecondsSince1970: createdAtMs),
            hasPIN: pinHash != nil)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

struct PairingCodeRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "pairingCode"
    var codeHash: String
    var personID: Int64
    var createdAtMs: Int64
    var usedAtMs: Int64?
}

/// The household's people, kept in the data directory's own database (see ``Person``).
extension MomentumDatabase {
    /// Everyone, in the order they joined; read again only when the database files moved (a
    /// `stat` of two files otherwise, not a reader from the pool).
    public func people() throws(StoreError) -> [Person] {
        try peopleWatch.value { () throws(StoreError) in
            try read { db in
                try PersonRow.fetchAll(try db.cachedStatement(sql: "SELECT * FROM person ORDER BY id"))
            }.map(\.person)
        }
    }

    /// A write that changes the people: the kept list is dropped once it has committed.
    private func writePeople<T>(_ updates: (Database) throws -> T) throws(StoreError) -> T {
        defer { peopleWatch.forget() }
        return try write(updates)
    }

    /// Writes the founder (``Person/founderID``, an owner named `name`) unless they exist; returns
    /// everyone.
    public func ensureFounder(named name: String, at now: Date) throws(StoreError) -> [Person] {
        // Looked at first: a data directory that can only be read (a read-only mount) has its
        // founder already, and is never written to.
        let people = try read { db in try PersonRow.order(Column("id")).fetchAll(db).map(\.person) }
        if people.contains(where: { $0.id == Person.founderID }) { return people }
        return try writePeople { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO person (id, name, role, createdAtMs) VALUES (?, ?, 'owner', ?)",
                arguments: [Person.founderID, name, now.millisecondsSince1970])
            return try PersonRow.order(Column("id")).fetchAll(db).map(\.person)
        }
    }

    /// Adds a person; their id is never reused, even after they are removed.
    public func insertPerson(named name: String, role: PersonRole, at now: Date) throws(StoreError) -> Person {
        try writePeople { db in
            var row = PersonRow(id: nil, name: name, role: role.rawValue, createdAtMs: now.millisecondsSince1970)
            try row.insert(db)
            return row.person
        }
    }

    @discardableResult
    public func renamePerson(id: Person.ID, to name: String) throws(StoreError) -> Bool {
        try writePeople { db in
            try db.execute(sql: "UPDATE person SET name = ? WHERE id = ?", arguments: [name, id])
            return db.changesCount > 0
        }
    }

    @discardableResult
    public func setPersonRole(id: Person.ID, _ role: PersonRole) throws(StoreError) -> Bool {
        try writePeople { db in
            try db.execute(sql: "UPDATE person SET role = ? WHERE id = ?", arguments: [role.rawValue, id])
            return db.changesCount > 0
        }
    }

    /// Sets (or with `nil` clears) the hash of the PIN that locks a person's profile.
    @discardableResult
    public func setPersonPINHash(id: Person.ID, _ hash: String?) throws(StoreError) -> Bool {
        try writePeople { db in
            try db.execute(sql: "UPDATE person SET pinHash = ? WHERE id = ?", arguments: [hash, id])
            return db.changesCount > 0
        }
    }

    public func personPINHash(id: Person.ID) throws(StoreError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT pinHash FROM person WHERE id = ?", arguments: [id]) }
    }

    /// Removes a person from the household with their tokens, sessions and pairing codes, in one
    /// transaction (their practice data is their own database's: the household removes it).
    @discardableResult
    public func deletePerson(id: Person.ID) throws(StoreError) -> Bool {
        try writePeople { db in
            // Sessions go with their tokens (a foreign key); pairing codes with the person.
            try AccessTokenRow.filter(Column("personID") == id).deleteAll(db)
            return try PersonRow.deleteOne(db, key: id)
        }
    }

    // MARK: Pairing codes

    /// Keeps a new pairing code (its hash) for `personID`, and forgets codes that can no longer be used.
    public func savePairingCode(hash: String, personID: Person.ID, at now: Date) throws(StoreError) {
        try write { db in
            let stale = now.addingTimeInterval(-PairingCode.lifetime).millisecondsSince1970
            try PairingCodeRow.filter(Column("createdAtMs") < stale).deleteAll(db)
            try PairingCodeRow(codeHash: hash, personID: personID, createdAtMs: now.millisecondsSince1970).insert(db)
        }
    }

    /// Spends the code whose hash is `hash` and makes `token` for its person, in one transaction:
    /// the token (with the code's person), or `nil` when the code is unknown, used or expired. Of
    /// two requests with the same code, one gets the token.
    public func spendPairingCode(hash: String, token: AccessToken, at now: Date) throws(StoreError) -> AccessToken? {
        try write { db in
            guard var row = try PairingCodeRow.fetchOne(db, key: hash),
                PairingCode.isUsable(
                    createdAt: Date(millisecondsSince1970: row.createdAtMs),
                    usedAt: row.usedAtMs.map { Date(millisecondsSince1970: $0) }, at: now)
            else { return nil }
            row.usedAtMs = now.millisecondsSince1970
            try row.update(db)
            var paired = token
            paired.personID = row.personID
            try AccessTokenRow(paired).insert(db)
            return paired
        }
    }
}

// MARK: - Shared focus timers

extension MomentumDatabase {
    /// Every share of the household.
    public func timerShares() throws(StoreError) -> [TimerShare] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT ownerID, timerID, personID FROM timerShare ORDER BY rowid").compactMap {
                row in
                UUID(uuidString: row["timerID"]).map {
                    TimerShare(ownerID: row["ownerID"], timerID: $0, personID: row["personID"])
                }
            }
        }
    }

    /// Makes `timerID` of `ownerID` shared with exactly `people`, in one transaction.
    public func setTimerShares(ownerID: Person.ID, timerID: UUID, with people: [Person.ID]) throws(StoreError) {
        let id = timerID.uuidString.lowercased()
        try write { db in
            try db.execute(
                sql: "DELETE FROM timerShare WHERE ownerID = ? AND timerID = ?", arguments: [ownerID, id])
            for person in Set(people) where person != ownerID {
                try db.execute(
                    sql: "INSERT INTO timerShare (ownerID, timerID, personID) VALUES (?, ?, ?)",
                    arguments: [ownerID, id, person])
            }
        }
    }
}

// MARK: - The household's Web Push key

extension MomentumDatabase {
    /// The household's Web Push key: `candidate` kept if none is, then the kept one.
    public func pushServerKey(keeping candidate: Data, at now: Date) throws(StoreError) -> Data {
        try write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO pushServerKey (id, privateKey, createdAtMs) VALUES (1, ?, ?)",
                arguments: [candidate, now.millisecondsSince1970])
            guard let kept = try Data.fetchOne(db, sql: "SELECT privateKey FROM pushServerKey WHERE id = 1") else {
                throw StoreError.corruptRow(table: "pushServerKey", id: "1", reason: "no key after keeping one")
            }
            return kept
        }
    }
}

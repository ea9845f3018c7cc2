import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

struct AccessTokenRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "accessToken"
    var id: String
    var name: String
    var secretHash: String
    var createdAtMs: Int64
    var revokedAtMs: Int64?
    var scope: String
    var personID: Int64
    var isPairing: Bool

    init(_ token: AccessToken) {
        id = token.id
        name = token.name
        secretHash = token.secretHash
        createdAtMs = token.createdAt.millisecondsSince1970
        revokedAtMs = token.revokedAt?.millisecondsSince1970
        scope = token.scope.rawValue
        personID = token.personID
        isPairing = token.isPairing
    }

    var token: AccessToken {
        AccessToken(
            id: id, name: name, secretHash: secretHash, createdAt: Date(millisecondsSince1970: createdAtMs),
            revokedAt: revokedAtMs.map { Date(millisecondsSince1970: $0) },
            // The schema allows only known scopes; anything else opens the least.
            scope: AccessScope(rawValue: scope) ?? .feed, personID: personID, isPairing: isPairing)
    }
}

struct AccessSessionRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "accessSession"
    var idHash: String
    var tokenID: String
    var createdAtMs: Int64
    var lastUsedAtMs: Int64

    init(_ session: AccessSession) {
        idHash = session.idHash
        tokenID = session.tokenID
        createdAtMs = session.createdAt.millisecondsSince1970
        lastUsedAtMs = session.lastUsedAt.millisecondsSince1970
    }

    var session: AccessSession {
        AccessSession(
            idHash: idHash, tokenID: tokenID, createdAt: Date(millisecondsSince1970: createdAtMs),
            lastUsedAt: Date(millisecondsSince1970: lastUsedAtMs))
    }
}

extension MomentumDatabase {
    /// Every token, revoked ones included, oldest first.
    public func accessTokens() throws(StoreError) -> [AccessToken] {
        try read { db in try AccessTokenRow.order(Column("createdAtMs"), Column.rowID).fetchAll(db) }.map(\.token)
    }

    /// The token whose secret hashes to `secretHash`, if any.
    public func accessToken(secretHash: String) throws(StoreError) -> AccessToken? {
        try read { db in try AccessTokenRow.filter(Column("secretHash") == secretHash).fetchOne(db) }?.token
    }

    public func saveAccessToken(_ token: AccessToken) throws(StoreError) {
        try write { db in try AccessTokenRow(token).save(db) }
    }

    /// Marks the token with `id` revoked at `now` and ends its sign-in sessions; returns whether a
    /// live one was found.
    @discardableResult
    public func revokeAccessToken(id: String, at now: Date) throws(StoreError) -> Bool {
        try write { db in
            guard var row = try AccessTokenRow.fetchOne(db, key: id), row.revokedAtMs == nil else { return false }
            row.revokedAtMs = now.millisecondsSince1970
            try row.update(db)
            try AccessSessionRow.filter(Column("tokenID") == id).deleteAll(db)
            return true
        }
    }

    /// The session whose id hashes to `idHash`, with its token, if both exist.
    public func accessSession(idHash: String) throws(StoreError) -> (session: AccessSession, token: AccessToken)? {
        try read { db -> (AccessSession, AccessToken)? in
            guard let row = try AccessSessionRow.fetchOne(db, key: idHash),
                let token = try AccessTokenRow.fetchOne(db, key: row.tokenID)
            else { return nil }
            return (row.session, token.token)
        }
    }

    public func saveAccessSession(_ session: AccessSession) throws(StoreError) {
        try write { db in try AccessSessionRow(session).save(db) }
    }

    /// Ends the session whose id hashes to `idHash`; returns whether there was one.
    @discardableResult
    public func deleteAccessSession(idHash: String) throws(StoreError) -> Bool {
        try write { db in try AccessSessionRow.deleteOne(db, key: idHash) }
    }

    /// Per token id: how many sign-in sessions it has and when one was last used.
    public func accessSessionUse() throws(StoreError) -> [String: (sessions: Int, lastUsedAt: Date)] {
        try read { db in
            var use: [String: (sessions: Int, lastUsedAt: Date)] = [:]
            let rows = try Row.fetchAll(
                db,
                sql:
                    "SELECT tokenID, COUNT(*) AS sessions, MAX(lastUsedAtMs) AS lastUsed FROM accessSession GROUP BY tokenID"
            )
            for row in rows {
                use[row["tokenID"]] = (row["sessions"], Date(millisecondsSince1970: row["lastUsed"]))
            }
            return use
        }
    }

    /// Forgets sessions last used before `cutoff`; returns how many.
    @discardableResult
    public func deleteAccessSessions(lastUsedBefore cutoff: Date) throws(StoreError) -> Int {
        try write { db in
            try AccessSessionRow.filter(Column("lastUsedAtMs") < cutoff.millisecondsSince1970).deleteAll(db)
        }
    }
}

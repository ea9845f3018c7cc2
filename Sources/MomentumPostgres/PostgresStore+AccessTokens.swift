import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

/// The household's access tokens and browser sign-in sessions: global tables (a token names its
/// person), as in the founder's SQLite database (`MomentumDatabase+AccessTokens.swift`).
extension PostgresStore {
    /// Qualified: the session's lookup joins a table with columns of the same names.
    static let tokenColumns = [
        "id", "name", "secret_hash", "created_at_ms", "revoked_at_ms", "scope", "person_id", "is_pairing",
    ]
    .map { "access_token.\($0)" }.joined(separator: ", ")

    /// Every token, revoked ones included, oldest first.
    public func accessTokens() async throws(StoreError) -> [AccessToken] {
        try await read { session throws(StoreError) in
            try await session.query(
                PostgresQuery(
                    unsafeSQL:
                        "SELECT \(Self.tokenColumns) FROM access_token ORDER BY access_token.created_at_ms, access_token.position"
                )
            ).map { row throws(StoreError) in try Self.token(from: row) }
        }
    }

    /// The token whose secret hashes to `secretHash`, if any.
    public func accessToken(secretHash: String) async throws(StoreError) -> AccessToken? {
        try await read { session throws(StoreError) in
            var binds = PostgresBindings()
            binds.append(secretHash)
            let query = PostgresQuery(
                unsafeSQL: "SELECT \(Self.tokenColumns) FROM access_token WHERE secret_hash = $1", binds: binds)
            return try await session.query(query).first.map { row throws(StoreError) in try Self.token(from: row) }
        }
    }

    /// Adds the token, or replaces the one with the same id.
    public func saveAccessToken(_ token: AccessToken) async throws(StoreError) {
        try await read { session throws(StoreError) in
            try await session.execute(
                """
                INSERT INTO access_token (id, name, secret_hash, created_at_ms, revoked_at_ms, scope, person_id, is_pairing)
                VALUES (\(token.id), \(token.name), \(token.secretHash), \(token.createdAt.millisecondsSince1970),
                    \(token.revokedAt?.millisecondsSince1970), \(token.scope.rawValue), \(token.personID), \(token.isPairing))
                ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, secret_hash = EXCLUDED.secret_hash,
                    created_at_ms = EXCLUDED.created_at_ms, revoked_at_ms = EXCLUDED.revoked_at_ms,
                    scope = EXCLUDED.scope, person_id = EXCLUDED.person_id, is_pairing = EXCLUDED.is_pairing
                """)
        }
    }

    /// Marks the token with `id` revoked at `now` and ends its sign-in sessions; returns whether a
    /// live one was found.
    @discardableResult
    public func revokeAccessToken(id: String, at now: Date) async throws(StoreError) -> Bool {
        try await write { session throws(StoreError) in
            let revoked = try await session.execute(
                """
                UPDATE access_token SET revoked_at_ms = \(now.millisecondsSince1970)
                WHERE id = \(id) AND revoked_at_ms IS NULL
                """)
            guard revoked > 0 else { return false }
            try await session.execute("DELETE FROM access_session WHERE token_id = \(id)")
            return true
        }
    }

    /// The session whose id hashes to `idHash`, with its token, if both exist.
    public func accessSession(idHash: String) async throws(StoreError) -> (session: AccessSession, token: AccessToken)?
    {
        try await read { session throws(StoreError) -> (session: AccessSession, token: AccessToken)? in
            var binds = PostgresBindings()
            binds.append(idHash)
            let query = PostgresQuery(
                unsafeSQL: """
                    SELECT \(Self.tokenColumns), s.created_at_ms, s.last_used_at_ms
                    FROM access_session s JOIN access_token ON access_token.id = s.token_id
                    WHERE s.id_hash = $1
                    """, binds: binds)
            guard let row = try await session.query(query).first else { return nil }
            let token = try Self.token(from: row)
            let (_, _, _, _, _, _, _, _, createdMs, lastUsedMs) = try row.columns(
                (String, String, String, Int64, Int64?, String, Int64, Bool, Int64, Int64).self)
            let signIn = AccessSession(
                idHash: idHash, tokenID: token.id, createdAt: Date(millisecondsSince1970: createdMs),
                lastUsedAt: Date(millisecondsSince1970: lastUsedMs))
            return (signIn, token)
        }
    }

    /// Adds the session, or replaces the one with the same id hash.
    public func saveAccessSession(_ signIn: AccessSession) async throws(StoreError) {
        try await read { session throws(StoreError) in
            try await session.execute(
                """
                INSERT INTO access_session (id_hash, token_id, created_at_ms, last_used_at_ms)
                VALUES (\(signIn.idHash), \(signIn.tokenID), \(signIn.createdAt.millisecondsSince1970),
                    \(signIn.lastUsedAt.millisecondsSince1970))
                ON CONFLICT (id_hash) DO UPDATE SET token_id = EXCLUDED.token_id,
                    created_at_ms = EXCLUDED.created_at_ms, last_used_at_ms = EXCLUDED.last_used_at_ms
                """)
        }
    }

    /// Ends the session whose id hashes to `idHash`; returns whether there was one.
    @discardableResult
    public func deleteAccessSession(idHash: String) async throws(StoreError) -> Bool {
        try await read { session throws(StoreError) in
            try await session.execute("DELETE FROM access_session WHERE id_hash = \(idHash)") > 0
        }
    }

    /// Per token id: how many sign-in sessions it has and when one was last used.
    public func accessSessionUse() async throws(StoreError) -> [String: (sessions: Int, lastUsedAt: Date)] {
        try await read { session throws(StoreError) in
            var use: [String: (sessions: Int, lastUsedAt: Date)] = [:]
            let rows = try await session.query(
                "SELECT token_id, COUNT(*), MAX(last_used_at_ms) FROM access_session GROUP BY token_id")
            for row in rows {
                let (tokenID, sessions, lastUsedMs) = try row.columns((String, Int, Int64).self)
                use[tokenID] = (sessions, Date(millisecondsSince1970: lastUsedMs))
            }
            return use
        }
    }

    /// Forgets sessions last used before `cutoff`; returns how many.
    @discardableResult
    public func deleteAccessSessions(lastUsedBefore cutoff: Date) async throws(StoreError) -> Int {
        try await read { session throws(StoreError) in
            try await session.execute(
                "DELETE FROM access_session WHERE last_used_at_ms < \(cutoff.millisecondsSince1970)")
        }
    }

    /// A token from the row's first columns (``tokenColumns``, in their order).
    static func token(from row: PostgresRow) throws(StoreError) -> AccessToken {
        let (id, name, secretHash, createdMs, revokedMs, scope, personID, isPairing) = try row.columns(
            (String, String, String, Int64, Int64?, String, Int64, Bool).self)
        return AccessToken(
            id: id, name: name, secretHash: secretHash, createdAt: Date(millisecondsSince1970: createdMs),
            revokedAt: revokedMs.map { Date(millisecondsSince1970: $0) },
            // The schema allows only known scopes; anything else opens the least.
            scope: AccessScope(rawValue: scope) ?? .feed, personID: personID, isPairing: isPairing)
    }
}

import Foundation
import GRDB

/// An access token to the web app off loopback, as kept: its name and the hash of its secret.
public struct AccessToken: Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String
    /// SHA-256 of the secret, lowercase hex.
    public var secretHash: String
    public var createdAt: Date
    public var revokedAt: Date?

    public init(id: String, name: String, secretHash: String, createdAt: Date, revokedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.secretHash = secretHash
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    public var isRevoked: Bool { revokedAt != nil }
}

struct AccessTokenRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "accessToken"
    var id: String
    var name: String
    var secretHash: String
    var createdAtMs: Int64
    var revokedAtMs: Int64?

    init(_ token: AccessToken) {
        id = token.id
        name = token.name
        secretHash = token.secretHash
        createdAtMs = token.createdAt.millisecondsSince1970
        revokedAtMs = token.revokedAt?.millisecondsSince1970
    }

    var token: AccessToken {
        AccessToken(
            id: id, name: name, secretHash: secretHash, createdAt: Date(millisecondsSince1970: createdAtMs),
            revokedAt: revokedAtMs.map { Date(millisecondsSince1970: $0) })
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

    /// Marks the token with `id` revoked at `now`; returns whether a live one was found.
    @discardableResult
    public func revokeAccessToken(id: String, at now: Date) throws(StoreError) -> Bool {
        try write { db in
            guard var row = try AccessTokenRow.fetchOne(db, key: id), row.revokedAtMs == nil else { return false }
            row.revokedAtMs = now.millisecondsSince1970
            try row.update(db)
            return true
        }
    }
}

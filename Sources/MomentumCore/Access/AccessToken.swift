import Foundation

/// What a token opens: `full` is the whole API, `feed` only the reminders calendar feed
/// (the URL a calendar app keeps, which may leak with it).
public enum AccessScope: String, Sendable, Equatable, CaseIterable, Codable {
    case full
    case feed
}

/// An access token to the web app off loopback, as kept: its name, scope and the hash of its secret.
public struct AccessToken: Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String
    /// SHA-256 of the secret, lowercase hex.
    public var secretHash: String
    public var createdAt: Date
    public var revokedAt: Date?
    public var scope: AccessScope
    /// The person the token signs in as: every request with it acts as them.
    public var personID: Person.ID
    /// Made by pairing a device (no secret was ever shown), not by `momentum token create`.
    public var isPairing: Bool

    public init(
        id: String, name: String, secretHash: String, createdAt: Date, revokedAt: Date? = nil,
        scope: AccessScope = .full, personID: Person.ID = Person.founderID, isPairing: Bool = false
    ) {
        self.id = id
        self.name = name
        self.secretHash = secretHash
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.scope = scope
        self.personID = personID
        self.isPairing = isPairing
    }

    public var isRevoked: Bool { revokedAt != nil }
}

/// A browser's sign-in, as kept: the hash of the id its cookie carries, the token it was made
/// with, and when it was made and last used.
public struct AccessSession: Sendable, Equatable {
    /// SHA-256 of the id in the cookie, lowercase hex.
    public var idHash: String
    public var tokenID: String
    public var createdAt: Date
    public var lastUsedAt: Date

    public init(idHash: String, tokenID: String, createdAt: Date, lastUsedAt: Date) {
        self.idHash = idHash
        self.tokenID = tokenID
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

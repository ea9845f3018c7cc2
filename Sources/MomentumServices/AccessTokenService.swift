import Crypto
import Foundation
import MomentumCore
import MomentumStoreContract

/// Access tokens for the web app off loopback: made once (the secret is shown then and never
/// stored), checked by hash, revoked for good.
public struct AccessTokenService: Sendable {
    private let repository: any AccessTokenRepository
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID
    private let makeSecret: @Sendable () -> String

    public init(
        repository: any AccessTokenRepository, now: @escaping @Sendable () -> Date,
        makeID: @escaping @Sendable () -> UUID, makeSecret: @escaping @Sendable () -> String = Self.randomSecret
    ) {
        self.repository = repository
        self.now = now
        self.makeID = makeID
        self.makeSecret = makeSecret
    }

    /// A new token: the stored record and the secret to hand to the person, once.
    public struct Created: Sendable, Equatable {
        public var token: AccessToken
        public var secret: String
    }

    public static let maximumNameLength = 100

    /// A new token for `personID` (the household's founder unless said).
    public func create(name: String?, scope: AccessScope = .full, personID: Person.ID = Person.founderID)
        async
        throws(AccessTokenError) -> Created
    {
        let trimmed = (name ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= Self.maximumNameLength else { throw .nameTooLong }
        do { try TextInput.check(trimmed, field: "name") } catch { throw .name(error) }
        let secret = makeSecret()
        let id = String(makeID().uuidString.lowercased().suffix(8))
        let token = AccessToken(
            id: id, name: trimmed.isEmpty ? "token-\(id)" : trimmed, secretHash: Self.hash(secret), createdAt: now(),
            scope: scope, personID: personID)
        do {
            try await repository.saveAccessToken(token)
        } catch {
            throw .store(error)
        }
        return Created(token: token, secret: secret)
    }

    public func tokens() async throws(StoreError) -> [AccessToken] {
        try await repository.accessTokens()
    }

    /// The tokens of one person, revoked ones included, oldest first.
    public func tokens(of personID: Person.ID) async throws(StoreError) -> [AccessToken] {
        try await tokens().filter { $0.personID == personID }
    }

    /// Whether any token can still be used.
    public func hasActiveToken() async throws(StoreError) -> Bool {
        try await tokens().contains { !$0.isRevoked }
    }

    /// Revokes the token with `id` (of `personID`, when given); a revoked token is refused from
    /// then on, and its sessions end.
    @discardableResult
    public func revoke(id: String, of personID: Person.ID? = nil) async throws(AccessTokenError) -> AccessToken {
        let wanted = id.trimmingCharacters(in: .whitespaces).lowercased()
        do {
            guard
                let token = try await repository.accessTokens().first(where: {
                    $0.id == wanted && (personID == nil || $0.personID == personID)
                })
            else {
                throw AccessTokenError.unknown(id)
            }
            guard try await repository.revokeAccessToken(id: token.id, at: now()) else {
                throw AccessTokenError.alreadyRevoked(id)
            }
            return token
        } catch let error as AccessTokenError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.database(message: "\(error)"))
        }
    }

    /// The live token whose secret is `secret`, or `nil` (unknown or revoked).
    public func verify(secret: String) async throws(StoreError) -> AccessToken? {
        guard !secret.isEmpty, secret.count <= 200 else { return nil }
        guard let token = try await repository.accessToken(secretHash: Self.hash(secret)), !token.isRevoked else {
            return nil
        }
        return token
    }

    // MARK: Sign-in sessions

    /// How long a browser stays signed in without using the app: each use moves the end on.
    public static let sessionLifetime: TimeInterval = 30 * 24 * 3600
    /// A session's last use is written at most this often, so reading the app is not a write.
    public static let sessionRefreshInterval: TimeInterval = 3600

    /// A new sign-in for a live `full` token: the id for the cookie (random, shown only to the
    /// browser; only its hash is kept), or `nil` for an unknown, revoked or feed-only token.
    public func startSession(secret: String) async throws(StoreError) -> String? {
        guard let token = try await verify(secret: secret), token.scope == .full else { return nil }
        return try await startSession(with: token)
    }

    /// A new sign-in for a live `full` token the caller already checked (a pairing's own token).
    func startSession(with token: AccessToken) async throws(StoreError) -> String {
        let sessionID = makeSecret()
        let at = now()
        try await repository.deleteAccessSessions(lastUsedBefore: at.addingTimeInterval(-Self.sessionLifetime))
        try await repository.saveAccessSession(
            AccessSession(idHash: Self.hash(sessionID), tokenID: token.id, createdAt: at, lastUsedAt: at))
        return sessionID
    }

    /// A session in use: its token, and whether its end moved on (then the cookie is sent again).
    public struct SessionCheck: Sendable, Equatable {
        public var token: AccessToken
        public var wasRefreshed: Bool
    }

    /// A session found live — not ended, not expired, its token not revoked — as read: what
    /// ``use(_:)`` checks without reading it again.
    public struct LiveSession: Sendable, Equatable {
        public var session: AccessSession
        public var token: AccessToken
    }

    /// The live session whose cookie carries `sessionID`, without using it (its end does not
    /// move), or `nil`.
    public func liveSession(_ sessionID: String) async throws(StoreError) -> LiveSession? {
        guard !sessionID.isEmpty, sessionID.count <= 200,
            let (session, token) = try await repository.accessSession(idHash: Self.hash(sessionID)),
            isLive(session, of: token)
        else { return nil }
        return LiveSession(session: session, token: token)
    }

    /// The live session whose cookie carries `sessionID`: not ended, not expired, its token not
    /// revoked. Using it moves its end 30 days on (written at most once an hour); a session found
    /// dead is deleted.
    public func verifySession(_ sessionID: String) async throws(StoreError) -> SessionCheck? {
        guard !sessionID.isEmpty, sessionID.count <= 200 else { return nil }
        let idHash = Self.hash(sessionID)
        guard let (session, token) = try await repository.accessSession(idHash: idHash) else { return nil }
        guard isLive(session, of: token) else {
            // Refused either way: on a full disk the dead row stays until the next use finds it.
            do throws(StoreError) {
                try await repository.deleteAccessSession(idHash: idHash)
            } catch {
                guard error == .diskFull else { throw error }
            }
            return nil
        }
        return try await use(LiveSession(session: session, token: token))
    }

    /// Uses a session found live (``liveSession(_:)``): its end moves 30 days on, written at
    /// most once an hour. On a full disk the end stays where it was (the session is still live):
    /// a read never fails for want of that write.
    public func use(_ live: LiveSession) async throws(StoreError) -> SessionCheck {
        let at = now()
        guard at.timeIntervalSince(live.session.lastUsedAt) >= Self.sessionRefreshInterval else {
            return SessionCheck(token: live.token, wasRefreshed: false)
        }
        var refreshed = live.session
        refreshed.lastUsedAt = at
        do throws(StoreError) {
            try await repository.saveAccessSession(refreshed)
        } catch {
            guard error == .diskFull else { throw error }
            return SessionCheck(token: live.token, wasRefreshed: false)
        }
        return SessionCheck(token: live.token, wasRefreshed: true)
    }

    /// The token of the live session whose cookie carries `sessionID`, without using it (its end
    /// does not move): whose the session is.
    public func sessionToken(_ sessionID: String) async throws(StoreError) -> AccessToken? {
        try await liveSession(sessionID)?.token
    }

    private func isLive(_ session: AccessSession, of token: AccessToken) -> Bool {
        !token.isRevoked && now() < session.lastUsedAt.addingTimeInterval(Self.sessionLifetime)
    }

    /// Ends the session whose cookie carries `sessionID` (signing out); unknown ids are ignored.
    public func endSession(_ sessionID: String) async throws(StoreError) {
        guard !sessionID.isEmpty, sessionID.count <= 200 else { return }
        try await repository.deleteAccessSession(idHash: Self.hash(sessionID))
    }

    /// SHA-256 of `secret`, lowercase hex.
    public static func hash(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// 32 random bytes from the system's generator, as URL-safe base64 without padding.
    public static let randomSecret: @Sendable () -> String = {
        var generator = SystemRandomNumberGenerator()
        return secret(using: &generator)
    }

    /// 32 random bytes as URL-safe base64 without padding, never starting with `-` (issue 38:
    /// `--token -Abc…` reads as an option; 1 in 64 tokens did). The first byte is drawn again
    /// while its top six bits would be that character (62): 6 of 256 bits' worth of choice lost.
    static func secret(using generator: inout some RandomNumberGenerator) -> String {
        var bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        while bytes[0] >> 2 == 62 { bytes[0] = UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

/// Why a token could not be made or revoked.
public enum AccessTokenError: Error, Equatable, Sendable {
    case nameTooLong
    /// A name outside ``TextInput``'s rule for one-line texts.
    case name(TextInputError)
    case unknown(String)
    case alreadyRevoked(String)
    case store(StoreError)
}

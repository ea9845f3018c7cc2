import Crypto
import Foundation
import MomentumCore
import MomentumStore

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

    public func create(name: String?) throws(AccessTokenError) -> Created {
        let trimmed = (name ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= Self.maximumNameLength else { throw .nameTooLong }
        let secret = makeSecret()
        let id = String(makeID().uuidString.lowercased().prefix(8))
        let token = AccessToken(
            id: id, name: trimmed.isEmpty ? "token-\(id)" : trimmed, secretHash: Self.hash(secret), createdAt: now())
        do {
            try repository.saveAccessToken(token)
        } catch {
            throw .store(error)
        }
        return Created(token: token, secret: secret)
    }

    public func tokens() throws(StoreError) -> [AccessToken] {
        try repository.accessTokens()
    }

    /// Whether any token can still be used.
    public func hasActiveToken() throws(StoreError) -> Bool {
        try tokens().contains { !$0.isRevoked }
    }

    /// Revokes the token with `id`; a revoked token is refused from then on.
    @discardableResult
    public func revoke(id: String) throws(AccessTokenError) -> AccessToken {
        let wanted = id.trimmingCharacters(in: .whitespaces).lowercased()
        do {
            guard let token = try repository.accessTokens().first(where: { $0.id == wanted }) else {
                throw AccessTokenError.unknown(id)
            }
            guard try repository.revokeAccessToken(id: token.id, at: now()) else {
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
    public func verify(secret: String) throws(StoreError) -> AccessToken? {
        guard !secret.isEmpty, secret.count <= 200 else { return nil }
        guard let token = try repository.accessToken(secretHash: Self.hash(secret)), !token.isRevoked else {
            return nil
        }
        return token
    }

    /// SHA-256 of `secret`, lowercase hex.
    public static func hash(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// 32 random bytes from the system's generator, as URL-safe base64 without padding.
    public static let randomSecret: @Sendable () -> String = {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

/// Why a token could not be made or revoked.
public enum AccessTokenError: Error, Equatable, Sendable {
    case nameTooLong
    case unknown(String)
    case alreadyRevoked(String)
    case store(StoreError)
}

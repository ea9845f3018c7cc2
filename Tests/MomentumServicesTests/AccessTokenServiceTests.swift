import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Testing

@testable import MomentumServices

@Suite("Access tokens: shown once, stored hashed, revoked for good")
struct AccessTokenServiceTests {
    let directory: TemporaryDirectory
    let database: MomentumDatabase
    let service: AccessTokenService

    init() throws {
        directory = try TemporaryDirectory()
        database = try MomentumDatabase.open(directory: directory.url)
        service = AccessTokenService(
            repository: database, now: { Date(timeIntervalSince1970: 1_800_000_000) }, makeID: { UUID() })
    }

    @Test func aNewTokenIsStoredAsTheHashOfItsSecretOnly() throws {
        let created = try service.create(name: " phone ")
        #expect(created.token.name == "phone")
        #expect(created.secret.count >= 40)
        let stored = try #require(try database.accessTokens().first)
        #expect(stored.secretHash == AccessTokenService.hash(created.secret))
        #expect(stored.secretHash != created.secret)
        #expect(!stored.secretHash.contains(created.secret))
        #expect(try service.verify(secret: created.secret)?.id == created.token.id)
        #expect(try service.hasActiveToken())
    }

    @Test func theHashIsSHA256() {
        #expect(AccessTokenService.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func aWrongOrRevokedSecretIsRefused() throws {
        let created = try service.create(name: nil)
        #expect(created.token.name.hasPrefix("token-"))
        #expect(try service.verify(secret: "nope") == nil)
        #expect(try service.verify(secret: "") == nil)
        try service.revoke(id: created.token.id)
        #expect(try service.verify(secret: created.secret) == nil)
        #expect(try !service.hasActiveToken())
        #expect(throws: AccessTokenError.alreadyRevoked(created.token.id)) { try service.revoke(id: created.token.id) }
        #expect(throws: AccessTokenError.unknown("zzzz")) { try service.revoke(id: "zzzz") }
    }

    @Test func twoSecretsAreNeverTheSame() {
        #expect(AccessTokenService.randomSecret() != AccessTokenService.randomSecret())
    }

    @Test func anOverlongNameStoresNothing() throws {
        #expect(throws: AccessTokenError.nameTooLong) { try service.create(name: String(repeating: "a", count: 101)) }
        #expect(try database.accessTokens().isEmpty)
    }
}

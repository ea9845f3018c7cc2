import Foundation
import MomentumCore
import MomentumStore
import MomentumStoreContract
import MomentumStoreTestSupport
import MomentumTestSupport
import Synchronization
import Testing

@testable import MomentumServices

@Suite("Access tokens: shown once, stored hashed, revoked for good")
struct AccessTokenServiceTests {
    /// A fresh store, its household tables and the service on them, with a clock the test moves.
    struct Fixture {
        let store: StoreUnderTest
        let tokens: any AccessTokenRepository
        let service: AccessTokenService
        let clock = TestClock()

        init(_ kind: StoreKind) async throws {
            store = try await StoreUnderTest(kind)
            tokens = store.household
            service = Self.service(on: tokens, clock: clock)
        }

        static func service(on repository: any AccessTokenRepository, clock: TestClock) -> AccessTokenService {
            AccessTokenService(repository: repository, now: { clock.now }, makeID: { UUID() })
        }
    }

    /// The instant the services read; a test moves it.
    final class TestClock: Sendable {
        private let instant = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { instant.withLock { $0 } }
        func advance(by seconds: TimeInterval) { instant.withLock { $0 += seconds } }
    }

    @Test(arguments: StoreKind.available)
    func aNewTokenIsStoredAsTheHashOfItsSecretOnly(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let created = try await fixture.service.create(name: " phone ")
        #expect(created.token.name == "phone")
        #expect(created.secret.count >= 40)
        let stored = try await #require(try fixture.tokens.accessTokens().first)
        #expect(stored == created.token)
        #expect(stored.secretHash == AccessTokenService.hash(created.secret))
        #expect(stored.secretHash != created.secret)
        #expect(!stored.secretHash.contains(created.secret))
        await #expect(try fixture.service.verify(secret: created.secret)?.id == created.token.id)
        await #expect(try fixture.service.hasActiveToken())
    }

    @Test func theHashIsSHA256() {
        #expect(AccessTokenService.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test(arguments: StoreKind.available)
    func aWrongOrRevokedSecretIsRefused(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let created = try await fixture.service.create(name: nil)
        #expect(created.token.name.hasPrefix("token-"))
        await #expect(try fixture.service.verify(secret: "nope") == nil)
        await #expect(try fixture.service.verify(secret: "") == nil)
        try await fixture.service.revoke(id: created.token.id)
        await #expect(try fixture.service.verify(secret: created.secret) == nil)
        await #expect(try !fixture.service.hasActiveToken())
        await #expect(throws: AccessTokenError.alreadyRevoked(created.token.id)) {
            try await fixture.service.revoke(id: created.token.id)
        }
        await #expect(throws: AccessTokenError.unknown("zzzz")) { try await fixture.service.revoke(id: "zzzz") }
    }

    @Test func twoSecretsAreNeverTheSame() {
        #expect(AccessTokenService.randomSecret() != AccessTokenService.randomSecret())
    }

    @Test(arguments: StoreKind.available)
    func anOverlongNameStoresNothing(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        await #expect(throws: AccessTokenError.nameTooLong) {
            try await fixture.service.create(name: String(repeating: "a", count: 101))
        }
        await #expect(try await fixture.tokens.accessTokens().isEmpty)
    }

    @Test(arguments: StoreKind.available)
    func tokensAreListedOldestFirstWithTheirPeopleAndScopes(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let phone = try await fixture.service.create(name: "phone")
        fixture.clock.advance(by: 1)
        let calendar = try await fixture.service.create(name: "calendar", scope: .feed, personID: 2)
        let listed = try await fixture.service.tokens()
        #expect(listed == [phone.token, calendar.token])
        let adas = try await fixture.service.tokens(of: 2)
        #expect(adas == [calendar.token])
        await #expect(throws: AccessTokenError.unknown(phone.token.id)) {
            try await fixture.service.revoke(id: phone.token.id, of: 2)
        }
    }

    // MARK: Sign-in sessions

    @Test(arguments: StoreKind.available)
    func aSessionStartsOnlyForALiveFullTokenAndEndsWhenItIsRevoked(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let full = try await fixture.service.create(name: "laptop")
        let feed = try await fixture.service.create(name: "calendar", scope: .feed)
        await #expect(try fixture.service.startSession(secret: feed.secret) == nil)
        await #expect(try fixture.service.startSession(secret: "nope") == nil)
        let sessionID = try await #require(try fixture.service.startSession(secret: full.secret))
        let check = try await fixture.service.verifySession(sessionID)
        #expect(check == AccessTokenService.SessionCheck(token: full.token, wasRefreshed: false))
        try await fixture.service.revoke(id: full.token.id)
        await #expect(try fixture.tokens.accessSession(idHash: AccessTokenService.hash(sessionID)) == nil)
        await #expect(try fixture.service.verifySession(sessionID) == nil)
        await #expect(try fixture.service.startSession(secret: full.secret) == nil)
    }

    @Test(arguments: StoreKind.available)
    func aSessionInUseMovesItsEndOnAtMostHourlyAndExpiresUnused(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let token = try await fixture.service.create(name: "laptop").token
        let sessionID = try await fixture.service.startSession(with: token)
        fixture.clock.advance(by: AccessTokenService.sessionRefreshInterval - 1)
        await #expect(try fixture.service.verifySession(sessionID)?.wasRefreshed == false)
        fixture.clock.advance(by: 1)
        await #expect(try fixture.service.verifySession(sessionID)?.wasRefreshed == true)
        let stored = try await #require(try fixture.tokens.accessSession(idHash: AccessTokenService.hash(sessionID)))
        #expect(stored.session.lastUsedAt == fixture.clock.now)
        #expect(stored.token == token)
        // Thirty days from the last use it is gone, and looking it up forgets it.
        fixture.clock.advance(by: AccessTokenService.sessionLifetime)
        await #expect(try fixture.service.sessionToken(sessionID) == nil)
        await #expect(try fixture.service.verifySession(sessionID) == nil)
        await #expect(try fixture.tokens.accessSession(idHash: AccessTokenService.hash(sessionID)) == nil)
    }

    @Test(arguments: StoreKind.available)
    func signingOutEndsOneSessionAndANewSignInForgetsExpiredOnes(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let token = try await fixture.service.create(name: "laptop").token
        let old = try await fixture.service.startSession(with: token)
        fixture.clock.advance(by: AccessTokenService.sessionLifetime + 1)
        let kept = try await fixture.service.startSession(with: token)
        await #expect(try fixture.tokens.accessSession(idHash: AccessTokenService.hash(old)) == nil)
        let signedOut = try await fixture.service.startSession(with: token)
        try await fixture.service.endSession(signedOut)
        try await fixture.service.endSession("never-issued")
        await #expect(try fixture.service.verifySession(signedOut) == nil)
        await #expect(try fixture.service.sessionToken(kept) == token)
        await #expect(try !fixture.tokens.deleteAccessSession(idHash: AccessTokenService.hash(signedOut)))
    }

    /// Two servers (or the terminal and the server): a browser signed in through one is signed in
    /// on the other, and a token revoked on one is refused by both.
    @Test(arguments: StoreKind.available)
    func aSessionStartedThroughOneHandleIsSeenAndEndedThroughAnother(kind: StoreKind) async throws {
        let fixture = try await Fixture(kind)
        let other = await Fixture.service(on: try fixture.store.reopenedHousehold(), clock: fixture.clock)
        let created = try await fixture.service.create(name: "laptop")
        let sessionID = try await #require(try fixture.service.startSession(secret: created.secret))
        await #expect(try other.verifySession(sessionID)?.token == created.token)
        try await other.revoke(id: created.token.id)
        await #expect(try fixture.service.verifySession(sessionID) == nil)
        await #expect(try fixture.service.verify(secret: created.secret) == nil)
    }
}

import Foundation
import MomentumCore
import MomentumStoreContract
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

@testable import MomentumServices
@testable import MomentumStore

/// The real store, refusing every write as a full disk does (`StoreError.diskFull`).
struct FullDiskFocusTimers: FocusTimerRepository {
    let real: any FocusTimerRepository

    func focusTimers() async throws(StoreError) -> [FocusTimer] { try await real.focusTimers() }

    func changeFocusTimers<Result: Sendable>(
        at now: Date, _ change: ([FocusTimer]) throws -> (FocusTimerChanges, Result)
    ) throws -> Result {
        throw StoreError.diskFull
    }
}

/// The real store's tokens and sessions, refusing every write of a session as a full disk does.
struct FullDiskAccessTokens: AccessTokenRepository {
    let real: any AccessTokenRepository

    func accessTokens() async throws(StoreError) -> [AccessToken] { try await real.accessTokens() }
    func accessToken(secretHash: String) async throws(StoreError) -> AccessToken? {
        try await real.accessToken(secretHash: secretHash)
    }
    func saveAccessToken(_ token: AccessToken) throws(StoreError) { throw .diskFull }
    func revokeAccessToken(id: String, at now: Date) throws(StoreError) -> Bool { throw .diskFull }
    func accessSession(idHash: String) async throws(StoreError) -> (session: AccessSession, token: AccessToken)? {
        try await real.accessSession(idHash: idHash)
    }
    func saveAccessSession(_ session: AccessSession) throws(StoreError) { throw .diskFull }
    func deleteAccessSession(idHash: String) throws(StoreError) -> Bool { throw .diskFull }
    func deleteAccessSessions(lastUsedBefore cutoff: Date) throws(StoreError) -> Int { throw .diskFull }
}

/// What a read does when the write it would make on the side is refused by a full disk (issue 46):
/// it answers what is stored instead of failing.
@Suite("A full disk: reads that would also write still answer")
struct DiskFullReadTests {
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))

    /// Given a running ten-minute timer; when its time is up while the disk is full; then the
    /// timers read back with it completed (nothing written), and once there is room again the
    /// completion is stored and logged once.
    @Test(arguments: StoreKind.available)
    func aTimerWhoseTimeIsUpIsShownCompletedOnAFullDisk(kind: StoreKind) async throws {
        let clock = self.clock
        let services = await LogServices(store: try StoreUnderTest(kind), now: { clock.now })
        try await services.focusTimers.addTimer(name: "Tea", duration: .seconds(600))
        _ = try await services.focusTimers.start(named: "Tea")
        clock.advance(by: 900)

        let full = FocusTimerService(
            repository: FullDiskFocusTimers(real: services.store.store), now: { clock.now }, makeID: { UUID() },
            device: "test")
        #expect(try await full.timers().map(\.run.status) == [.completed])
        #expect(try await services.store.store.focusTimers().map(\.run.status) == [.running])
        await #expect(try services.practiceLog.records().isEmpty)

        #expect(try await services.focusTimers.timers().map(\.run.status) == [.completed])
        await #expect(try services.practiceLog.records().map(\.kind) == [.focus])
    }

    /// Given a browser's session last used two hours ago; when it is used on a full disk; then it
    /// is still live (its end stays where it was) and the request goes on.
    @Test func aSessionIsStillLiveWhenItsUseCannotBeWritten() async throws {
        let clock = self.clock
        let directory = try TemporaryDirectory()
        let database = try MomentumDatabase.open(directory: directory.url)
        let tokens = AccessTokenService(repository: database, now: { clock.now }, makeID: { UUID() })
        let created = try await tokens.create(name: "phone")
        let session = try await #require(try tokens.startSession(secret: created.secret))
        clock.advance(by: 2 * 3600)

        let full = AccessTokenService(
            repository: FullDiskAccessTokens(real: database), now: { clock.now }, makeID: { UUID() })
        let check = try await #require(try full.verifySession(session))
        #expect(check.token.id == created.token.id)
        #expect(!check.wasRefreshed)
        // With room again, the use is written.
        await #expect(try tokens.verifySession(session)?.wasRefreshed == true)
    }

    @Test func aFullDiskIsItsOwnKindOfFailure() {
        #expect(FailureKind.of(StoreError.diskFull) == .storageFull)
        #expect(FailureKind.of(FocusTimerServiceError.store(.diskFull)) == .storageFull)
        #expect(FailureKind.of(SyncError.store(.diskFull)) == .storageFull)
        #expect(LibraryImporter.writeFailure("a.mp3", POSIXError(.ENOSPC)) == .diskFull(fileName: "a.mp3"))
        #expect(
            LibraryImporter.writeFailure("a.mp3", CocoaError(.fileWriteOutOfSpace)) == .diskFull(fileName: "a.mp3"))
        #expect(
            ErrorMessages.message(for: StoreError.diskFull, catalog: .shared(for: .english))
                == "The disk is full: nothing was saved. Free some space and try again.")
    }
}

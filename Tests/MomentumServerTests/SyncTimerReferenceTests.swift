import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumComposition
import MomentumCore
import MomentumServices
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

@testable import MomentumServer

/// A checklist item's `timerID` names the timer it hangs under: a push may give Ben's item only a
/// timer Ben may use — never Ada's (issue 46) — on SQLite and on PostgreSQL.
@Suite("Sync: a pushed item's timer is the pusher's own")
struct SyncTimerReferenceTests {
    /// Ada (the founder) with a timer, Ben with one of his own, each with a full token, on `kind`.
    struct Home {
        let store: StoreUnderTest?
        let folder: TemporaryDirectory
        let household: HouseholdService
        let router: Router<BasicRequestContext>
        let ada: HTTPFields
        let ben: HTTPFields
        let adasTimer: FocusTimer
        let bensTimer: FocusTimer
        let benID: Person.ID

        init(on kind: StoreKind) async throws {
            folder = try TemporaryDirectory()
            let now: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_000) }
            switch kind {
            case .sqlite:
                store = nil
                household = try await HouseholdService.open(
                    dataDirectory: folder.url, device: "test", login: "Ada", timeZone: .gmt, now: now)
            case .postgres:
                let store = try await StoreUnderTest(.postgres)
                self.store = store
                household = try await HouseholdService.open(
                    postgres: try #require(store.postgresStore), dataDirectory: folder.url, device: "test",
                    login: "Ada", timeZone: .gmt, now: now)
            }
            let ben = try await household.add(named: "Ben")
            benID = ben.id
            let tokens = household.accessTokens
            ada = await [
                .authorization: "Bearer " + (try tokens.create(name: "ada", personID: Person.founderID).secret)
            ]
            self.ben = await [.authorization: "Bearer " + (try tokens.create(name: "ben", personID: ben.id).secret)]
            adasTimer = try await household.founder.focusTimers.addTimer(name: "Ada's tea", duration: .seconds(180))
            bensTimer = try await household.services(for: ben).focusTimers.addTimer(
                name: "Ben's run", duration: .seconds(600))
            router = buildRouter(
                configuration: ServerConfiguration(host: "0.0.0.0", dataDirectory: folder.url),
                dependencies: ServerDependencies(household: household, now: now, version: "test-version"))
        }

        var bensTimers: [FocusTimer] {
            get async throws {
                try await household.services(for: try household.person(named: "Ben")).focusTimers.timers()
            }
        }
    }

    /// Given Ada's timer; when Ben pushes a new item of his whose `timerID` is Ada's timer (in any
    /// spelling), after a change of his own timer; then the push is refused whole — 422
    /// `not_yours` at the item's change — and nothing of it is stored, in Ben's data or in Ada's.
    @Test(arguments: StoreKind.available)
    func anItemPushedUnderAnotherPersonsTimerIsRefusedWhole(kind: StoreKind) async throws {
        let home = try await Home(on: kind)
        var phone = try TestDevice(node: "n-benphone", name: "Ben's phone")
        let rename = try phone.set(.focusTimer, home.bensTimer.id.uuidString.lowercased(), "name", .string("Renamed"))
        for spelling in [home.adasTimer.id.uuidString.lowercased(), home.adasTimer.id.uuidString] {
            let item = try phone.item(UUID().uuidString.lowercased(), of: spelling, text: "Hidden")
            let body = try pushBody([rename] + item)
            let (ben, ada) = (home.ben, home.ada)
            let adasLog = try await Application(router: home.router).test(.router) { client in
                let pushed = try await client.send(.post, "/api/v1/sync/push", json: body, headers: ben)
                #expect(pushed.status == .unprocessableContent, "\(pushed.status) \(pushed.text)")
                #expect(pushed.errorCode == "not_yours")
                let error = try #require(try pushed.object["error"] as? [String: Any])
                #expect(error["index"] as? Int == 1)
                let bensLog = try await client.send(.get, "/api/v1/sync/pull?after=0&limit=1000", headers: ben).text
                #expect(!bensLog.contains("Hidden") && !bensLog.contains("Renamed"), "\(bensLog)")
                return try await client.send(.get, "/api/v1/sync/pull?after=0&limit=1000", headers: ada).text
            }
            #expect(!adasLog.contains("Hidden"))
        }
        await #expect(try home.bensTimers.map(\.name) == ["Ben's run"])
        await #expect(try home.bensTimers.first?.items == [])
        await #expect(try home.household.founder.focusTimers.timers().map(\.items.count) == [0])
    }

    /// The same item under Ben's own timer is his to push: it is stored and shows in his timer.
    @Test(arguments: StoreKind.available)
    func anItemPushedUnderThePushersOwnTimerIsStored(kind: StoreKind) async throws {
        let home = try await Home(on: kind)
        var phone = try TestDevice(node: "n-benphone", name: "Ben's phone")
        let body = try pushBody(
            try phone.item(UUID().uuidString.lowercased(), of: home.bensTimer.id.uuidString, text: "Shoes"))
        let ben = home.ben
        try await Application(router: home.router).test(.router) { client in
            let pushed = try await client.send(.post, "/api/v1/sync/push", json: body, headers: ben)
            #expect(pushed.status == .ok, "\(pushed.status) \(pushed.text)")
        }
        await #expect(try home.bensTimers.first?.items.map(\.text) == ["Shoes"])
    }
}

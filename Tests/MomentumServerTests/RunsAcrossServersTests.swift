import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumComposition
import MomentumCore
import MomentumPostgres
import MomentumServices
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

@testable import MomentumServer

/// Two servers on one PostgreSQL database (two applications, two pools of one schema): a run
/// started through one is paused, resumed and stopped through either, and logged once.
@Suite("Runs across two servers on one PostgreSQL database")
struct RunsAcrossServersTests {
    /// Two servers of one household on `store`'s schema, with one clock and one source of ids.
    struct TwoServers {
        let store: StoreUnderTest
        let folders: [TemporaryDirectory]
        let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))  // 2027-01-15T08:00:00Z
        let households: [HouseholdService]
        let routers: [Router<BasicRequestContext>]

        init() async throws {
            store = try await StoreUnderTest(.postgres)
            let first = try #require(store.postgresStore)
            let second = try await #require(try store.reopenedHousehold() as? PostgresStore)
            folders = [try TemporaryDirectory(), try TemporaryDirectory()]
            let (clock, ids) = (clock, SequentialIDs())
            var households: [HouseholdService] = []
            var routers: [Router<BasicRequestContext>] = []
            for (postgres, folder) in zip([first, second], folders) {
                let household = try await HouseholdService.open(
                    postgres: postgres, dataDirectory: folder.url, device: "test", login: "Ada", timeZone: .gmt,
                    now: { clock.now }, makeID: { ids.make() })
                households.append(household)
                var dependencies = ServerDependencies(
                    household: household, now: { clock.now }, makeID: { ids.make() }, version: "test-version")
                routers.append(
                    buildRouter(
                        configuration: ServerConfiguration(host: "127.0.0.1", dataDirectory: folder.url),
                        dependencies: dependencies))
            }
            self.households = households
            self.routers = routers
        }

        /// Runs `body` with a client of each server.
        func test(_ body: @Sendable (any TestClientProtocol, any TestClientProtocol) async throws -> Void)
            async throws
        {
            let (a, b) = (Application(router: routers[0]), Application(router: routers[1]))
            try await a.test(.router) { first in
                try await b.test(.router) { second in try await body(first, second) }
            }
        }
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func aRunStartedThroughOneServerIsPausedThroughTheOtherAndLoggedOnce() async throws {
        let servers = try await TwoServers()
        let clock = servers.clock
        try await servers.test { a, b in
            let started = try await a.send(
                .post, "/api/v1/runs", json: #"{"kind":"meditation","plan":{"durationMs":600000,"countdownMs":0}}"#)
            #expect(started.status == .created)
            let id = try #require(try started.object["id"] as? String)

            clock.advance(by: 60)
            let paused = try await b.send(.post, "/api/v1/runs/\(id)/pause")
            #expect(paused.status == .ok)
            #expect(try paused.object["status"] as? String == "paused")
            #expect(try paused.object["elapsedMs"] as? Int == 60_000)
            // The first server reads what the second wrote, and both list it.
            clock.advance(by: 120)
            let shown = try await a.send(.get, "/api/v1/runs/\(id)")
            #expect(try shown.object["status"] as? String == "paused")
            #expect(try shown.object["elapsedMs"] as? Int == 60_000)
            for client in [a, b] {
                let listed = try await client.send(.get, "/api/v1/runs")
                #expect((try listed.object["runs"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [id])
            }

            let resumed = try await a.send(.post, "/api/v1/runs/\(id)/resume")
            #expect(try resumed.object["status"] as? String == "running")
            #expect(try resumed.object["remainingMs"] as? Int == 540_000)
            // Its sound is still there on either server.
            let audio = try await b.send(.get, "/api/v1/runs/\(id)/audio", headers: [.range: "bytes=0-99"])
            #expect(audio.status == .partialContent)

            clock.advance(by: 240)
            let stopped = try await b.send(.post, "/api/v1/runs/\(id)/stop")
            #expect(stopped.status == .ok)
            let ending = try #require(try stopped.object["ending"] as? [String: Any])
            #expect(ending["outcome"] as? String == "stoppedEarly")
            #expect(ending["logged"] as? Bool == true)
            #expect(ending["practicedMs"] as? Int == 300_000)
            #expect((try stopped.object["record"] as? [String: Any])?["countedSeconds"] as? Int == 300)

            // Stopped on one server, stopped on both: no second stop, no sound, nothing listed.
            let again = try await a.send(.post, "/api/v1/runs/\(id)/stop")
            #expect(again.status == .conflict)
            let ended = try await a.send(.get, "/api/v1/runs/\(id)/audio")
            #expect(ended.status == .conflict)
            for client in [a, b] {
                let listed = try await client.send(.get, "/api/v1/runs")
                #expect((try listed.object["runs"] as? [Any])?.isEmpty == true)
                let shownEnded = try await client.send(.get, "/api/v1/runs/\(id)")
                #expect((try shownEnded.object["ending"] as? [String: Any])?["logged"] as? Bool == true)
            }
        }
        for household in servers.households {
            let records = try await household.founder.practiceLog.records()
            #expect(records.count == 1)
            #expect(records.first?.countedSeconds == 300)
        }
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func aRunThatEndedUnwatchedIsLoggedOnceWhenBothServersListAtOnce() async throws {
        let servers = try await TwoServers()
        let clock = servers.clock
        try await servers.test { a, b in
            let started = try await a.send(
                .post, "/api/v1/runs", json: #"{"kind":"breathing","plan":{"pattern":"4-0-4-0","rounds":5}}"#)
            let id = try #require(try started.object["id"] as? String)
            clock.advance(by: 3600)
            // Both servers find it completed at once; the run's row lets one of them log it.
            async let first = a.send(.get, "/api/v1/runs")
            async let second = b.send(.get, "/api/v1/runs")
            let (listedA, listedB) = try await (first, second)
            #expect(listedA.status == .ok)
            #expect(listedB.status == .ok)
            let shown = try await b.send(.get, "/api/v1/runs/\(id)")
            #expect((try shown.object["ending"] as? [String: Any])?["outcome"] as? String == "completed")
        }
        let records = try await servers.households[0].founder.practiceLog.records()
        #expect(records.map(\.kind) == [.breathing])
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func eachPersonSeesOnlyTheirOwnRuns() async throws {
        let servers = try await TwoServers()
        // While the founder is alone, the server asks for no token.
        try await servers.test { a, _ in
            let started = try await a.send(.post, "/api/v1/runs", json: #"{"kind":"workout"}"#)
            #expect(started.status == .created)
        }
        let ben = try await servers.households[0].add(named: "Ben")
        let bens = try #require(servers.households[1].practiceRunStore(for: ben.id))
        let founders = try #require(servers.households[1].practiceRunStore(for: Person.founderID))
        await #expect(try founders.practiceRuns().count == 1)
        await #expect(try bens.practiceRuns().isEmpty)
        try await bens.insertPracticeRun(id: UUID(), state: "{}", endedAtMs: nil, at: servers.clock.now)
        await #expect(try founders.practiceRuns().count == 1)
        // Removing a person removes their runs with the rest of their rows.
        try await servers.households[0].remove("Ben")
        await #expect(
            try servers.store.postgres("SELECT count(*)::int FROM practice_run WHERE person_id = \(ben.id)") == 0)
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func aReportSentToBothServersAtOnceAndAgainIsLoggedOnce() async throws {
        let servers = try await TwoServers()
        let body = #"""
            {"id":"5b1e7c2a-9d3f-4e8a-b6c4-1a2b3c4d5e6f",
             "practice":{"kind":"meditation","meditation":{"durationMs":600000,"countdownMs":0}},
             "steps":[{"action":"start","at":"2027-01-14T07:00:00Z"},{"action":"stop","at":"2027-01-14T07:06:00Z"}]}
            """#
        try await servers.test { a, b in
            // The page sent it, lost the answer and sent it again through the other server.
            async let first = a.send(.post, "/api/v1/runs/reports", json: body)
            async let second = b.send(.post, "/api/v1/runs/reports", json: body)
            let (answerA, answerB) = try await (first, second)
            #expect(answerA.status.code / 100 == 2, "\(answerA.text)")
            #expect(answerB.status.code / 100 == 2, "\(answerB.text)")
            let again = try await b.send(.post, "/api/v1/runs/reports", json: body)
            #expect(again.status == .ok)
            #expect(try again.object["alreadyLogged"] as? Bool == true)
        }
        for household in servers.households {
            let records = try await household.founder.practiceLog.records()
            #expect(records.map(\.countedSeconds) == [360])
        }
    }
}

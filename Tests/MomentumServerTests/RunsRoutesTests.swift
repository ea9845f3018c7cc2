import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import MomentumStoreTestSupport
import Testing

@testable import MomentumServer

@Suite("Runs: start, pause, resume and stop at reported instants, logged like the terminal's")
struct RunsRoutesTests {
    let start = "2027-01-15T08:00:00Z"

    @Test func aMeditationRunToItsEndIsLoggedOnceWithTheMeditatedTime() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let started = try await client.send(
                .post, "/api/v1/runs",
                json: #"{"kind":"meditation","plan":{"durationMs":120000,"countdownMs":0},"at":"\#(start)"}"#)
            #expect(started.status == .created)
            let id = try #require(try started.object["id"] as? String)
            #expect(try started.object["status"] as? String == "running")
            #expect(try started.object["phase"] as? String == "meditation")
            #expect((try started.object["timeline"] as? [String: Any])?["totalMs"] as? Int == 120_000)
            #expect((try started.object["affirmations"] as? [String: Any])?["running"] as? String != nil)

            let paused = try await client.send(
                .post, "/api/v1/runs/\(id)/pause", json: #"{"at":"2027-01-15T08:01:00Z"}"#)
            #expect(try paused.object["status"] as? String == "paused")
            #expect(try paused.object["elapsedMs"] as? Int == 60_000)
            let resumed = try await client.send(
                .post, "/api/v1/runs/\(id)/resume", json: #"{"at":"2027-01-15T08:05:00Z"}"#)
            #expect(try resumed.object["status"] as? String == "running")
            #expect(try resumed.object["remainingMs"] as? Int == 60_000)

            let stopped = try await client.send(
                .post, "/api/v1/runs/\(id)/stop", json: #"{"at":"2027-01-15T08:06:00.500Z"}"#)
            #expect(stopped.status == .ok)
            #expect(try stopped.object["status"] as? String == "completed")
            let ending = try #require(try stopped.object["ending"] as? [String: Any])
            #expect(ending["outcome"] as? String == "completed")
            #expect(ending["logged"] as? Bool == true)
            #expect((try stopped.object["record"] as? [String: Any])?["countedSeconds"] as? Int == 120)
        }
        let records = try await server.services.practiceLog.records()
        #expect(records.count == 1)
        #expect(records.first?.kind == .meditation)
        #expect(records.first?.start == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(records.first?.end == Date(timeIntervalSince1970: 1_800_000_360.5))
        // Starting the sit made its plan the default for next time, as in the terminal.
        await #expect(try server.services.settings.load().meditation.duration == .minutes(2))
    }

    @Test func aShortStopIsNotLoggedAndADiscardedEarlyStopIsNot() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let first = try await client.send(.post, "/api/v1/runs", json: #"{"kind":"breathing","at":"\#(start)"}"#)
            let firstID = try #require(try first.object["id"] as? String)
            let short = try await client.send(
                .post, "/api/v1/runs/\(firstID)/stop", json: #"{"at":"2027-01-15T08:00:30Z"}"#)
            #expect((try short.object["ending"] as? [String: Any])?["outcome"] as? String == "tooShortToLog")
            #expect((try short.object["ending"] as? [String: Any])?["logged"] as? Bool == false)

            let second = try await client.send(
                .post, "/api/v1/runs", json: #"{"kind":"workout","plan":{"rounds":20},"at":"\#(start)"}"#)
            let secondID = try #require(try second.object["id"] as? String)
            let discarded = try await client.send(
                .post, "/api/v1/runs/\(secondID)/stop", json: #"{"at":"2027-01-15T08:03:00Z","keep":false}"#)
            #expect((try discarded.object["ending"] as? [String: Any])?["outcome"] as? String == "stoppedEarly")
            #expect((try discarded.object["ending"] as? [String: Any])?["logged"] as? Bool == false)
        }
        await #expect(try server.services.practiceLog.records().isEmpty)
    }

    @Test func aWorkoutStoppedEarlyIsLoggedWithTheServersClockWhenNoInstantIsGiven() async throws {
        let server = try await TestServer()
        let clock = server.clock
        try await server.test { client in
            let started = try await client.send(
                .post, "/api/v1/runs", json: #"{"kind":"workout","plan":{"rounds":20}}"#)
            let id = try #require(try started.object["id"] as? String)
            clock.advance(by: 90)
            let shown = try await client.send(.get, "/api/v1/runs/\(id)")
            #expect(try shown.object["elapsedMs"] as? Int == 90_000)
            let stopped = try await client.send(.post, "/api/v1/runs/\(id)/stop")
            #expect((try stopped.object["ending"] as? [String: Any])?["logged"] as? Bool == true)
        }
        let record = try await #require(try server.services.practiceLog.records().first)
        #expect(record.kind == .workout)
        #expect(record.countedSeconds == 90)
        #expect(record.energyKilocalories != nil)
    }

    @Test func theListShowsRunsStillGoingOldestFirst() async throws {
        let server = try await TestServer()
        let clock = server.clock
        try await server.test { client in
            #expect(try await client.send(.get, "/api/v1/runs").object["runs"] as? [Any] != nil)
            let first = try await client.send(.post, "/api/v1/runs", json: #"{"kind":"breathing"}"#)
            let firstID = try #require(try first.object["id"] as? String)
            clock.advance(by: 5)
            let second = try await client.send(
                .post, "/api/v1/runs", json: #"{"kind":"workout","plan":{"rounds":20}}"#)
            let secondID = try #require(try second.object["id"] as? String)
            try await client.send(.post, "/api/v1/runs/\(secondID)/pause")
            let listed = try #require(try await client.send(.get, "/api/v1/runs").object["runs"] as? [[String: Any]])
            #expect(listed.compactMap { $0["id"] as? String } == [firstID, secondID])
            #expect(listed.compactMap { $0["status"] as? String } == ["running", "paused"])
            try await client.send(.post, "/api/v1/runs/\(firstID)/stop")
            let after = try #require(try await client.send(.get, "/api/v1/runs").object["runs"] as? [[String: Any]])
            #expect(after.compactMap { $0["id"] as? String } == [secondID])
        }
    }

    @Test func aRunThatEndedWithNobodyWatchingIsLoggedAtItsEnd() async throws {
        let server = try await TestServer()
        let clock = server.clock
        try await server.test { client in
            let started = try await client.send(
                .post, "/api/v1/runs", json: #"{"kind":"meditation","plan":{"durationMs":120000,"countdownMs":0}}"#)
            let id = try #require(try started.object["id"] as? String)
            clock.advance(by: 30)
            try await client.send(.post, "/api/v1/runs/\(id)/pause")
            clock.advance(by: 10)
            try await client.send(.post, "/api/v1/runs/\(id)/resume")
            // The tab closes; an hour later the app is opened again.
            clock.advance(by: 3600)
            let listed = try #require(try await client.send(.get, "/api/v1/runs").object["runs"] as? [Any])
            #expect(listed.isEmpty)
            let shown = try await client.send(.get, "/api/v1/runs/\(id)")
            #expect((try shown.object["ending"] as? [String: Any])?["outcome"] as? String == "completed")
            // A second look logs nothing twice.
            try await client.send(.get, "/api/v1/runs")
        }
        let records = try await server.services.practiceLog.records()
        #expect(records.count == 1)
        #expect(records.first?.countedSeconds == 120)
        #expect(records.first?.end == Date(timeIntervalSince1970: 1_800_000_130))
    }

    @Test func aCompletedRunThatCannotBeLoggedEndsUnloggedAndDoesNotWedgeTheRuns() async throws {
        let server = try await TestServer()
        let clock = server.clock
        // The log refuses every new record, for good (as a rule of the store would).
        let queue = try DatabaseQueue(path: server.services.sqlite.path)
        try await queue.write { db in
            try db.execute(
                sql: "CREATE TRIGGER refuseRecords BEFORE INSERT ON practiceRecord BEGIN SELECT RAISE(ABORT, 'no'); END"
            )
        }
        try await server.test { client in
            let started = try await client.send(
                .post, "/api/v1/runs",
                json: #"{"kind":"meditation","plan":{"durationMs":60000,"countdownMs":0},"at":"\#(start)"}"#)
            let id = try #require(try started.object["id"] as? String)
            clock.advance(by: 120)
            let list = try await client.send(.get, "/api/v1/runs")
            #expect(list.status == .ok)
            let shown = try await client.send(.get, "/api/v1/runs/\(id)")
            #expect(((try shown.object["ending"]) as? [String: Any])?["logged"] as? Bool == false)
            let next = try await client.send(.post, "/api/v1/runs", json: #"{"kind":"breathing"}"#)
            #expect(next.status == .created)
        }
    }

    @Test func runsThatEndedLongAgoAreForgotten() async throws {
        let server = try await TestServer()
        let clock = server.clock
        try await server.test { client in
            let started = try await client.send(.post, "/api/v1/runs", json: #"{"kind":"breathing"}"#)
            let id = try #require(try started.object["id"] as? String)
            clock.advance(by: 30)
            try await client.send(.post, "/api/v1/runs/\(id)/stop")
            clock.advance(by: 3599)
            try await client.send(.get, "/api/v1/runs")
            #expect(try await client.send(.get, "/api/v1/runs/\(id)").status == .ok)
            clock.advance(by: 2)
            try await client.send(.get, "/api/v1/runs")
            #expect(try await client.send(.get, "/api/v1/runs/\(id)").status == .notFound)
        }
    }

    @Test func actionsThatDoNotFitTheRunAreConflicts() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let started = try await client.send(.post, "/api/v1/runs", json: #"{"kind":"breathing","at":"\#(start)"}"#)
            let id = try #require(try started.object["id"] as? String)
            let resume = try await client.send(.post, "/api/v1/runs/\(id)/resume", json: #"{"at":"\#(start)"}"#)
            #expect(resume.status == .conflict)
            #expect(resume.errorMessage == "The run is not paused.")
            let early = try await client.send(
                .post, "/api/v1/runs/\(id)/pause", json: #"{"at":"2027-01-15T07:00:00Z"}"#)
            #expect(early.status == .conflict)
            try await client.send(.post, "/api/v1/runs/\(id)/stop", json: #"{"at":"2027-01-15T08:00:10Z"}"#)
            let again = try await client.send(.post, "/api/v1/runs/\(id)/stop", json: #"{"at":"2027-01-15T08:00:20Z"}"#)
            #expect(again.status == .conflict)
        }
    }

    @Test(arguments: [
        (#"{"kind":"juggling"}"#, HTTPResponse.Status.unprocessableContent),
        (#"{"plan":{}}"#, .badRequest),
        (#"{"kind":"meditation","plan":{"durationMs":-5}}"#, .unprocessableContent),
        (#"{"kind":"meditation","at":"yesterday"}"#, .unprocessableContent),
        (#"{"kind":"breathing","plan":{"pattern":"4-4-4-4","rounds":5,"minutes":5}}"#, .unprocessableContent),
        ("not json", .badRequest),
    ])
    func badStartsAreClearErrorsAndStartNothing(body: String, status: HTTPResponse.Status) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(.post, "/api/v1/runs", json: body)
            #expect(response.status == status, "\(response.text)")
            #expect(response.errorMessage?.isEmpty == false)
        }
        await #expect(try server.services.settings.load() == MomentumSettings())
    }

    @Test(arguments: ["/api/v1/runs/00000000-0000-0000-0000-000000000099/stop", "/api/v1/runs/not-a-uuid/pause"])
    func anUnknownRunIs404(uri: String) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(.post, uri)
            #expect(response.status == .notFound)
            #expect(response.errorCode == "not_found")
        }
    }
}
